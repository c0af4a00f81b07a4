package zklock

import (
	"context"
	"path"
	"testing"
	"time"

	"github.com/zklock/zklock/traceevent"
)

// reportedHead matches the observer's read of node that it let through its
// filter: the report of that node is in the channel (or was read).
func reportedHead(node string) func(TraceEvent) bool {
	return func(ev TraceEvent) bool {
		return ev.Action == traceevent.ObserveWatch && ev.Target == path.Base(node) && ev.Reported
	}
}

// TestElectionObserverLateReaderGetsNewest: a reader that sleeps through
// three changes of leader (a to b to c to d) reads d first, the leader
// now, not b, who resigned long ago: Leaders is a latest-value channel.
// With an unbuffered channel the observer stood blocked on sending b and
// never read c or d, so the wait for its report of d fails.
func TestElectionObserverLateReaderGetsNewest(t *testing.T) {
	p := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	a, b, c, d, o := newClient(t, "a"), newClient(t, "b"), newClient(t, "c"), newClient(t, "d"), newClient(t, "o")
	ea, eb, ec, ed, eo := election(t, a, p), election(t, b, p), election(t, c, p), election(t, d, p), election(t, o, p)
	la := campaign(t, ctx, ea, "a")
	obs := observe(t, ctx, eo)
	if info := next(t, obs, "a leads"); info.Epoch != la.Epoch() {
		t.Fatalf("report %+v, want a at epoch %d", info, la.Epoch())
	}
	lb := takeOver(t, ctx, la, queued(t, ctx, b, eb, "b"), "b led while a did: %v")
	lc := takeOver(t, ctx, lb, queued(t, ctx, c, ec, "c"), "c led while b did: %v")
	ld := takeOver(t, ctx, lc, queued(t, ctx, d, ed, "d"), "d led while c did: %v")
	o.trace.waitFor(t, "the observer's report of d (it reads on while nobody reads its channel)", 20*time.Second, reportedHead(ld.Node()))
	info := next(t, obs, "the late read")
	if info.Epoch != ld.Epoch() || string(info.Value) != "d" {
		t.Fatalf("a late reader read %+v first, want d, the leader now (epoch %d; a %d, b %d, c %d)",
			info, ld.Epoch(), la.Epoch(), lb.Epoch(), lc.Epoch())
	}
	if err := ld.Resign(ctx); err != nil {
		t.Fatal(err)
	}
	if info := next(t, obs, "vacancy"); !info.Vacant() {
		t.Fatalf("report %+v after d resigned, want a vacancy", info)
	}
}

// TestElectionObserverAheadOfJoins: an observer's listings wait in the
// session's urgent line, not behind its joins. The observer listed when
// only a led, so when a resigns it has no successor recorded and lists
// again, while a thousand candidates of its own session join the queue
// (their listings wait for the session's few listing slots, and a delayed
// link keeps them waiting). The bound is in requests: the listings the
// session sent from a's resignation to the report of b, the next leader.
// Ahead of the observer's own listing and read go those in flight and
// those handed a slot while it waits for one: a few rounds of maxListings.
// Behind the joins it waited for every join still queued (hundreds).
func TestElectionObserverAheadOfJoins(t *testing.T) {
	if testing.Short() {
		t.Skip("queues a thousand candidates on the ensemble")
	}
	skipTraceCheck(t, "a thousand candidates of one session: this test counts the session's requests; the observer's steps are checked in the other observer tests")
	const (
		joins = 1000
		bound = 6 * maxListings
	)
	p := lockPath(t)
	ctx := ctxFor(t, 2*time.Minute)
	a, b, o := newClient(t, "a"), newClient(t, "b"), newClient(t, "o")
	ea, eb, eo := election(t, a, p), election(t, b, p), election(t, o, p)
	la := campaign(t, ctx, ea, "a")
	obs := observe(t, ctx, eo)
	if info := next(t, obs, "a leads"); info.Epoch != la.Epoch() {
		t.Fatalf("report %+v, want a at epoch %d", info, la.Epoch())
	}
	pb := queued(t, ctx, b, eb, "b") // after the observer's listing: it does not know b

	lists, stop := joinBurst(t, ctx, o, joins, func(jctx context.Context) {
		if l, err := eo.Campaign(jctx, []byte("o")); err == nil {
			l.Resign(context.Background())
		}
	})
	defer stop()
	atResign := lists.Load()
	left := waitingListings(o.Session, joining)
	lb := takeOver(t, ctx, la, pb, "b led while a did: %v")
	info := next(t, obs, "b leads")
	sent := lists.Load() - atResign
	if info.Epoch != lb.Epoch() {
		t.Fatalf("report %+v, want b at epoch %d", info, lb.Epoch())
	}
	if sent > bound {
		t.Fatalf("from a's resignation to the report of b the observer's session sent %d listings (bound %d): the observer's listing waited behind its session's joins", sent, bound)
	}
	t.Logf("listings sent from the resignation to the report: %d (bound %d, %d joins waiting to list at the resignation)", sent, bound, left)
}
