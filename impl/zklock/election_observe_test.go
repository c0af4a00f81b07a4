package zklock

// Proclaim and Observe: what an election's observers and its leader see.

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/zklock/zklock/ensemble/ensembletest"
	"github.com/zklock/zklock/traceevent"
)

// next receives the observation's next report.
func next(t *testing.T, o *Observation, what string) LeaderInfo {
	t.Helper()
	select {
	case info, ok := <-o.Leaders():
		if !ok {
			t.Fatalf("%s: observation ended: %v", what, o.Err())
		}
		return info
	case <-time.After(30 * time.Second):
		t.Fatalf("%s: no report within 30s", what)
	}
	return LeaderInfo{}
}

// quiet checks that the observation reports nothing for a moment.
func quiet(t *testing.T, o *Observation, d time.Duration, what string) {
	t.Helper()
	select {
	case info, ok := <-o.Leaders():
		t.Fatalf("%s: reported %+v (open %v)", what, info, ok)
	case <-time.After(d):
	}
}

// ended waits for the observation's channel to close and returns Err.
func ended(t *testing.T, o *Observation) error {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case _, ok := <-o.Leaders():
			if !ok {
				return o.Err()
			}
		case <-deadline:
			t.Fatal("observation not closed within 30s")
		}
	}
}

// TestElectionProclaim: Proclaim changes the value observers and Leader
// see (a value proclaimed again is no change), keeps Guard working, and
// writes nothing once the leadership is lost: here our node was deleted
// and a node of the same name made by someone else, which a bare setData
// would write into.
func TestElectionProclaim(t *testing.T) {
	skipTraceCheck(t, "an impostor (an untraced admin client) deletes the leader's node and creates one of its name: "+
		"Election's nodes are written by its candidates only, so the model has no step for either")
	p := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	a, o := newClient(t, "a"), newClient(t, "o")
	ea, eo := election(t, a, p), election(t, o, p)
	la := campaign(t, ctx, ea, "v1")
	obs := observe(t, ctx, eo)
	if info := next(t, obs, "first"); string(info.Value) != "v1" || info.Epoch != la.Epoch() {
		t.Fatalf("first report %+v, want v1 at epoch %d", info, la.Epoch())
	}
	proclaim := func(v string) {
		t.Helper()
		if err := la.Proclaim(ctx, []byte(v)); err != nil {
			t.Fatalf("Proclaim(%s): %v", v, err)
		}
	}
	want := func(v string) {
		t.Helper()
		if info := next(t, obs, v); string(info.Value) != v || info.Epoch != la.Epoch() {
			t.Fatalf("report %+v, want %s at epoch %d (a value proclaimed again is no change)", info, v, la.Epoch())
		}
	}
	proclaim("v2")
	want("v2")
	// The same value again wakes the observer, which reads it, re-arms its
	// watch (before it would send) and reports nothing.
	armed := o.trace.count(action(traceevent.ObserveWatch))
	proclaim("v2")
	o.trace.waitCount(t, "the observer re-armed", 30*time.Second, armed+1, action(traceevent.ObserveWatch))
	// Leaders keeps only the newest report, so a duplicate would be
	// overwritten before the reader saw it: the read's trace event says
	// whether the observer sent it.
	evs := o.trace.all()
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Action == traceevent.ObserveWatch {
			if evs[i].Reported {
				t.Fatalf("the observer reported v2 again after reading it unchanged: %+v", evs[i])
			}
			break
		}
	}
	proclaim("v3")
	want("v3")
	wantLeader(t, ctx, eo, la, "v3")
	if _, err := la.Guard(ctx); err != nil {
		t.Fatalf("Guard after Proclaim: %v", err)
	}
	// An impostor takes our node's name.
	adm := admin(t)
	node := la.Node()
	if err := adm.Delete(node, -1); err != nil {
		t.Fatal(err)
	}
	if _, err := adm.Create(node, []byte("impostor"), 0, zk.WorldACL(zk.PermAll)); err != nil {
		t.Fatal(err)
	}
	if err := la.Proclaim(ctx, []byte("v4")); !errors.Is(err, ErrLockLost) {
		t.Fatalf("Proclaim after the loss = %v, want ErrLockLost", err)
	}
	if data, _, err := adm.Get(node); err != nil || string(data) != "impostor" {
		t.Fatalf("impostor's data = %q, %v: Proclaim wrote after the loss", data, err)
	}
	select {
	case <-la.Done():
	default:
		t.Fatal("leadership not ended by the failed Proclaim")
	}
	if err := la.Proclaim(ctx, []byte("v5")); !errors.Is(err, ErrNotHeld) || !errors.Is(err, ErrLockLost) {
		t.Fatalf("Proclaim of an ended leadership = %v, want ErrNotHeld and ErrLockLost", err)
	}
	adm.Delete(node, -1)
}

// sessionWatches reads `wchc` from every server: the paths the session
// watches.
func sessionWatches(t *testing.T, id int64) []string {
	t.Helper()
	e := ensembletest.Ensemble()
	if e == nil {
		t.Skip("external ensemble: no wchc")
	}
	var out []string
	key := fmt.Sprintf("0x%x", id)
	for i := 0; i < e.Size(); i++ {
		txt, err := e.FourLetter(context.Background(), i, "wchc")
		if err != nil {
			t.Fatalf("wchc on server %d: %v", i, err)
		}
		in := false
		for _, line := range strings.Split(txt, "\n") {
			switch {
			case strings.HasPrefix(line, "0x"):
				in = strings.TrimSpace(line) == key
			case in && strings.TrimSpace(line) != "":
				out = append(out, strings.TrimSpace(line))
			}
		}
	}
	return out
}

// wantWatches waits until the observer's session has exactly the data
// watches want (wchc lists data watches, not children watches).
func wantWatches(t *testing.T, id int64, want ...string) {
	t.Helper()
	var got []string
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if got = sessionWatches(t, id); slices.Equal(got, want) {
			return
		}
	}
	t.Fatalf("observer's data watches %q, want %q", got, want)
}

// TestElectionObserve: an observer reports a vacancy, each new leader once
// in epoch order (not the candidates queuing behind it), and the vacancy
// again; it holds one watch, on the leader's node or on the path; its
// channel closes with the reason when its ctx ends or its session closes,
// and no goroutine is left.
func TestElectionObserve(t *testing.T) {
	p := lockPath(t)
	runtime.GC()
	before := runtime.NumGoroutine()
	func() {
		ctx := ctxFor(t, time.Minute)
		a, b, o := newClient(t, "a"), newClient(t, "b"), newClient(t, "o")
		defer func() {
			for _, c := range []*client{a, b, o} {
				c.Close()
				c.net.Close()
			}
		}()
		ea, eb, eo := election(t, a, p), election(t, b, p), election(t, o, p)
		octx, cancel := context.WithCancel(ctx)
		obs, err := eo.Observe(octx)
		if err != nil {
			t.Fatal(err)
		}
		if info := next(t, obs, "empty"); !info.Vacant() || info.Epoch != 0 {
			t.Fatalf("first report %+v, want a vacancy", info)
		}
		la := campaign(t, ctx, ea, "a")
		if info := next(t, obs, "a leads"); info.Epoch != la.Epoch() || string(info.Value) != "a" || info.Node != la.Node() {
			t.Fatalf("report %+v, want a at epoch %d", info, la.Epoch())
		}
		wantWatches(t, o.ID(), a.abs(la.Node()))
		pb := queued(t, ctx, b, eb, "b")
		quiet(t, obs, 300*time.Millisecond, "b queued behind a")
		la.Resign(ctx)
		lb, err := pb.wait(t, 30*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if info := next(t, obs, "b leads"); info.Epoch != lb.Epoch() || string(info.Value) != "b" {
			t.Fatalf("report %+v, want b at epoch %d", info, lb.Epoch())
		}
		wantWatches(t, o.ID(), a.abs(lb.Node()))
		lb.Resign(ctx)
		if info := next(t, obs, "vacancy"); !info.Vacant() {
			t.Fatalf("report %+v, want a vacancy", info)
		}
		// The vacancy's watch is a children watch, which wchc does not
		// show: the one notification of the next candidate shows it.
		wantWatches(t, o.ID())
		before := o.net.Stats().Notifications
		la = campaign(t, ctx, ea, "a2")
		if info := next(t, obs, "a leads again"); info.Epoch != la.Epoch() || info.Epoch <= lb.Epoch() {
			t.Fatalf("report %+v, want a at epoch %d", info, la.Epoch())
		}
		if n := o.net.Stats().Notifications - before; n != 1 {
			t.Fatalf("the observer got %d notifications of a candidate after a vacancy, want 1", n)
		}
		wantWatches(t, o.ID(), a.abs(la.Node()))
		cancel()
		if err := ended(t, obs); !errors.Is(err, context.Canceled) {
			t.Fatalf("Err after ctx ended = %v, want context.Canceled", err)
		}
		obs2 := observe(t, ctx, eo)
		next(t, obs2, "second observation")
		o.Close()
		if err := ended(t, obs2); !errors.Is(err, ErrClosed) {
			t.Fatalf("Err after Close = %v, want ErrClosed", err)
		}
	}()
	goroutinesSettle(t, before, "closing every session")
}
