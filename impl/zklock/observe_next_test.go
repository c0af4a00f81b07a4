package zklock

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/zklock/zklock/faultinject"
	"github.com/zklock/zklock/traceevent"
)

// wantSteps checks the observer's steps in evs (its trace events since a
// point) against want.
func wantSteps(t *testing.T, evs []TraceEvent, want ...traceevent.Action) {
	t.Helper()
	var got []traceevent.Action
	for _, ev := range evs {
		got = append(got, ev.Action)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("observer steps %v, want %v", got, want)
	}
}

// observerReads counts the observer's listings and getData calls so far.
func observerReads(c *client) (lists, gets int64) {
	r := c.net.Stats().Requests
	return r[faultinject.OpGetChildren] + r[faultinject.OpGetChildren2], r[faultinject.OpGetData]
}

// TestElectionObserverReadsSuccessor: when the leader resigns, an observer
// reads the candidate its last listing showed behind the leader and reports
// it, without listing first: one read from the deletion to the report
// (Election.tla's ObserveNext); it lists after the report, for the new
// leader's successors (ObserveRefresh). A Proclaim wakes the observer too, but the
// leader still stands: the observer reports the new value, not the
// candidate behind. When that candidate gave up meanwhile, the read finds
// its node gone and the observer lists, reporting the one after it. The
// test's trace is checked against the model as every test's is.
func TestElectionObserverReadsSuccessor(t *testing.T) {
	p := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	a, b, c, o := newClient(t, "a"), newClient(t, "b"), newClient(t, "c"), newClient(t, "o")
	ea, eb, ec, eo := election(t, a, p), election(t, b, p), election(t, c, p), election(t, o, p)
	la := campaign(t, ctx, ea, "a")
	pb := queued(t, ctx, b, eb, "b")
	obs := observe(t, ctx, eo)
	if info := next(t, obs, "a leads"); info.Epoch != la.Epoch() {
		t.Fatalf("report %+v, want a at epoch %d", info, la.Epoch())
	}

	// A Proclaim fires the observer's watch with NodeDataChanged: a stays
	// the leader, and the observer must not take b for it.
	if err := la.Proclaim(ctx, []byte("a2")); err != nil {
		t.Fatal(err)
	}
	if info := next(t, obs, "a proclaims"); info.Epoch != la.Epoch() || string(info.Value) != "a2" {
		t.Fatalf("report %+v after a's Proclaim, want a (epoch %d) with a2", info, la.Epoch())
	}

	lists, gets := observerReads(o)
	from := len(o.trace.all())
	lb := takeOver(t, ctx, la, pb, "b led while a did: %v")
	if info := next(t, obs, "b leads"); info.Epoch != lb.Epoch() || string(info.Value) != "b" {
		t.Fatalf("report %+v, want b at epoch %d", info, lb.Epoch())
	}
	// The listing for b's successors comes after the report.
	o.trace.waitFor(t, "the observer's listing after its report", 30*time.Second, action(traceevent.ObserveRefresh))
	wantSteps(t, o.trace.all()[from:], traceevent.ObserveNext, traceevent.ObserveWatch, traceevent.ObserveRefresh)
	l2, g2 := observerReads(o)
	if l2 != lists+1 || g2 != gets+1 {
		t.Fatalf("from a's resignation the observer listed %d times and read %d nodes, want 1 (after its report) and 1", l2-lists, g2-gets)
	}

	// b leads with nobody listed behind it: c queues now, after the
	// observer's last listing; when b resigns the observer lists again.
	pc := queued(t, ctx, c, ec, "c")
	lc := takeOver(t, ctx, lb, pc, "c led while b did: %v")
	if info := next(t, obs, "c leads"); info.Epoch != lc.Epoch() {
		t.Fatalf("report %+v, want c at epoch %d", info, lc.Epoch())
	}

	// The successor the observer listed gives up before the leader goes:
	// its read finds the node gone, and the observer lists again and
	// reports the candidate that queued after its listing.
	actx, cancel := context.WithCancel(ctx)
	pa := queued(t, actx, a, ea, "a3")
	if err := lc.Proclaim(ctx, []byte("c2")); err != nil { // the observer lists again: a behind c
		t.Fatal(err)
	}
	next(t, obs, "c proclaims")
	pb2 := queued(t, ctx, b, eb, "b2")
	cancel()
	if _, err := pa.wait(t, 30*time.Second); err == nil {
		t.Fatal("a's Campaign led after its context ended")
	}
	lists, gets = observerReads(o)
	from = len(o.trace.all())
	lb2 := takeOver(t, ctx, lc, pb2, "b led while c did: %v")
	if info := next(t, obs, "b leads again"); info.Epoch != lb2.Epoch() || string(info.Value) != "b2" {
		t.Fatalf("report %+v, want b at epoch %d", info, lb2.Epoch())
	}
	// Leaders keeps the newest report without waiting for the reader, so
	// the observer may already have woken again (ObserveNotified) by the
	// time the report is read: the steps up to the report are checked, and
	// the counts only when nothing came after it.
	steps := o.trace.all()[from:]
	later := len(steps) > 4 && steps[4].Action == traceevent.ObserveNotified
	if later {
		steps = steps[:4]
	}
	wantSteps(t, steps, traceevent.ObserveNext, traceevent.ObserveWatch, traceevent.ObserveList, traceevent.ObserveWatch)
	l2, g2 = observerReads(o)
	if !later && (l2 != lists+1 || g2 != gets+2) {
		t.Fatalf("with the listed successor gone the observer listed %d times and read %d nodes, want 1 and 2", l2-lists, g2-gets)
	}
	if err := lb2.Resign(ctx); err != nil {
		t.Fatal(err)
	}
	if info := next(t, obs, "vacancy"); !info.Vacant() {
		t.Fatalf("report %+v, want a vacancy", info)
	}
}
