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
// ran within a 10 s session's loss window and the mutant survived.
//
// The session must be alive at the end if nothing was wrong with the
// servers: a loss is a fact, not a timing threshold. "Nothing wrong" is
// checked, not assumed: an idle probe session with the same timeout, on
// another follower, shares the machine's CPU and the leader with the
// burst but not its server. A machine so loaded that the servers answer no
// one in time loses the probe too, and that attempt proves nothing either
// way. A session lost beside a probe that lived is what the bound exists
// to prevent, and two such attempts fail the test; one in which the session
// lived passes it. One loss is not enough: on a machine loaded fifteen deep
// the bounded session was lost beside a living probe once in four attempts
// (its 1,500 creates, which no bound holds back, stand before its sync too;
// which of its requests held the sync then was not measured), while the
// mutant unbounded-listings, the test's control, lost it in every attempt.
// At most five attempts are made; when none is conclusive the test is
// skipped, saying so.
func TestWaiterBurstKeepsSession(t *testing.T) {
	if testing.Short() {
		t.Skip("queues a thousand waiters on the ensemble")
	}
	kept, lostBeside := 0, 0
	for try := 1; try <= 5 && kept == 0 && lostBeside < 2; try++ {
		server, other := burstServers(t)
		lost, probe := burstAttempt(t, server, other)
		switch {
		case lost == nil:
			kept++
		case probe == nil:
			lostBeside++
			t.Logf("attempt %d: the bursting session was lost, an idle session on another follower was not: %v", try, lost)
		default:
			t.Logf("attempt %d: the idle probe session was lost too (%v): the servers answered no one in time; this attempt proves nothing", try, probe)
		}
	}
	switch {
	case lostBeside >= 2:
		t.Fatalf("a healthy session with 1500 waiters joining a queue of 3001 children at once declared itself lost in %d attempts, beside an idle session that was not", lostBeside)
	case kept == 0 && lostBeside == 0:
		t.Skip("the servers answered no session in time in five attempts: the machine is too loaded for this test to say anything")
	}
}

// burstServers names two followers of the local ensemble, one for the
// burst and one for the probe (of an external one, its first two servers).
func burstServers(t *testing.T) (burst, probe []string) {
	t.Helper()
	addrs := ensembletest.Require(t)
	e := ensembletest.Ensemble()
	if e == nil || len(addrs) < 3 {
		return addrs[:1], addrs[len(addrs)-1:]
	}
	leader, err := e.Leader(ctxFor(t, time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	var followers []string
	for i, a := range addrs {
		if i != leader {
			followers = append(followers, a)
		}
	}
	return followers[:1], followers[1:2]
}

// burstAttempt makes the bursts on a new session of server beside an idle
// probe session of other. It returns why the bursting session ended (nil:
// it lived, and its lease with it) and why the probe ended (nil: it lived).
func burstAttempt(t *testing.T, server, other []string) (lost, probe error) {
	t.Helper()
	const (
		waiters = 1500
		pads    = 3000
		rounds  = 3
	)
	p, err := NewSession(ctxFor(t, time.Minute), other, WithSessionTimeout(6*time.Second), timing())
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	s, err := NewSession(ctxFor(t, time.Minute), server, WithSessionTimeout(6*time.Second), timing())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
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
		return err, p.Err()
	}
	select {
	case <-held.Done():
		return held.Err(), p.Err()
	default:
	}
	if err := held.Unlock(ctxFor(t, 30*time.Second)); err != nil {
		t.Fatalf("unlock: %v", err)
	}
	return nil, p.Err()
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
