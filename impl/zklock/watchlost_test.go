package zklock

import (
	"context"
	"errors"
	"fmt"
	"path"
	"testing"
	"time"

	"github.com/zklock/zklock/faultinject"
	"github.com/zklock/zklock/traceevent"
)

// watchLost matches the trace event of a getData on the node waited for
// whose reply was lost with the connection.
func watchLost(ev TraceEvent) bool {
	return ev.Action == traceevent.WatchPredecessor && ev.Result == traceevent.ResultLost
}

// The connection breaks after the waiter's getData on the node it waits
// for reached the server: the server drops whatever watch it armed with the
// connection, and go-zookeeper does not set one again for a call whose
// reply it never got (spec/tla PredecessorLockConnLoss, WatchPredecessorLost;
// the mutant PredecessorLockLostWatchWaits, which waits instead, fails
// StarvationFree). The waiter must say so in its trace ("lost"), list again
// while the holder still holds, wait on a watch it did get, and be granted
// once the holder releases, leaving no node behind.
//
// The waiter, with one node ahead, sends two getData calls together (its
// own node's and its predecessor's) and the cut takes the first to reach
// the proxy; the other's reply is lost too when its request was on the
// wire before the connection closed. A round where it was not (the request
// waited in the client and went out after the reconnect) is cancelled and
// another waiter tries.
func TestWatchReplyLost(t *testing.T) {
	lock := lockPath(t)
	ctx := ctxFor(t, 3*time.Minute)
	a := admin(t)
	h := newClient(t, "holder")
	mh, _ := NewMutex(h.Session, lock)
	held, err := mh.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	const rounds = 10
	var c *client
	var p *pending
	for i := 0; i < rounds && c == nil; i++ {
		w := newClient(t, fmt.Sprintf("waiter-%d", i))
		m, _ := NewMutex(w.Session, lock)
		cut := w.net.CutAfterRequest(faultinject.OpGetData)
		lctx, cancel := context.WithCancel(ctx)
		wp := lockAsync(lctx, m.Lock)
		report, err := cut.Wait(ctx)
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		w.trace.waitFor(t, "a watch set or lost after the cut", time.Minute, func(ev TraceEvent) bool {
			return waiting(ev) || watchLost(ev)
		})
		if w.trace.count(watchLost) > 0 {
			t.Logf("round %d: the reply of the predecessor's getData was lost (cut %+v)", i, report)
			// Nothing is armed: the waiter must list and watch again.
			w.trace.waitFor(t, "waiting again after the lost reply", time.Minute, waiting)
			c, p = w, wp
			t.Cleanup(cancel)
			break
		}
		cancel()
		if _, err := wp.wait(t, time.Minute); !errors.Is(err, context.Canceled) {
			t.Fatalf("round %d: a cancelled waiter's Lock = %v, want context.Canceled", i, err)
		}
	}
	if c == nil {
		t.Fatalf("in %d rounds no reply of a predecessor's getData was lost: the test checked nothing it is for", rounds)
	}
	// After the lost reply the waiter listed the queue again, with the
	// holder's node still in it, and watched it again.
	holder := path.Base(held.Node())
	evs := c.trace.all()
	sawLost := false
	relisted := false
	for _, ev := range evs {
		switch {
		case watchLost(ev):
			if ev.Target != holder {
				t.Fatalf("lost getData on %s, want the holder's %s", ev.Target, holder)
			}
			sawLost = true
		case sawLost && ev.Action == traceevent.ListChildren && ev.Result == traceevent.ResultWait && ev.Target == holder:
			relisted = true
		}
	}
	if !relisted {
		t.Fatalf("no listing waiting for %s after the lost reply; trace:\n%s", holder, c.trace.dump())
	}
	if p.returned() {
		t.Fatalf("Lock returned (%v) while the holder holds", p.err)
	}
	if err := held.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	lease, err := p.wait(t, time.Minute)
	if err != nil {
		t.Fatalf("Lock after a lost watch reply and the holder's Unlock: %v; trace:\n%s", err, c.trace.dump())
	}
	if err := lease.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	if left := synced(t, a, lock); len(left) != 0 {
		t.Fatalf("nodes %v left", left)
	}
}
