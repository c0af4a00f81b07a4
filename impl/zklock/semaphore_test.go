package zklock

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/zklock/zklock/model/trace"
	"github.com/zklock/zklock/traceevent"
)

// semMany: the tests whose sessions make several acquisitions at once
// skip the trace check (Semaphore.tla has one acquisition per client).
const semMany = "one session with many acquisitions at once: the model has one per client"

// newSem is a Semaphore of max leases at p on its own client.
func newSem(t testing.TB, name, p string, max int, opts ...SessionOption) (*client, *Semaphore) {
	t.Helper()
	c := newClient(t, name, opts...)
	m, err := NewSemaphore(c.Session, p, max)
	if err != nil {
		t.Fatal(err)
	}
	return c, m
}

// semNodes lists the lease nodes and the internal mutex's nodes.
func semNodes(t testing.TB, a *adminClient, p string) (leases, locks []string) {
	t.Helper()
	return nodes(t, a, p+semLeases), nodes(t, a, p+semLocks)
}

// semNodesAre waits until the lease nodes are exactly want and the
// internal mutex has none: a cancelled acquisition deletes its nodes
// before it returns, unless the server is slow to answer (cancelGrace),
// then in the background.
func semNodesAre(t testing.TB, a *adminClient, p string, want ...string) {
	t.Helper()
	want = slices.Sorted(slices.Values(want))
	var leases, locks []string
	deadline := time.Now().Add(5 * time.Second)
	for {
		leases, locks = semNodes(t, a, p)
		slices.Sort(leases)
		if slices.Equal(leases, want) && len(locks) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("lease nodes %v, internal mutex nodes %v; want leases %v and no internal node", leases, locks, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// semEmpty waits until no lease node and no internal mutex node is left.
func semEmpty(t testing.TB, a *adminClient, p string) {
	t.Helper()
	eventually(t, "no semaphore node left", 10*time.Second, func() bool {
		l, k := semNodes(t, a, p)
		return len(l) == 0 && len(k) == 0
	})
}

// TestSemaphoreMaxHolders: max 3, eight acquirers on four sessions, two
// rounds each. Never more than 3 believe they hold at once; the server
// never shows more than 3 lease nodes plus the one acquirer that waits
// holding the internal mutex; everyone gets a turn; nothing is left after.
// TryAcquire at max says ErrLocked and leaves nothing.
func TestSemaphoreMaxHolders(t *testing.T) {
	skipTraceCheck(t, semMany)
	const max, acquirers, rounds = 3, 8, 2
	p := lockPath(t)
	ctx := ctxFor(t, 30*time.Second)
	a := admin(t)
	sems := make([]*Semaphore, 4)
	for i := range sems {
		_, sems[i] = newSem(t, fmt.Sprintf("c%d", i), p, max)
	}
	var inside, peak atomic.Int32
	var serverPeak atomic.Int32
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() { // the server's view, while the acquirers run
		defer close(sampled)
		for {
			select {
			case <-stop:
				return
			case <-time.After(10 * time.Millisecond):
			}
			names, _, err := a.Children(p + semLeases)
			if err == nil && int32(len(names)) > serverPeak.Load() {
				serverPeak.Store(int32(len(names)))
			}
		}
	}()
	var wg sync.WaitGroup
	turns := make([]int, acquirers)
	for i := 0; i < acquirers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for r := 0; r < rounds; r++ {
				lease, err := sems[i%len(sems)].Acquire(ctx)
				if err != nil {
					t.Errorf("acquirer %d: %v", i, err)
					return
				}
				n := inside.Add(1)
				for {
					if old := peak.Load(); n <= old || peak.CompareAndSwap(old, n) {
						break
					}
				}
				time.Sleep(150 * time.Millisecond)
				inside.Add(-1)
				turns[i]++
				if err := lease.Unlock(ctx); err != nil {
					t.Errorf("acquirer %d unlock: %v", i, err)
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	<-sampled
	if peak.Load() > max {
		t.Fatalf("%d leases believed held at once, max %d", peak.Load(), max)
	}
	if serverPeak.Load() > max+1 {
		t.Fatalf("the server showed %d lease nodes: more than %d held and one waiting", serverPeak.Load(), max)
	}
	for i, n := range turns {
		if n != rounds {
			t.Fatalf("acquirer %d had %d turns, want %d", i, n, rounds)
		}
	}
	semEmpty(t, a, p)

	// At max, TryAcquire is refused and leaves nothing.
	var held []*Lease
	for i := 0; i < max; i++ {
		l, err := sems[i].Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, l)
	}
	names := make([]string, len(held))
	for i, l := range held {
		names[i] = path.Base(l.Node())
	}
	if _, err := sems[3].TryAcquire(ctx); !errors.Is(err, ErrLocked) {
		t.Fatalf("TryAcquire at max = %v, want ErrLocked", err)
	}
	semNodesAre(t, a, p, names...)
	// An Acquire that waits at max and gives up leaves nothing either.
	wctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	if _, err := sems[3].Acquire(wctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Acquire at max until its deadline = %v, want context.DeadlineExceeded", err)
	}
	semNodesAre(t, a, p, names...)
	hs, err := sems[0].Holders(ctx)
	if err != nil || len(hs) != max || hs[0] != held[0].Node() {
		t.Fatalf("Holders = %v, %v; want the %d leases, %s first", hs, err, max, held[0].Node())
	}
	for _, l := range held {
		l.Unlock(ctx)
	}
	semEmpty(t, a, p)
	t.Logf("peak %d believed, %d lease nodes on the server", peak.Load(), serverPeak.Load())
}

// TestSemaphoreFencing: tokens strictly increase across the leases of one
// semaphore, and Guard and Check fail once someone else deletes the lease
// node.
func TestSemaphoreFencing(t *testing.T) {
	p := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	a := admin(t)
	_, m1 := newSem(t, "one", p, 2)
	_, m2 := newSem(t, "two", p, 2)
	var last int64
	for i := 0; i < 4; i++ {
		m := []*Semaphore{m1, m2}[i%2]
		l, err := m.Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if l.Token() <= last {
			t.Fatalf("lease %d token %d, not above %d", i, l.Token(), last)
		}
		last = l.Token()
		if i == 0 {
			// Acquire returns once it has released the internal mutex: a
			// holder that kept it would make every other acquirer wait
			// with leases free (the mutant semaphore-keeps-internal-lock).
			if locks := synced(t, a, p+semLocks); len(locks) != 0 {
				t.Fatalf("internal mutex nodes %v left while a lease is held", locks)
			}
		}
		if err := l.Unlock(ctx); err != nil {
			t.Fatal(err)
		}
	}
	l, err := m1.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Guard(ctx); err != nil {
		t.Fatalf("Guard while held: %v", err)
	}
	chk, err := l.Check()
	if err != nil {
		t.Fatal(err)
	}
	// An outsider's delete: the environment's ForeignDelete, after which
	// the lease ends by LearnNodeGone (SemaphoreForeign).
	start := time.Now().UnixNano()
	if err := a.Delete(l.Node(), -1); err != nil {
		t.Fatal(err)
	}
	end := time.Now().UnixNano()
	traceOutsider(t, trace.Event{Lock: l.sem, Action: traceevent.ForeignDelete, Node: baseName(l.Node()), Start: start, End: &end})
	if _, err := m1.leases.s.Conn().Multi(chk); !errors.Is(err, zk.ErrNoNode) {
		t.Fatalf("a multi behind Check after the node's deletion = %v, want zk.ErrNoNode", err)
	}
	if _, err := l.Guard(ctx); !errors.Is(err, ErrLockLost) {
		t.Fatalf("Guard after the node's deletion = %v, want ErrLockLost", err)
	}
	select {
	case <-l.Done():
	default:
		t.Fatal("the lease did not end when Guard found its node gone")
	}
	if _, err := l.Check(); !errors.Is(err, ErrNotHeld) {
		t.Fatalf("Check after the loss = %v, want ErrNotHeld", err)
	}
	semEmpty(t, a, p)
}

// TestSemaphoreTryAcquireStorm: many TryAcquires at once on max 1 (a
// semaphore mutex): never two inside (kazoo's semaphore granted two).
func TestSemaphoreTryAcquireStorm(t *testing.T) {
	skipTraceCheck(t, semMany)
	p := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	a := admin(t)
	sems := make([]*Semaphore, 3)
	for i := range sems {
		c := newClient(t, fmt.Sprintf("c%d", i))
		var err error
		if sems[i], err = NewSemaphoreMutex(c.Session, p); err != nil {
			t.Fatal(err)
		}
	}
	var inside, wins, refusals atomic.Int32
	end := time.Now().Add(2 * time.Second)
	var wg sync.WaitGroup
	for i := 0; i < 9; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(end) {
				l, err := sems[i%len(sems)].TryAcquire(ctx)
				if errors.Is(err, ErrLocked) {
					refusals.Add(1)
					// Tries that meet on the internal mutex refuse each
					// other: a little jitter lets one through now and then.
					time.Sleep(time.Duration(rand.IntN(5)) * time.Millisecond)
					continue
				}
				if err != nil {
					t.Errorf("TryAcquire: %v", err)
					return
				}
				if n := inside.Add(1); n > 1 {
					t.Errorf("%d inside a semaphore mutex", n)
				}
				wins.Add(1)
				time.Sleep(5 * time.Millisecond)
				inside.Add(-1)
				l.Unlock(ctx)
			}
		}()
	}
	wg.Wait()
	if wins.Load() == 0 {
		t.Fatal("no TryAcquire won")
	}
	semEmpty(t, a, p)
	t.Logf("%d wins, %d refusals", wins.Load(), refusals.Load())
}
