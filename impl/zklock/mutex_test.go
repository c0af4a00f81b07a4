package zklock

import (
	"context"
	"errors"
	"fmt"
	"path"
	"sync"
	"testing"
	"time"

	"github.com/zklock/zklock/traceevent"
)

// Test 1: 16 sessions x 50 acquisitions. The counter is read, then written
// back one larger after a pause: any double grant loses an update. Tokens
// must grow tenure after tenure.
func TestMutualExclusion(t *testing.T) {
	const sessions, rounds = 16, 50
	lock := lockPath(t)
	ctx := ctxFor(t, 5*time.Minute)
	var (
		mu      sync.Mutex // orders the test's own bookkeeping, not the tenures
		counter int
		tokens  []int64
		wg      sync.WaitGroup
	)
	for i := 0; i < sessions; i++ {
		c := newClient(t, fmt.Sprintf("c%d", i))
		m, err := NewMutex(c.Session, lock)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := 0; r < rounds; r++ {
				lease, err := m.Lock(ctx)
				if err != nil {
					t.Errorf("%s: Lock: %v", c.name, err)
					return
				}
				mu.Lock()
				tokens = append(tokens, lease.Token())
				seen := counter
				mu.Unlock()
				time.Sleep(200 * time.Microsecond)
				mu.Lock()
				counter = seen + 1
				mu.Unlock()
				if err := lease.Unlock(ctx); err != nil {
					t.Errorf("%s: Unlock: %v", c.name, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if counter != sessions*rounds {
		t.Errorf("counter = %d, want %d: some tenures overlapped", counter, sessions*rounds)
	}
	for i := 1; i < len(tokens); i++ {
		if tokens[i] <= tokens[i-1] {
			t.Errorf("tenure %d has token %d after %d: tokens must increase", i, tokens[i], tokens[i-1])
		}
	}
	t.Logf("%d acquisitions, tokens %d..%d", len(tokens), tokens[0], tokens[len(tokens)-1])
}

// Test 3: waiters of one session, queued one after another, acquire in
// sequence-number order.
func TestFIFO(t *testing.T) {
	const waiters = 10
	lock := lockPath(t)
	ctx := ctxFor(t, 2*time.Minute)
	holder := newClient(t, "holder")
	hm, _ := NewMutex(holder.Session, lock)
	first, err := hm.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	skipTraceCheck(t, "one session with many acquisitions at once: the model has one per client")
	c := newClient(t, "waiters") // one session, many contenders
	m, _ := NewMutex(c.Session, lock)
	var (
		mu    sync.Mutex
		order []int64
		wg    sync.WaitGroup
	)
	for i := 0; i < waiters; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lease, err := m.Lock(ctx)
			if err != nil {
				t.Errorf("Lock: %v", err)
				return
			}
			mu.Lock()
			order = append(order, seqOf(t, lease.Node()))
			mu.Unlock()
			lease.Unlock(ctx)
		}()
		// Queue them one at a time so the queue order is the start order.
		c.trace.waitCount(t, fmt.Sprintf("waiter %d queued", i), time.Minute, i+1, waiting)
	}
	if err := first.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	for i := 1; i < len(order); i++ {
		if order[i] <= order[i-1] {
			t.Fatalf("grants by sequence number %v: not FIFO", order)
		}
	}
}

// Test 4: TryLock fails fast, and leaves no node, while the lock is held.
func TestTryLock(t *testing.T) {
	lock := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	a, b := newClient(t, "a"), newClient(t, "b")
	ma, _ := NewMutex(a.Session, lock)
	mb, _ := NewMutex(b.Session, lock)
	held, err := ma.TryLock(ctx)
	if err != nil {
		t.Fatalf("TryLock of a free lock: %v", err)
	}
	for i := 0; i < 3; i++ {
		if _, err := mb.TryLock(ctx); !errors.Is(err, ErrLocked) {
			t.Fatalf("TryLock of a held lock = %v, want ErrLocked", err)
		}
		if got := nodes(t, admin(t), lock); len(got) != 1 {
			t.Fatalf("after a failed TryLock the lock has nodes %v, want only the holder's", got)
		}
	}
	if err := held.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	second, err := mb.TryLock(ctx)
	if err != nil {
		t.Fatalf("TryLock after release: %v", err)
	}
	if second.Token() <= held.Token() {
		t.Errorf("token %d after %d", second.Token(), held.Token())
	}
	second.Unlock(ctx)
}

// Test 5: a waiter in the middle of the queue gives up. Its node goes, and
// the waiter behind it goes back to waiting for the holder, not to holding.
func TestCancelWhileWaiting(t *testing.T) {
	lock := lockPath(t)
	ctx := ctxFor(t, 2*time.Minute)
	h, a, b := newClient(t, "holder"), newClient(t, "middle"), newClient(t, "last")
	mh, _ := NewMutex(h.Session, lock)
	ma, _ := NewMutex(a.Session, lock)
	mb, _ := NewMutex(b.Session, lock)
	held, err := mh.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	actx, cancelA := context.WithCancel(ctx)
	pa := lockAsync(actx, ma.Lock)
	a.trace.waitFor(t, "middle queued", time.Minute, waiting)
	pb := lockAsync(ctx, mb.Lock)
	b.trace.waitFor(t, "last queued", time.Minute, waiting)
	middle := a.trace.waitFor(t, "middle's node", time.Second, action(traceevent.CreateOk)).Node

	cancelA()
	if _, err := pa.wait(t, time.Minute); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled Lock = %v, want context.Canceled", err)
	}
	eventually(t, "the middle node deleted", 10*time.Second, func() bool {
		for _, n := range nodes(t, admin(t), lock) {
			if n == middle {
				return false
			}
		}
		return true
	})
	// The last waiter was woken by the middle node's deletion; it must list
	// again and wait for the holder, whose node still exists.
	holderNode := path.Base(held.Node())
	deadline := time.After(time.Minute)
	for b.trace.count(func(ev TraceEvent) bool { return waiting(ev) && ev.Target == holderNode }) == 0 {
		if pb.returned() {
			t.Fatalf("the last waiter returned (%v) while the holder still holds: a notification was taken for a grant", pb.err)
		}
		select {
		case <-deadline:
			t.Fatalf("the last waiter never went back to waiting for the holder; trace:\n%s", b.trace.dump())
		case <-time.After(10 * time.Millisecond):
		}
	}
	if pb.returned() {
		t.Fatal("the last waiter holds while the holder holds")
	}
	if err := held.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	lease, err := pb.wait(t, time.Minute)
	if err != nil {
		t.Fatalf("the last waiter after release: %v", err)
	}
	lease.Unlock(ctx)

	// A deadline ends a wait the same way.
	held, _ = mh.Lock(ctx)
	dctx, stop := context.WithTimeout(ctx, 300*time.Millisecond)
	defer stop()
	if _, err := ma.Lock(dctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Lock past its deadline = %v, want context.DeadlineExceeded", err)
	}
	eventually(t, "only the holder's node left", 10*time.Second, func() bool {
		return len(nodes(t, admin(t), lock)) == 1
	})
	held.Unlock(ctx)
}

// The fencing token is the lock node's czxid: a lock path that is deleted
// and made again starts its sequence numbers from 0 again, but not its
// tokens, so a resource never takes a later tenure for an earlier one.
func TestTokenGrowsAcrossLockPathRecreation(t *testing.T) {
	skipTraceCheck(t, "an operator deletes the lock path: a step outside the model")
	lock := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	a := admin(t)
	c := newClient(t, "c")
	m, _ := NewMutex(c.Session, lock)
	last := int64(-1)
	for round := 0; round < 2; round++ {
		lease, err := m.Lock(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if seq := seqOf(t, lease.Node()); seq != 0 {
			t.Fatalf("round %d: node %s on a fresh lock path, want sequence 0", round, lease.Node())
		}
		if lease.Token() <= last {
			t.Fatalf("round %d: token %d after %d, on a lock path made again", round, lease.Token(), last)
		}
		last = lease.Token()
		if err := lease.Unlock(ctx); err != nil {
			t.Fatal(err)
		}
		if err := a.Delete(lock, -1); err != nil {
			t.Fatalf("delete the lock path: %v", err)
		}
	}
}
