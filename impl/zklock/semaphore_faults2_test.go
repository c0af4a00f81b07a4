package zklock

import (
	"context"
	"errors"
	"fmt"
	"path"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklock/zklock/ensemble/ensembletest"
	"github.com/zklock/zklock/traceevent"
)

// The semaphore under the faults the lock and the election survive, on
// the real ensemble: a paused holder, the ZooKeeper leader killed, a
// holder on a cut-off follower.

// waitsAtMax matches the listing after which a semaphore acquirer waits
// for a lease to be released.
func waitsAtMax(ev TraceEvent) bool {
	return ev.Action == traceevent.ListLeases && ev.Result == traceevent.ResultWait
}

// semHeldAndWaiting is how many semaphore tests begin: on p with max 1, a
// holder's lease, and a waiter's Acquire waiting at max, with the trace
// event of that wait.
func semHeldAndWaiting(t *testing.T, ctx context.Context, p string) (held *Lease, waiter *pending, wait TraceEvent) {
	t.Helper()
	_, mh := newSem(t, "holder", p, 1)
	w, mw := newSem(t, "waiter", p, 1)
	held, err := mh.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	waiter = lockAsync(ctx, mw.Acquire)
	wait = w.trace.waitFor(t, "the waiter waits at max", 30*time.Second, waitsAtMax)
	return held, waiter, wait
}

// mostAtOnce is the largest number of tenures that overlap at one instant
// (a zero till is a lease still held). A tenure that ends exactly when
// another begins does not overlap it.
func mostAtOnce(ts []tenure) int {
	most := 0
	for _, x := range ts {
		n := 0
		for _, y := range ts {
			if !y.from.After(x.from) && (y.till.IsZero() || y.till.After(x.from)) {
				n++
			}
		}
		most = max(most, n)
	}
	return most
}

// TestSemaphoreHolderPausedFenced: max 2, both leases held and a third
// acquirer waiting at max. One holder stops answering (its connection
// blackholed past its session timeout, as the leader of
// TestElectionLeaderPausedFenced): its lease ends on its own loss clock,
// with ErrLockLost and ErrSessionLost, before the waiter is granted the
// room it held, so never more than two leases are believed held at once.
// Once it resumes, its fenced writes are refused (Guard and Check say
// ErrNotHeld, and a multi headed by the Check it took while holding fails
// on the server) while the new holder's guarded write lands. The other
// holder's lease is untouched throughout.
func TestSemaphoreHolderPausedFenced(t *testing.T) {
	p := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	adm := admin(t)
	a, ma := newSem(t, "a", p, 2, WithSessionTimeout(shortTimeout))
	_, mk := newSem(t, "kept", p, 2)
	w, mw := newSem(t, "w", p, 2)
	la, err := ma.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	lk, err := mk.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	resource, check, lost := fencedResource(t, ctx, adm, la, p, "a")
	pw := lockAsync(ctx, mw.Acquire)
	w.trace.waitFor(t, "w waits at max", 30*time.Second, waitsAtMax)
	paused := time.Now()
	a.net.BlackholeUntilHealed()
	defer a.net.Heal()
	lw, err := pw.wait(t, 30*time.Second)
	if err != nil {
		t.Fatalf("w after a's pause: %v", err)
	}
	select {
	case <-la.Done():
	default:
		t.Fatal("w holds while a's lease has not ended: three leases believed held, max 2")
	}
	lostAt := <-lost
	if !lostAt.Before(pw.at) {
		t.Fatalf("a's lease ended %v after w was granted", lostAt.Sub(pw.at))
	}
	t.Logf("a's lease ended %v after the pause, %v before w was granted",
		lostAt.Sub(paused).Round(time.Millisecond), pw.at.Sub(lostAt).Round(time.Millisecond))
	if lw.Token() <= la.Token() {
		t.Fatalf("w's token %d is not above a's %d", lw.Token(), la.Token())
	}
	if _, err := lw.Guard(ctx, &zk.SetDataRequest{Path: resource, Data: []byte("w"), Version: -1}); err != nil {
		t.Fatalf("w's guarded write: %v", err)
	}
	a.net.Heal() // a resumes
	fencedOut(t, ctx, adm, la, check, resource, "w")
	if err := lk.Err(); err != nil {
		t.Fatalf("the other holder's lease ended: %v", err)
	}
	semNodesAre(t, adm, p, path.Base(lk.Node()), path.Base(lw.Node()))
	for _, l := range []*Lease{lk, lw} {
		if err := l.Unlock(ctx); err != nil {
			t.Fatal(err)
		}
	}
	semEmpty(t, adm, p)
}

// TestSemaphoreZooKeeperLeaderKilled: max 2, both leases held, one
// acquirer waiting at max (holding the internal mutex) and one queued on
// the internal mutex behind it, when the ZooKeeper ensemble's leader
// server dies. As for the lock (TestLeaderKilled), sessions survive the
// ensemble's election within the room their timeout leaves: the holders
// keep their leases (a Guard succeeds on the new quorum) and no waiter is
// granted beside them. If a holder's session were lost after all, its
// lease must end before a waiter takes its room. The waiters then acquire
// one at a time as the holders release; at no instant are more than two
// leases believed held, the server never lists more than the two held and
// the one waiting, and no node is left afterwards.
func TestSemaphoreZooKeeperLeaderKilled(t *testing.T) {
	e := ensembletest.RequireLocal(t)
	const max = 2
	p := lockPath(t)
	ctx := ctxFor(t, 2*time.Minute)
	adm := admin(t)
	room := []SessionOption{WithSessionTimeout(10 * time.Second), WithDriftMargin(time.Second)}
	var tenures []tenure // when each lease was believed held
	holders := make([]*Lease, max)
	lost := make([]<-chan time.Time, max)
	var sem *Semaphore
	for i := range holders {
		_, m := newSem(t, fmt.Sprintf("h%d", i), p, max, room...)
		l, err := m.Acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		holders[i], lost[i], sem = l, doneAt(l), m
		tenures = append(tenures, tenure{who: fmt.Sprintf("h%d", i), from: time.Now()})
	}
	w1, m1 := newSem(t, "w1", p, max, room...)
	w2, m2 := newSem(t, "w2", p, max, room...)
	p1 := lockAsync(ctx, m1.Acquire)
	w1.trace.waitFor(t, "w1 waits at max", 30*time.Second, waitsAtMax)
	p2 := lockAsync(ctx, m2.Acquire)
	w2.trace.waitFor(t, "w2 queued on the internal mutex", 30*time.Second, waiting)
	killed := killZooKeeperLeader(t, ctx, e, 30*time.Second)
	survived := make([]bool, max)
	for i, l := range holders {
		if _, err := l.Guard(ctx); err != nil {
			// The session was lost after all: then the lease has ended,
			// and its tenure is checked against the waiters' below.
			if !errors.Is(l.Err(), ErrLockLost) {
				t.Fatalf("h%d's Guard after the election = %v while its lease holds (%v)", i, err, l.Err())
			}
			t.Logf("h%d's lease did not survive the election: %v", i, err)
			continue
		}
		survived[i] = true
	}
	t.Logf("the holders' guards done %v after the kill; survived %v", time.Since(killed).Round(time.Millisecond), survived)
	if survived[0] && survived[1] {
		if p1.returned() || p2.returned() {
			t.Fatalf("a waiter's Acquire returned while both holders hold: w1 %v, w2 %v", p1.err, p2.err)
		}
		hs, err := sem.Holders(ctx)
		if err != nil {
			t.Fatal(err)
		}
		// Oldest first: the two held, then w1's, which waits.
		if len(hs) != max+1 || hs[0] != holders[0].Node() || hs[1] != holders[1].Node() {
			t.Fatalf("lease nodes %v after the election, want h0's %s, h1's %s and w1's waiting one",
				hs, holders[0].Node(), holders[1].Node())
		}
	}
	// release ends holder i's tenure: by Unlock if it survived, else when
	// its lease was lost.
	release := func(i int) {
		if !survived[i] {
			select {
			case tenures[i].till = <-lost[i]:
			case <-ctx.Done():
				t.Fatalf("h%d's lost lease never ended", i)
			}
			return
		}
		tenures[i].till = time.Now()
		if err := holders[i].Unlock(ctx); err != nil {
			t.Fatalf("h%d's Unlock: %v", i, err)
		}
	}
	release(0)
	l1, err := p1.wait(t, 30*time.Second)
	if err != nil {
		t.Fatalf("w1 after h0 released: %v", err)
	}
	tenures = append(tenures, tenure{who: "w1", from: p1.at})
	if survived[1] {
		// w2 now holds the internal mutex and finds h1 and w1 holding.
		w2.trace.waitFor(t, "w2 waits at max", 30*time.Second, waitsAtMax)
		if p2.returned() {
			t.Fatalf("w2's Acquire returned (%v) while h1 and w1 hold", p2.err)
		}
	}
	release(1)
	l2, err := p2.wait(t, 30*time.Second)
	if err != nil {
		t.Fatalf("w2 after h1 released: %v", err)
	}
	tenures = append(tenures, tenure{who: "w2", from: p2.at})
	for i, l := range []*Lease{l1, l2} {
		tenures[max+i].till = time.Now()
		if err := l.Unlock(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if n := mostAtOnce(tenures); n > max {
		t.Fatalf("%d leases believed held at once, max %d: %+v", n, max, tenures)
	}
	semEmpty(t, adm, p)
}

// TestSemaphoreHolderOnCutOffFollower: as TestFollowerCutOffFromLeader
// for a semaphore lease. Max 2: one lease is held by a session on a
// follower that is cut off from the ZooKeeper leader (which keeps
// answering its pings for syncLimit x tickTime), the other by a session
// on the leader, where a second acquirer waits at max. Once the leader
// has expired the cut-off session, the waiter is granted the room; the
// cut-off holder's lease must have ended (ErrLockLost) before that grant,
// or three leases would be believed held. The lease on the leader's side
// is untouched.
//
// No trace check: newFollowerCut's sessions are not a test client's (the
// holder's is untraced), as in the lock's follower-cut tests.
func TestSemaphoreHolderOnCutOffFollower(t *testing.T) {
	ctx := ctxFor(t, time.Minute)
	f := newFollowerCut(t, ctx)
	const max = 2
	p := lockPath(t)
	mf, err := NewSemaphore(f.onFollower, p, max)
	if err != nil {
		t.Fatal(err)
	}
	ml, err := NewSemaphore(f.onLeader, p, max)
	if err != nil {
		t.Fatal(err)
	}
	held, err := mf.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	kept, err := ml.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	pc := lockAsync(ctx, ml.Acquire)
	f.trace.waitFor(t, "the contender waits at max", 30*time.Second, waitsAtMax)
	cut := f.cut(t)
	lossThenGrant(t, ctx, cut, held, pc)
	if err := held.Err(); !errors.Is(err, ErrLockLost) {
		t.Errorf("the cut-off holder's Err = %v, want ErrLockLost", err)
	}
	if err := kept.Err(); err != nil {
		t.Errorf("the lease on the leader's side ended: %v", err)
	}
	f.heal(t)
	// The admin client connects once the ensemble is whole, so that it
	// is not itself on the cut-off follower.
	adm := admin(t)
	semNodesAre(t, adm, p, path.Base(kept.Node()), path.Base(pc.val.Node()))
	for _, l := range []*Lease{kept, pc.val} {
		if err := l.Unlock(ctx); err != nil {
			t.Fatal(err)
		}
	}
	semEmpty(t, adm, p)
}
