package zklock

import (
	"context"
	"errors"
	"path"
	"strings"
	"testing"
	"time"

	"github.com/zklock/zklock/ensemble/ensembletest"
	"github.com/zklock/zklock/faultinject"
	"github.com/zklock/zklock/traceevent"
)

// Test 6: the server creates our node but the reply never reaches us. Lock
// must find the node by its uuid instead of making a second one.
func TestCreateReplyLost(t *testing.T) {
	for _, contended := range []bool{false, true} {
		name := map[bool]string{false: "free", true: "contended"}[contended]
		t.Run(name, func(t *testing.T) {
			lock := lockPath(t)
			ctx := ctxFor(t, 2*time.Minute)
			a := admin(t)
			// The parents exist already, so the create that is cut is the
			// one that succeeds, not one that fails for a missing parent.
			_, held := holdLock(t, ctx, lock)
			if !contended {
				held.Unlock(ctx)
			}
			c := newClient(t, "cut")
			m, _ := NewMutex(c.Session, lock)
			cut := c.net.CutAfterRequest(faultinject.OpCreate2)
			p := lockAsync(ctx, m.Lock)
			report, err := cut.Wait(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if !report.ReplyDropped || report.Err != 0 {
				t.Fatalf("the cut did not drop a successful create reply: %+v", report)
			}
			if contended {
				c.trace.waitFor(t, "queued after the cut", time.Minute, waiting)
				if got := ours(nodes(t, a, lock), c.trace); got != 1 {
					t.Fatalf("%d nodes of ours while waiting, want 1", got)
				}
				held.Unlock(ctx)
			}
			lease, err := p.wait(t, time.Minute)
			if err != nil {
				t.Fatalf("Lock after a lost create reply: %v", err)
			}
			if n := c.trace.count(action(traceevent.CreateReplyLost)); n != 1 {
				t.Fatalf("%d CreateReplyLost steps, want 1; trace:\n%s", n, c.trace.dump())
			}
			c.trace.waitFor(t, "own node found", time.Second, func(ev TraceEvent) bool {
				return ev.Action == traceevent.FindOwnNode && ev.Result == traceevent.ResultFound
			})
			if got := nodes(t, a, lock); len(got) != 1 || got[0] != path.Base(lease.Node()) {
				t.Fatalf("nodes %v while holding, want exactly our %s", got, path.Base(lease.Node()))
			}
			if err := lease.Unlock(ctx); err != nil {
				t.Fatal(err)
			}
			eventually(t, "no node left after Unlock", 5*time.Second, func() bool {
				return len(nodes(t, a, lock)) == 0
			})
		})
	}
}

// A lost create reply is resolved by the request's uuid, not by the
// session: while a lease of the same session holds the lock, a second Lock
// whose create reply is lost must find its own node and queue behind the
// first, not take the first one's node for its own.
func TestCreateReplyLostBesideOwnLease(t *testing.T) {
	skipTraceCheck(t, "one session with two acquisitions at once: the model has one per client")
	lock := lockPath(t)
	ctx := ctxFor(t, 2*time.Minute)
	a := admin(t)
	c := newClient(t, "c")
	m, _ := NewMutex(c.Session, lock)
	first, err := m.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cut := c.net.CutAfterRequest(faultinject.OpCreate2)
	p := lockAsync(ctx, m.Lock)
	report, err := cut.Wait(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !report.ReplyDropped || report.Err != 0 {
		t.Fatalf("the cut did not drop a successful create reply: %+v", report)
	}
	firstNode := path.Base(first.Node())
	deadline := time.After(time.Minute)
	for c.trace.count(func(ev TraceEvent) bool { return waiting(ev) && ev.Target == firstNode }) == 0 {
		if p.returned() {
			t.Fatalf("the second Lock returned (%v, node %v) while the first lease holds", p.err, leaseNode(p.val))
		}
		select {
		case <-deadline:
			t.Fatalf("the second Lock never queued behind the first; trace:\n%s", c.trace.dump())
		case <-time.After(10 * time.Millisecond):
		}
	}
	if got := nodes(t, a, lock); len(got) != 2 {
		t.Fatalf("nodes %v while one holds and one waits, want 2", got)
	}
	if err := first.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	second, err := p.wait(t, time.Minute)
	if err != nil {
		t.Fatalf("the second Lock after the first's Unlock: %v", err)
	}
	if second.Node() == first.Node() {
		t.Fatalf("the second lease has the first one's node %s", second.Node())
	}
	second.Unlock(ctx)
	eventually(t, "no node left", 5*time.Second, func() bool { return len(nodes(t, a, lock)) == 0 })
}

func leaseNode(l *Lease) string {
	if l == nil {
		return ""
	}
	return l.Node()
}

// ours counts the nodes carrying the uuid of c's current acquisition.
func ours(names []string, tl *traceLog) int {
	evs := tl.all()
	uuid := evs[len(evs)-1].Request
	n := 0
	for _, name := range names {
		if strings.Contains(name, uuid) {
			n++
		}
	}
	return n
}

// Test 7: the holder's network goes silent past its session timeout. Its
// lease must end (ErrLockLost) before the server can expire the session and
// so before another contender's Lock returns.
func TestHolderSessionExpires(t *testing.T) {
	lock := lockPath(t)
	ctx := ctxFor(t, 2*time.Minute)
	h := newClient(t, "holder", WithSessionTimeout(shortTimeout))
	w := newClient(t, "waiter")
	mh, _ := NewMutex(h.Session, lock)
	mw, _ := NewMutex(w.Session, lock)
	held, err := mh.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	lost := make(chan time.Time, 1)
	go func() {
		<-held.Done()
		lost <- time.Now()
	}()
	p := lockAsync(ctx, mw.Lock)
	w.trace.waitFor(t, "waiter queued", time.Minute, waiting)
	h.net.BlackholeUntilHealed()
	defer h.net.Heal()

	lease, err := p.wait(t, time.Minute)
	if err != nil {
		t.Fatalf("waiter after the holder's expiry: %v", err)
	}
	var lostAt time.Time
	select {
	case lostAt = <-lost:
	case <-time.After(5 * time.Second):
		t.Fatal("the holder's lease never ended, though another client now holds the lock")
	}
	if !lostAt.Before(p.at) {
		t.Fatalf("the holder learned of its loss %v after the waiter acquired", lostAt.Sub(p.at))
	}
	if err := held.Err(); !errors.Is(err, ErrLockLost) || !errors.Is(err, ErrSessionLost) {
		t.Fatalf("lost lease Err = %v, want ErrLockLost and ErrSessionLost", err)
	}
	if err := held.Unlock(ctx); !errors.Is(err, ErrLockLost) {
		t.Fatalf("Unlock of a lost lease = %v, want ErrLockLost", err)
	}
	if err := held.Unlock(ctx); !errors.Is(err, ErrNotHeld) {
		t.Fatalf("second Unlock = %v, want ErrNotHeld", err)
	}
	if _, err := held.Guard(ctx); !errors.Is(err, ErrNotHeld) {
		t.Fatalf("Guard of a lost lease = %v, want ErrNotHeld", err)
	}
	t.Logf("holder knew %v before the waiter acquired", p.at.Sub(lostAt))
	lease.Unlock(ctx)
}

// Test 8: a waiter's session expires. Its Lock fails, none of its nodes
// remains, and the queue behind it still moves. Then the same from the
// protocol's side: a waiter's node vanishes while its session looks alive
// (what an expiry looks like before the client learns of it); the waiter
// must notice at its next wake-up instead of taking the lock.
func TestWaiterSessionExpires(t *testing.T) {
	t.Run("expiry", func(t *testing.T) {
		lock := lockPath(t)
		ctx := ctxFor(t, 2*time.Minute)
		a := admin(t)
		h, w1, w2 := newClient(t, "holder"), newClient(t, "w1", WithSessionTimeout(shortTimeout)), newClient(t, "w2")
		mh, _ := NewMutex(h.Session, lock)
		m1, _ := NewMutex(w1.Session, lock)
		m2, _ := NewMutex(w2.Session, lock)
		held, err := mh.Lock(ctx)
		if err != nil {
			t.Fatal(err)
		}
		p1 := lockAsync(ctx, m1.Lock)
		w1.trace.waitFor(t, "w1 queued", time.Minute, waiting)
		p2 := lockAsync(ctx, m2.Lock)
		w2.trace.waitFor(t, "w2 queued", time.Minute, waiting)
		w1id := w1.ID()
		w1.net.BlackholeUntilHealed()
		defer w1.net.Heal()
		if _, err := p1.wait(t, time.Minute); !errors.Is(err, ErrSessionLost) {
			t.Fatalf("Lock of an expired waiter = %v, want ErrSessionLost", err)
		}
		eventually(t, "the expired waiter's node removed", time.Minute, func() bool {
			for _, n := range nodes(t, a, lock) {
				if _, st, err := a.Get(lock + "/" + n); err == nil && st.EphemeralOwner == w1id {
					return false
				}
			}
			return true
		})
		// w2 was woken by w1's node going; it must wait for the holder.
		w2.trace.waitFor(t, "w2 waits for the holder", time.Minute, func(ev TraceEvent) bool {
			return waiting(ev) && ev.Target == path.Base(held.Node())
		})
		if p2.returned() {
			t.Fatalf("w2 returned (%v) while the holder holds", p2.err)
		}
		held.Unlock(ctx)
		lease, err := p2.wait(t, time.Minute)
		if err != nil {
			t.Fatalf("w2: %v", err)
		}
		lease.Unlock(ctx)
	})
	t.Run("node-vanishes", func(t *testing.T) {
		skipTraceCheck(t, "an operator deletes a lock node: a step outside the model")
		lock := lockPath(t)
		ctx := ctxFor(t, 2*time.Minute)
		a := admin(t)
		h, w1, w2 := newClient(t, "holder"), newClient(t, "w1"), newClient(t, "w2")
		mh, _ := NewMutex(h.Session, lock)
		m1, _ := NewMutex(w1.Session, lock)
		m2, _ := NewMutex(w2.Session, lock)
		held, err := mh.Lock(ctx)
		if err != nil {
			t.Fatal(err)
		}
		p1 := lockAsync(ctx, m1.Lock)
		w1.trace.waitFor(t, "w1 queued", time.Minute, waiting)
		p2 := lockAsync(ctx, m2.Lock)
		w2.trace.waitFor(t, "w2 queued", time.Minute, waiting)
		w1node := w1.trace.waitFor(t, "w1's node", time.Second, action(traceevent.CreateOk)).Node
		if err := a.Delete(lock+"/"+w1node, -1); err != nil {
			t.Fatal(err)
		}
		held.Unlock(ctx)
		lease2, err := p2.wait(t, time.Minute)
		if err != nil {
			t.Fatalf("w2: %v", err)
		}
		lease1, err := p1.wait(t, time.Minute)
		if err == nil {
			lease1.Unlock(ctx)
			t.Fatalf("w1 acquired although its node was gone, while w2 holds: a double grant")
		}
		if !errors.Is(err, ErrLockLost) {
			t.Fatalf("w1 = %v, want ErrLockLost", err)
		}
		lease2.Unlock(ctx)
	})
}

// Test 9: the leader dies while one client holds and others wait. The
// holder keeps its lease through the election; the waiters then acquire in
// order. A session survives an election that ends, reconnect included,
// within the room its timeout leaves after the drift margin, the sync lag
// and a heartbeat (here 10 - 1 - 3 - 1.5 = 4.5 s; elections on the test
// ensemble take under one).
func TestLeaderKilled(t *testing.T) {
	e := ensembletest.RequireLocal(t)
	lock := lockPath(t)
	ctx := ctxFor(t, 3*time.Minute)
	room := []SessionOption{WithSessionTimeout(10 * time.Second), WithDriftMargin(time.Second)}
	h := newClient(t, "holder", room...)
	mh, _ := NewMutex(h.Session, lock)
	held, err := mh.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	const n = 3
	granted := make(chan int, n)
	for i := 0; i < n; i++ {
		c := newClient(t, "w", room...)
		m, _ := NewMutex(c.Session, lock)
		go func() {
			lease, err := m.Lock(ctx)
			if err != nil {
				t.Errorf("waiter %d: %v", i, err)
				granted <- -1
				return
			}
			granted <- i
			lease.Unlock(context.Background())
		}()
		c.trace.waitFor(t, "waiter queued", time.Minute, waiting)
	}
	killed := killZooKeeperLeader(t, ctx, e, time.Minute)
	// A guarded no-op proves the holder reached the new quorum and its lock
	// node still stands.
	if _, err := held.Guard(ctx); err != nil {
		t.Fatalf("the holder's lease after the election: %v", err)
	}
	t.Logf("the holder's guard succeeded %v after the kill", time.Since(killed).Round(time.Millisecond))
	if err := held.Err(); err != nil {
		t.Fatalf("the holder lost its lease to a leader election: %v", err)
	}
	if err := held.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	for want := 0; want < n; want++ {
		select {
		case got := <-granted:
			if got != want {
				t.Fatalf("grant %d went to waiter %d", want, got)
			}
		case <-time.After(time.Minute):
			t.Fatalf("waiter %d never acquired", want)
		}
	}
}
