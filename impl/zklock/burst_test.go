package zklock

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/zklock/zklock/ensemble/ensembletest"
)

// TestWaiterBurstKeepsSession is issue 22's availability case on the real
// ensemble: one session queues two thousand waiters at once on one lock path
// behind a lease it holds itself, while its heartbeat runs. Each joining
// waiter lists the whole queue (up to two thousand names a reply), and
// ZooKeeper answers the session's requests in order, so without a bound on
// the listings in flight the heartbeat's sync waited behind hundreds of
// them, past the loss deadline, and the healthy session declared itself
// lost with its lease (a soak lost six of sixteen waiter sessions so). The
// session's listing slots (maxListings, listings.go) keep the sync behind a
// few. The burst is made three times (join, then cancel every waiter);
// nothing is wrong with the servers, so the session and its lease must be
// alive at the end: a loss is a fact, not a timing threshold. Its control
// is the code mutant unbounded-listings.
func TestWaiterBurstKeepsSession(t *testing.T) {
	if testing.Short() {
		t.Skip("queues thousands of waiters on the ensemble")
	}
	const (
		waiters = 2000
		rounds  = 3
	)
	s, err := NewSession(ctxFor(t, time.Minute), ensembletest.Require(t), WithSessionTimeout(10*time.Second), timing())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	lock := lockPath(t)
	m, err := NewMutex(s, lock)
	if err != nil {
		t.Fatal(err)
	}
	held, err := m.Lock(ctxFor(t, time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	a := admin(t)
	for r := 0; r < rounds && s.Err() == nil; r++ {
		burst(t, s, a, lock, waiters)
	}
	if err := s.Err(); err != nil {
		t.Fatalf("a healthy session with %d waiters joining at once declared itself lost: %v", waiters, err)
	}
	select {
	case <-held.Done():
		t.Fatalf("lease lost on a healthy ensemble: %v", held.Err())
	default:
	}
	if err := held.Unlock(ctxFor(t, 30*time.Second)); err != nil {
		t.Fatalf("unlock: %v", err)
	}
}

// burst queues n waiters of s on lock at once, waits until all are queued
// (or the session is lost), then cancels them and waits for every Lock to
// return. A Lock that fails otherwise than by its cancel fails the test,
// unless the session was lost (the caller reports that).
func burst(t *testing.T, s *Session, a *adminClient, lock string, n int) {
	t.Helper()
	ctx, cancel := context.WithCancel(ctxFor(t, 2*time.Minute))
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := 0; i < n; i++ {
		m, err := NewMutex(s, lock)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if lease, err := m.Lock(ctx); err == nil {
				errs <- errors.New("a waiter was granted beside the holder")
				lease.Unlock(context.Background())
			} else if !errors.Is(err, context.Canceled) {
				errs <- err
			}
		}()
	}
	queueIs(t, s, a, lock, func(k int) bool { return k >= n+1 })
	cancel()
	wg.Wait()
	close(errs)
	for err := range errs {
		if s.Err() == nil {
			t.Fatalf("waiter: %v", err)
		}
	}
	// The cancelled waiters delete their nodes; the next burst starts
	// from the holder alone, so that its queue is as long as this one's.
	queueIs(t, s, a, lock, func(k int) bool { return k == 1 })
}

// queueIs polls the length of lock's queue, a few times a second (each
// poll lists it whole), until want holds of it or s is lost.
func queueIs(t *testing.T, s *Session, a *adminClient, lock string, want func(int) bool) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for s.Err() == nil {
		k := len(nodes(t, a, lock))
		if want(k) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("queue of %s: %d nodes, still not as wanted after 90s", lock, k)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
