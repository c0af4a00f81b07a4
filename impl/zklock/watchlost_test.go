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
	_, held := holdLock(t, ctx, lock)
	c, p := loseWatchReply(t, ctx, func(s *Session) func(context.Context) (*Lease, error) {
		m, _ := NewMutex(s, lock)
		return m.Lock
	})
	grantedAfterRelisting(t, ctx, c, p, held)
	if left := synced(t, a, lock); len(left) != 0 {
		t.Fatalf("nodes %v left", left)
	}
}

// TestRWWatchReplyLost is TestWatchReplyLost for RWMutex
// (spec/tla SharedLockConnLoss, WatchPredecessorLost; the mutant
// SharedLockLostWatchWaits fails StarvationFree): behind a writer that
// holds, a reader (which watches the last write node ahead of it, and
// its own node for the hand-off) and a writer (its predecessor alone)
// lose the reply of their getData on the holder's node, list again, and
// are granted once the holder releases. The traces say "lost" and are
// replayed in the model of SharedLock when the test ends; the reader's is
// pinned as cmd/tlatrace/testdata/impl_rw_watch_reply_lost.jsonl, which
// TLC checks against SharedLockTrace.
func TestRWWatchReplyLost(t *testing.T) {
	for _, kind := range []Mode{ModeRead, ModeWrite} {
		t.Run(kind.String(), func(t *testing.T) {
			lock := lockPath(t)
			ctx := ctxFor(t, 3*time.Minute)
			a := admin(t)
			h := newClient(t, "holder")
			rh, _ := NewRWMutex(h.Session, lock)
			held, err := rh.Lock(ctx)
			if err != nil {
				t.Fatal(err)
			}
			c, p := loseWatchReply(t, ctx, func(s *Session) func(context.Context) (*Lease, error) {
				rw, _ := NewRWMutex(s, lock)
				if kind == ModeRead {
					return rw.RLock
				}
				return rw.Lock
			})
			lease := grantedAfterRelisting(t, ctx, c, p, held)
			if lease.Mode() != kind {
				t.Fatalf("granted a %s lease, want %s", lease.Mode(), kind)
			}
			if left := synced(t, a, lock); len(left) != 0 {
				t.Fatalf("nodes %v left", left)
			}
		})
	}
}

// loseWatchReply queues waiters behind the lock's holder, each on a
// session of its own with the Lock lockOf makes, until the connection of
// one breaks after its getData on the node it waits for reached the
// server, and its trace says the reply was lost. It returns that waiter,
// still waiting (it listed and watched again).
func loseWatchReply(t *testing.T, ctx context.Context, lockOf func(*Session) func(context.Context) (*Lease, error)) (*client, *pending) {
	t.Helper()
	const rounds = 10
	for i := 0; i < rounds; i++ {
		w := newClient(t, fmt.Sprintf("waiter-%d", i))
		lock := lockOf(w.Session)
		cut := w.net.CutAfterRequest(faultinject.OpGetData)
		lctx, cancel := context.WithCancel(ctx)
		wp := lockAsync(lctx, lock)
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
			// Nothing is armed: the waiter must list and watch again, after
			// one backoff (tens of milliseconds); 20 s is room for a loaded
			// machine, and what a waiter that never lists again (the mutant
			// lost-watch-waits) costs the mutants' run.
			w.trace.waitFor(t, "waiting again after the lost reply", 20*time.Second, waiting)
			t.Cleanup(cancel)
			return w, wp
		}
		cancel()
		if _, err := wp.wait(t, time.Minute); !errors.Is(err, context.Canceled) {
			t.Fatalf("round %d: a cancelled waiter's Lock = %v, want context.Canceled", i, err)
		}
	}
	t.Fatalf("in %d rounds no reply of a predecessor's getData was lost: the test checked nothing it is for", rounds)
	return nil, nil
}

// grantedAfterRelisting checks that c, after its lost getData on the
// holder's node, listed the queue again with that node still in it, and
// that it is granted once held is released; it releases the lease it
// returns.
func grantedAfterRelisting(t *testing.T, ctx context.Context, c *client, p *pending, held *Lease) *Lease {
	t.Helper()
	holder := path.Base(held.Node())
	sawLost := false
	relisted := false
	for _, ev := range c.trace.all() {
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
	return lease
}

// secondLost matches the trace event of a getData on the node two ahead
// whose reply was lost with the connection.
func secondLost(ev TraceEvent) bool {
	return ev.Action == traceevent.WatchSecond && ev.Result == traceevent.ResultLost
}

// The connection breaks after a waiter's getData on the node two ahead of
// its own (its second, sent just before the getData on its predecessor)
// reached the server: no watch is armed there. The waiter must not read
// it again (a retry would read after the predecessor's getData while the
// trace puts it before: a node gone in between made impl/zklock's trace
// impossible in the spec), must say so in its trace ("lost", the spec's
// WatchSecondLost), wait for its predecessor all the same, and be granted
// after both nodes ahead are released, leaving no node behind. Its trace,
// replayed in the model when the test ends, is pinned as
// cmd/tlatrace/testdata/impl_second_watch_reply_lost.jsonl for TLC. The
// code mutant second-watch-retried (the retry as it was) fails the test.
func TestSecondWatchReplyLost(t *testing.T) {
	lock := lockPath(t)
	ctx := ctxFor(t, 3*time.Minute)
	a := admin(t)
	_, held := holdLock(t, ctx, lock)
	w1 := newClient(t, "first")
	m1, _ := NewMutex(w1.Session, lock)
	p1 := lockAsync(ctx, m1.Lock)
	w1.trace.waitFor(t, "the first waiter waiting", time.Minute, waiting)

	w2 := newClient(t, "second")
	m2, _ := NewMutex(w2.Session, lock)
	// The waiter's first getData is on its second (the holder's node).
	cut := w2.net.CutAfterRequest(faultinject.OpGetData)
	p2 := lockAsync(ctx, m2.Lock)
	report, err := cut.Wait(ctx)
	if err != nil {
		t.Fatal(err)
	}
	w2.trace.waitFor(t, "waiting after the cut", time.Minute, waiting)
	lost := w2.trace.count(secondLost)
	if lost == 0 {
		t.Fatalf("cut %+v: no WatchSecond \"lost\" in the trace:\n%s", report, w2.trace.dump())
	}
	for _, ev := range w2.trace.all() {
		if secondLost(ev) && ev.Target != path.Base(held.Node()) {
			t.Fatalf("lost getData on %s, want the holder's %s", ev.Target, path.Base(held.Node()))
		}
	}
	if err := held.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	l1, err := p1.wait(t, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if p2.returned() {
		t.Fatalf("the second waiter's Lock returned (%v) while the first holds", p2.err)
	}
	if err := l1.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	l2, err := p2.wait(t, time.Minute)
	if err != nil {
		t.Fatalf("Lock after a lost second watch: %v; trace:\n%s", err, w2.trace.dump())
	}
	if err := l2.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	if left := synced(t, a, lock); len(left) != 0 {
		t.Fatalf("nodes %v left", left)
	}
}
