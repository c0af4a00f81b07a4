package zklock

import (
	"errors"
	"path"
	"slices"
	"testing"
	"time"
)

// Which names count, and when an acquirer with room waits: the promises
// of the Semaphore and Election doc comments, each exact.

// TestSemaphoreTurnsAcrossMaxes: acquirers of every max take turns on the
// internal mutex, and one that waits for a lease keeps it. With max-1's
// lease held and a max-1 acquirer waiting, a max-3 acquirer, which has
// room under its own max, does not hold: it waits in P/locks behind the
// waiter (no lease node of its own yet) and TryAcquire with max 3 is
// ErrLocked. Once the first lease goes, the waiter holds, then the max-3
// acquirer: its lease node is made after the waiter's.
func TestSemaphoreTurnsAcrossMaxes(t *testing.T) {
	skipTraceCheck(t, "one path used with max 1 and max 3: the spec has one MaxLeases")
	p := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	a := admin(t)
	held, pw, _ := semHeldAndWaiting(t, ctx, p)
	_, roomy := newSem(t, "roomy", p, 3)
	pr := lockAsync(ctx, roomy.Acquire)
	eventually(t, "the max-3 acquirer queued on the internal mutex", 30*time.Second, func() bool {
		_, locks := semNodes(t, a, p)
		return len(locks) == 2
	})
	if leases, _ := semNodes(t, a, p); len(leases) != 2 {
		t.Fatalf("lease nodes %v; want the holder's and the waiter's only", leases)
	}
	time.Sleep(waitGrace)
	if pr.returned() {
		t.Fatalf("the max-3 acquirer returned (%v) while a max-1 acquirer waits on the internal mutex", pr.err)
	}
	if l, err := roomy.TryAcquire(ctx); !errors.Is(err, ErrLocked) {
		if err == nil {
			l.Unlock(ctx)
		}
		t.Fatalf("TryAcquire, max 3, one lease held, a max-1 acquirer waiting = %v; want ErrLocked", err)
	}
	if err := held.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	lw := mustGrant(t, "the max-1 waiter", pw)
	lr := mustGrant(t, "the max-3 acquirer", pr)
	w, _ := parseNode(path.Base(lw.Node()), leaseNodes)
	r, _ := parseNode(path.Base(lr.Node()), leaseNodes)
	if r.seq <= w.seq {
		t.Errorf("the max-3 acquirer's lease %s was made before the waiter's %s", lr.Node(), lw.Node())
	}
	lw.Unlock(ctx)
	lr.Unlock(ctx)
	semEmpty(t, a, p)
}

// TestSemaphoreHandMadeLease: a child of P/leases named "lease-" and ten
// digits is a lease whoever made it, protected prefix or not: it counts
// and Holders lists it. A child named otherwise ("mylease-0000000001")
// counts too, as Curator counts every child, but is not listed.
func TestSemaphoreHandMadeLease(t *testing.T) {
	skipTraceCheck(t, "strangers' children appear in listings the model does not make")
	p := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	a := admin(t)
	createStrangers(t, a, p+semLeases, []string{"lease-0000000000", "mylease-0000000001"})
	hand := p + semLeases + "/lease-0000000000"
	_, two := newSem(t, "max2", p, 2)
	_, three := newSem(t, "max3", p, 3)
	if l, err := two.TryAcquire(ctx); !errors.Is(err, ErrLocked) {
		if err == nil {
			l.Unlock(ctx)
		}
		t.Fatalf("TryAcquire, max 2, beside two hand-made children = %v; want ErrLocked", err)
	}
	if hs, err := two.Holders(ctx); err != nil || !slices.Equal(hs, []string{hand}) {
		t.Fatalf("Holders = %q, %v; want only %s", hs, err, hand)
	}
	l, err := three.TryAcquire(ctx)
	if err != nil {
		t.Fatalf("TryAcquire, max 3, beside two hand-made children: %v", err)
	}
	if hs, err := three.Holders(ctx); err != nil || !slices.Equal(hs, []string{hand, l.Node()}) {
		t.Fatalf("Holders = %q, %v; want %s, %s", hs, err, hand, l.Node())
	}
	l.Unlock(ctx)
	for _, n := range []string{"lease-0000000000", "mylease-0000000001"} {
		if err := a.Delete(p+semLeases+"/"+n, -1); err != nil {
			t.Fatalf("delete %s: %v", n, err)
		}
	}
}

// TestElectionHandMadeCandidate: any child whose name ends in "latch-" and
// ten digits is a candidate, whoever made it, as Curator's LeaderLatch
// sorts every child by what follows its last "latch-": a hand-made
// "mylatch-0000000000" leads (Leader reports it), a Campaign waits for it
// and leads once it is deleted. Children of other shapes are not
// candidates (TestElectionStrangers).
func TestElectionHandMadeCandidate(t *testing.T) {
	skipTraceCheck(t, "strangers' children appear in listings the model does not make")
	p := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	adm := admin(t)
	createStrangers(t, adm, p, []string{"mylatch-0000000000"})
	hand := p + "/mylatch-0000000000"
	c := newClient(t, "c")
	e := election(t, c, p)
	if info, err := e.Leader(ctx); err != nil || info.Node != hand {
		t.Fatalf("Leader = %+v, %v; want the hand-made %s", info, err, hand)
	}
	pc := campaignAsync(ctx, e, "c")
	c.trace.waitFor(t, "c queued behind the hand-made candidate", 30*time.Second, func(ev TraceEvent) bool {
		return waiting(ev) && ev.Target == path.Base(hand)
	})
	time.Sleep(waitGrace)
	if pc.returned() {
		t.Fatalf("c leads (%v) beside the hand-made candidate", pc.err)
	}
	if err := adm.Delete(hand, -1); err != nil {
		t.Fatal(err)
	}
	l, err := pc.wait(t, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	wantLeader(t, ctx, e, l, "c")
	l.Resign(ctx)
}
