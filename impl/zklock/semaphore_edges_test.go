package zklock

// Semaphores at their edges: herds, strangers, mismatched max, bad input, LockAll.

import (
	"context"
	"errors"
	"fmt"
	"path"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklock/zklock/traceevent"
)

// TestSemaphoreNoHerd: with the one lease held and three acquirers
// waiting, only the one holding the internal mutex watches the leases;
// the release notifies it alone, and the others are woken one at a time
// by the internal mutex.
func TestSemaphoreNoHerd(t *testing.T) {
	p := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	a := admin(t)
	_, mh := newSem(t, "holder", p, 1)
	held, err := mh.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var waiters []*client
	var pend []*pending
	for i := 0; i < 3; i++ {
		c, m := newSem(t, fmt.Sprintf("w%d", i), p, 1)
		waiters = append(waiters, c)
		pend = append(pend, lockAsync(ctx, m.Acquire))
	}
	watching := func() int {
		n := 0
		for _, c := range waiters {
			if c.trace.count(func(ev TraceEvent) bool {
				return ev.Action == traceevent.ListLeases && ev.Result == traceevent.ResultWait
			}) > 0 {
				n++
			}
		}
		return n
	}
	// Each waiter either watches the leases or queues on the internal
	// mutex (a watch on its predecessor there).
	eventually(t, "every waiter watches something", 30*time.Second, func() bool {
		n := watching()
		for _, c := range waiters {
			n += min(1, c.trace.count(waiting))
		}
		return n >= len(waiters)
	})
	time.Sleep(200 * time.Millisecond) // a second watcher, if any, shows now
	if n := watching(); n != 1 {
		t.Fatalf("%d acquirers watch the leases at once, want 1", n)
	}
	changed := func() int {
		n := 0
		for _, c := range waiters {
			n += c.trace.count(action(traceevent.LeasesChanged))
		}
		return n
	}
	if err := held.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	first := firstReturned(t, pend, nil)
	if n := changed(); n != 1 {
		t.Fatalf("one release woke %d acquirers on the leases, want 1", n)
	}
	done := map[*pending]bool{first: true}
	for len(done) < len(pend) { // each holds in turn, releasing for the next
		for q := range done {
			if q.val != nil {
				q.val.Unlock(ctx)
				q.val = nil
			}
		}
		done[firstReturned(t, pend, done)] = true
	}
	for q := range done {
		if q.val != nil {
			q.val.Unlock(ctx)
		}
	}
	if n := changed(); n > len(pend) {
		t.Fatalf("%d wake-ups on the leases for %d releases", n, len(pend))
	}
	semEmpty(t, a, p)
}

// firstReturned waits for an acquisition not in seen to return, with a lease.
func firstReturned(t *testing.T, pend []*pending, seen map[*pending]bool) *pending {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		for _, q := range pend {
			if !seen[q] && q.returned() {
				if q.err != nil {
					t.Fatalf("a waiter failed: %v", q.err)
				}
				return q
			}
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatal("no waiter acquired after a release")
	return nil
}

// TestSemaphoreStrangers: a child of P/leases that is not a lease node
// counts toward max, as Curator counts every child: with one stranger and
// max 2 only one lease is granted, never more. Holders does not list it.
func TestSemaphoreStrangers(t *testing.T) {
	skipTraceCheck(t, "strangers' children appear in listings the model does not make")
	p := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	a := admin(t)
	for _, n := range []string{path.Dir(p), p, p + semLeases, p + semLeases + "/stranger"} {
		if _, err := a.Create(n, nil, 0, zk.WorldACL(zk.PermAll)); err != nil && !errors.Is(err, zk.ErrNodeExists) {
			t.Fatalf("create %s: %v", n, err)
		}
	}
	_, m1 := newSem(t, "one", p, 2)
	_, m2 := newSem(t, "two", p, 2)
	l, err := m1.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m2.TryAcquire(ctx); !errors.Is(err, ErrLocked) {
		t.Fatalf("TryAcquire beside a holder and a stranger, max 2 = %v, want ErrLocked", err)
	}
	hs, err := m2.Holders(ctx)
	if err != nil || len(hs) != 1 || hs[0] != l.Node() {
		t.Fatalf("Holders = %v, %v; want only %s", hs, err, l.Node())
	}
	l.Unlock(ctx)
	l2, err := m2.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	l2.Unlock(ctx)
	if err := a.Delete(p+semLeases+"/stranger", -1); err != nil {
		t.Fatalf("the stranger: %v", err)
	}
}

// TestSemaphoreMaxMismatch: max is stored nowhere (as in Curator): two
// processes that disagree on it each enforce their own on the shared count.
func TestSemaphoreMaxMismatch(t *testing.T) {
	skipTraceCheck(t, "one path used with max 1 and max 3: the spec has one MaxLeases")
	p := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	a := admin(t)
	_, one := newSem(t, "max1", p, 1)
	_, three := newSem(t, "max3", p, 3)
	l1, err := one.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	l3, err := three.TryAcquire(ctx)
	if err != nil {
		t.Fatalf("max 3 beside one lease: %v", err)
	}
	if _, err := one.TryAcquire(ctx); !errors.Is(err, ErrLocked) {
		t.Fatalf("max 1 beside two leases = %v, want ErrLocked", err)
	}
	l1.Unlock(ctx)
	l3.Unlock(ctx)
	semEmpty(t, a, p)
}

// TestSemaphoreBadInput: a max below 1, a bad path, a nil session, context
// or semaphore are refused with their typed errors, never a panic.
func TestSemaphoreBadInput(t *testing.T) {
	c := newClient(t, "c")
	for _, max := range []int{0, -1} {
		if _, err := NewSemaphore(c.Session, "/s", max); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("max %d: %v, want ErrInvalidArgument", max, err)
		}
	}
	for _, p := range []string{"", "s", "/", "/s/", "/zookeeper/s", "/a//b"} {
		if _, err := NewSemaphore(c.Session, p, 2); !errors.Is(err, ErrInvalidPath) {
			t.Errorf("path %q: %v, want ErrInvalidPath", p, err)
		}
	}
	if _, err := NewSemaphoreMutex(nil, "/s"); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("nil session: %v, want ErrInvalidArgument", err)
	}
	m, err := NewSemaphoreMutex(c.Session, "/s")
	if err != nil {
		t.Fatal(err)
	}
	var nilCtx context.Context
	if _, err := m.Acquire(nilCtx); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("nil context: %v, want ErrInvalidArgument", err)
	}
	var none *Semaphore
	if _, err := none.TryAcquire(context.Background()); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("nil semaphore: %v, want ErrInvalidArgument", err)
	}
	if _, err := none.Holders(context.Background()); !errors.Is(err, ErrInvalidArgument) || none.Path() != "" || none.Max() != 0 {
		t.Errorf("nil semaphore's Holders: %v", err)
	}
}

// TestSemaphoreLockAll: a Semaphore is a Locker: LockAll takes a lease of
// it beside a Mutex, and Unlock returns both.
func TestSemaphoreLockAll(t *testing.T) {
	p := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	a := admin(t)
	c, sem := newSem(t, "c", p, 2)
	mu, _ := NewMutex(c.Session, p+"-mutex")
	all, err := LockAll(ctx, sem, mu)
	if err != nil {
		t.Fatal(err)
	}
	if hs, _ := sem.Holders(ctx); len(hs) != 1 || hs[0] != all.Leases()[0].Node() {
		t.Fatalf("Holders %v, want the semaphore's part %s", hs, all.Leases()[0].Node())
	}
	if err := all.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	semEmpty(t, a, p)
}
