package zklock

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/zklock/zklock/ensemble/ensembletest"
)

// TestWaiterBurstKeepsSession is issue 22's availability case on the real
// ensemble: one session queues 1,500 waiters at once on one lock path
// behind a lease it holds itself, while its heartbeat runs. Each joining
// waiter lists the whole queue, and ZooKeeper answers the session's
// requests in order, so without a bound on the listings in flight the
// heartbeat's sync waited behind all of them, past the loss deadline, and
// the healthy session declared itself lost with its lease (a soak lost six
// of sixteen waiter sessions so). The queue is made long at once by
// padding: three thousand children that are no contenders (the listing
// returns them all the same), so that every listing is large (about 600 KB)
// from the first waiter on, as in a queue thousands long. The session's
// listing slots (maxListings, listings.go) keep the sync behind a few.
// The burst is made three times (join, then cancel every waiter; the
// mutant survived one run in four with two rounds, on a busy machine), of
// 1,500 waiters on a 6 s session: on a fast machine three bursts of 1,000
// ran within a 10 s session's loss window and the mutant survived. Nothing
// is wrong with the servers, so the session and its lease must be alive at
// the end: a loss is a fact, not a timing threshold. Its control is the
// code mutant unbounded-listings.
func TestWaiterBurstKeepsSession(t *testing.T) {
	if testing.Short() {
		t.Skip("queues a thousand waiters on the ensemble")
	}
	const (
		waiters = 1500
		pads    = 3000
		rounds  = 3
	)
	s, err := NewSession(ctxFor(t, time.Minute), ensembletest.Require(t), WithSessionTimeout(6*time.Second), timing())
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
	pad(t, a, lock, pads)
	for r := 0; r < rounds && s.Err() == nil; r++ {
		burst(t, s, a, lock, waiters, pads+1)
	}
	if err := s.Err(); err != nil {
		t.Fatalf("a healthy session with %d waiters joining a queue of %d children at once declared itself lost: %v", waiters, pads+1, err)
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

// pad adds n ephemeral children of a's session under lock, with long names
// that are no lock nodes: they go with a's session when the test ends.
func pad(t *testing.T, a *adminClient, lock string, n int) {
	t.Helper()
	long := strings.Repeat("x", 190)
	const batch = 250
	for i := 0; i < n; i += batch {
		var ops []any
		for j := i; j < min(i+batch, n); j++ {
			ops = append(ops, &zk.CreateRequest{Path: fmt.Sprintf("%s/pad-%05d-%s", lock, j, long),
				Acl: zk.WorldACL(zk.PermAll), Flags: zk.FlagEphemeral})
		}
		if _, err := a.Multi(ops...); err != nil {
			t.Fatalf("padding %s: %v", lock, err)
		}
	}
}

// burst queues n waiters of s on lock at once, behind the before children
// already there, waits until all are queued
// (or the session is lost), then cancels them and waits for every Lock to
// return. A Lock that fails otherwise than by its cancel fails the test,
// unless the session was lost (the caller reports that).
func burst(t *testing.T, s *Session, a *adminClient, lock string, n, before int) {
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
	queueIs(t, s, a, lock, func(k int) bool { return k >= before+n })
	cancel()
	wg.Wait()
	close(errs)
	for err := range errs {
		if s.Err() == nil {
			t.Fatalf("waiter: %v", err)
		}
	}
	// The cancelled waiters delete their nodes; the next burst starts
	// from the same queue as this one.
	queueIs(t, s, a, lock, func(k int) bool { return k == before })
}

// queueIs polls the length of lock's queue, a few times a second (each
// poll lists it whole), until want holds of it or s is lost.
func queueIs(t *testing.T, s *Session, a *adminClient, lock string, want func(int) bool) {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for s.Err() == nil {
		// The admin's own connection may drop under the burst's load: a
		// failed poll is polled again.
		names, _, err := a.Children(lock)
		if err == nil && want(len(names)) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("queue of %s: %d nodes (%v), still not as wanted after 90s", lock, len(names), err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
