package zklock

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"path"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklock/zklock/faultinject"
	"github.com/zklock/zklock/model/trace"
	"github.com/zklock/zklock/traceevent"
)

// The semaphore under faults: expiry, cancels and dropped connections at
// random, a lost create reply.

// TestSemaphoreHolderExpires: a holder's session expires: its lease ends
// with ErrLockLost, and the acquirer waiting for its room gets in.
func TestSemaphoreHolderExpires(t *testing.T) {
	p := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	a := admin(t)
	h, mh := newSem(t, "holder", p, 1, WithSessionTimeout(shortTimeout))
	w, mw := newSem(t, "waiter", p, 1)
	held, err := mh.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	pw := lockAsync(ctx, mw.Acquire)
	w.trace.waitFor(t, "waiter lists the full leases", 30*time.Second, func(ev TraceEvent) bool {
		return ev.Action == traceevent.ListLeases && ev.Result == traceevent.ResultWait
	})
	h.net.BlackholeUntilHealed()
	defer h.net.Heal()
	lease, err := pw.wait(t, 45*time.Second)
	if err != nil {
		t.Fatalf("waiter after the holder's expiry: %v", err)
	}
	select {
	case <-held.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the holder's lease never ended, though the waiter now holds")
	}
	if err := held.Err(); !errors.Is(err, ErrLockLost) || !errors.Is(err, ErrSessionLost) {
		t.Fatalf("lost lease Err = %v, want ErrLockLost and ErrSessionLost", err)
	}
	lease.Unlock(ctx)
	semEmpty(t, a, p)
}

// TestSemaphoreWaiterExpires: the acquirer that waits at max, holding the
// internal mutex, loses its session: its Acquire fails with
// ErrSessionLost, the server deletes its nodes with the session, and the
// acquirer queued behind it on the internal mutex takes its place and
// holds when the holder releases.
func TestSemaphoreWaiterExpires(t *testing.T) {
	p := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	a := admin(t)
	_, mh := newSem(t, "holder", p, 1)
	w1, m1 := newSem(t, "w1", p, 1, WithSessionTimeout(shortTimeout))
	w2, m2 := newSem(t, "w2", p, 1)
	held, err := mh.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	p1 := lockAsync(ctx, m1.Acquire)
	w1.trace.waitFor(t, "w1 waits at max", 30*time.Second, func(ev TraceEvent) bool {
		return ev.Action == traceevent.ListLeases && ev.Result == traceevent.ResultWait
	})
	p2 := lockAsync(ctx, m2.Acquire)
	w2.trace.waitFor(t, "w2 queued on the internal mutex", 30*time.Second, waiting)
	w1.net.BlackholeUntilHealed()
	defer w1.net.Heal()
	if _, err := p1.wait(t, 30*time.Second); !errors.Is(err, ErrSessionLost) {
		t.Fatalf("the cut-off waiter's Acquire = %v, want ErrSessionLost", err)
	}
	w2.trace.waitFor(t, "w2 waits at max in w1's place", 30*time.Second, func(ev TraceEvent) bool {
		return ev.Action == traceevent.ListLeases && ev.Result == traceevent.ResultWait
	})
	if err := held.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	l2, err := p2.wait(t, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	semNodesAre(t, a, p, path.Base(l2.Node()))
	l2.Unlock(ctx)
	semEmpty(t, a, p)
}

// TestSemaphoreCancelAnywhere: acquirers whose contexts end at random
// delays, on sessions whose connections drop at random, on max 2. After
// it, the lease nodes are exactly those of the leases held, the internal
// mutex has no node, and max fresh acquires succeed.
func TestSemaphoreCancelAnywhere(t *testing.T) {
	skipTraceCheck(t, semMany)
	const max, sessions, runFor = 2, 4, 3 * time.Second
	p := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	a := admin(t)
	clients := make([]*client, sessions)
	sems := make([]*Semaphore, sessions)
	for i := range clients {
		clients[i], sems[i] = newSem(t, fmt.Sprintf("c%d", i), p, max)
	}
	var mu sync.Mutex
	kept := map[*Lease]bool{} // leases held at the end
	end := time.Now().Add(runFor)
	var wg sync.WaitGroup
	for i := 0; i < 2*sessions; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(end) {
				actx, cancel := context.WithTimeout(ctx, time.Duration(rand.IntN(400))*time.Millisecond)
				l, err := sems[i%sessions].Acquire(actx)
				cancel()
				if err != nil {
					continue
				}
				if rand.IntN(4) == 0 && time.Now().Add(time.Second).After(end) {
					mu.Lock()
					kept[l] = true
					mu.Unlock()
					return
				}
				time.Sleep(time.Duration(rand.IntN(20)) * time.Millisecond)
				l.Unlock(ctx)
			}
		}()
	}
	for time.Now().Before(end) { // connections drop at random
		time.Sleep(time.Duration(100+rand.IntN(200)) * time.Millisecond)
		clients[rand.IntN(sessions)].net.Sever()
	}
	wg.Wait()
	want := []string{}
	for l := range kept {
		if l.Err() == nil {
			want = append(want, path.Base(l.Node()))
		}
	}
	slices.Sort(want)
	// A session that its client gave up on a loaded machine (its loss
	// clock fired while its connection was severed, so no closeSession
	// reached the server) keeps its nodes until the server expires it, a
	// session timeout later: wait that out, with room.
	var got, locks []string
	deadline := time.Now().Add(30 * time.Second)
	for {
		got, locks = semNodes(t, a, p)
		slices.Sort(got)
		if slices.Equal(got, want) && len(locks) == 0 {
			break
		}
		if time.Now().After(deadline) {
			for _, n := range append(slices.Clone(got), locks...) {
				logNodeHistory(t, clients, n)
			}
			t.Fatalf("lease nodes %v and internal mutex nodes %v 30 s after the storm; want leases %v (the leases kept) and no internal node", got, locks, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
	for l := range kept {
		l.Unlock(ctx)
	}
	for i := 0; i < max; i++ {
		l, err := sems[i].Acquire(ctx) // a server behind the releases may list them yet
		if err != nil {
			t.Fatalf("fresh acquire %d after the storm: %v", i, err)
		}
		defer l.Unlock(ctx)
	}
	cancels, withLease := 0, 0
	for _, c := range clients {
		for _, ev := range c.trace.all() {
			if ev.Action == traceevent.CancelAcquire {
				cancels++
				if ev.Node != "" {
					withLease++
				}
			}
		}
	}
	t.Logf("%d leases kept to the end; %d acquisitions cancelled, %d of them with a lease node made", len(want), cancels, withLease)
}

// TestSemaphoreCreateReplyLost: the reply to our lease node's create is
// lost with the connection, though the server made the node. The acquirer
// finds it by its uuid (FindOwnLease) and holds with it: exactly one lease
// node of ours, none orphaned beside it.
func TestSemaphoreCreateReplyLost(t *testing.T) {
	p := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	a := admin(t)
	// The leases path exists, so the create that is cut is one that
	// succeeds, not one that fails for a missing parent.
	for _, n := range []string{path.Dir(p), p, p + semLeases} {
		if _, err := a.Create(n, nil, 0, zk.WorldACL(zk.PermAll)); err != nil && !errors.Is(err, zk.ErrNodeExists) {
			t.Fatalf("create %s: %v", n, err)
		}
	}
	c, m := newSem(t, "cut", p, 2)
	var once sync.Once
	c.net.OnRequest(func(op faultinject.Op, req []byte) {
		if (op != faultinject.OpCreate2 && op != faultinject.OpCreate) || !strings.HasPrefix(requestPath(req), p+semLeases+"/") {
			return
		}
		once.Do(func() {
			c.net.BlackholeUntilHealed() // the create goes through; its reply is held
			go func() {
				time.Sleep(300 * time.Millisecond)
				c.net.Sever() // and dropped
				c.net.Heal()
			}()
		})
	})
	t.Cleanup(func() { c.net.OnRequest(nil) })
	l, err := m.Acquire(ctx)
	if err != nil {
		t.Fatalf("Acquire after a lost create reply: %v", err)
	}
	if n := c.trace.count(action(traceevent.CreateLeaseReplyLost)); n != 1 {
		t.Fatalf("%d CreateLeaseReplyLost steps, want 1; trace:\n%s", n, c.trace.dump())
	}
	leases, _ := semNodes(t, a, p)
	if len(leases) != 1 || leases[0] != path.Base(l.Node()) {
		t.Fatalf("lease nodes %v while holding, want exactly our %s", leases, path.Base(l.Node()))
	}
	if c.trace.count(func(ev TraceEvent) bool {
		return ev.Action == traceevent.FindOwnLease && ev.Result == traceevent.ResultFound
	}) != 1 {
		t.Fatalf("the lost create's node was not found by its uuid; trace:\n%s", c.trace.dump())
	}
	l.Unlock(ctx)
	semEmpty(t, a, p)
}

// TestSemaphoreLeaseDeletedWhileWaiting: someone deletes the lease node of
// the acquirer that waits at max: its Acquire fails with ErrLockLost and
// releases the internal mutex; the holder's lease is untouched. The delete
// is the outsider's ForeignDelete of the trace, the failure the
// acquirer's AcquireNodeGone (SemaphoreForeign).
func TestSemaphoreLeaseDeletedWhileWaiting(t *testing.T) {
	p := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	a := admin(t)
	held, pw, ev := semHeldAndWaiting(t, ctx, p)
	start := time.Now().UnixNano()
	if err := a.Delete(p+semLeases+"/"+ev.Node, -1); err != nil {
		t.Fatal(err)
	}
	end := time.Now().UnixNano()
	traceOutsider(t, trace.Event{Lock: held.sem, Action: traceevent.ForeignDelete, Node: ev.Node, Start: start, End: &end})
	if _, err := pw.wait(t, 30*time.Second); !errors.Is(err, ErrLockLost) {
		t.Fatalf("Acquire whose lease node was deleted = %v, want ErrLockLost", err)
	}
	semNodesAre(t, a, p, path.Base(held.Node()))
	if held.Err() != nil {
		t.Fatalf("the holder's lease ended: %v", held.Err())
	}
	held.Unlock(ctx)
	semEmpty(t, a, p)
}

// logNodeHistory logs the trace events, of every client, that name node
// (by its name or its uuid prefix): what made it and what should have
// removed it.
func logNodeHistory(t *testing.T, clients []*client, node string) {
	t.Helper()
	uuid := node
	if i := strings.Index(node, "-lease-"); i > 0 {
		uuid = node[:i]
	} else if i := strings.Index(node, "-lock-"); i > 0 {
		uuid = node[:i]
	}
	for _, c := range clients {
		for _, ev := range c.trace.all() {
			if strings.Contains(ev.Node, uuid) {
				t.Logf("%s: %s %+v", node, c.name, ev)
			}
		}
	}
}
