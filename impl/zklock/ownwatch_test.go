package zklock

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/zklock/zklock/ensemble/ensembletest"
	"github.com/zklock/zklock/faultinject"
	"github.com/zklock/zklock/model/trace"
	"github.com/zklock/zklock/traceevent"
)

// An operator (a raw connection of its own, as a runbook step or a
// clean-up script would use) deletes the holder's lock node: the lease's
// one watch on its node (OwnWatch.tla's LearnNodeGone) ends it on that
// notification, with no request of ours in between, while the next waiter
// is granted. The operator's delete is an environment event of the trace
// (PredecessorLockForeign's, SharedLockForeign's, ElectionForeign's and
// SemaphoreForeign's ForeignDelete, the holder's LearnNodeGone); the trace
// is checked for a Mutex's, an RWMutex's, a leader's and a Semaphore's
// lease: every recipe's model has the outsider's steps.

// operatorDeletes deletes the node of lease, held by h, from a raw
// connection, and checks that the lease ends on the one notification:
// Done closes and Err matches ErrNodeDeleted (so ErrLockLost), and h sent
// no request but pings and syncs between the delete and the end. Before
// the delete, h's session watches exactly the lease's node.
func operatorDeletes(t *testing.T, h *client, lease *Lease) {
	t.Helper()
	node := lease.Node()
	mutex := lease.sem == "" && lease.Mode() == ModeExclusive && strings.Contains(node, "-lock-")
	rw := lease.sem == "" && (lease.Mode() == ModeRead || lease.Mode() == ModeWrite)
	leader := lease.sem == "" && lease.Mode() == ModeExclusive && strings.Contains(node, "-latch-")
	traced := mutex || rw || leader || lease.sem != ""
	if !traced {
		skipTraceCheck(t, "an operator deletes the holder's node: ForeignDelete, replayed on a Mutex's, an RWMutex's, an election's or a Semaphore's lock only")
	}
	ownWatchSet(t, h, lease)
	a := admin(t)
	before := h.net.Stats()
	start := time.Now()
	if err := a.Delete(h.abs(node), -1); err != nil {
		t.Fatalf("operator's delete of %s: %v", node, err)
	}
	if traced {
		end := time.Now().UnixNano()
		lock := lease.lock
		if lease.sem != "" {
			lock = lease.sem // a semaphore's events name the semaphore (Lease.traceNodeGone)
		}
		traceOutsider(t, trace.Event{Lock: lock, Action: traceevent.ForeignDelete, Node: baseName(node),
			Start: start.UnixNano(), End: &end})
	}
	select {
	case <-lease.Done():
	case <-time.After(10 * time.Second):
		t.Fatalf("lease of %s still held 10 s after an operator deleted its node (Err %v)", node, lease.Err())
	}
	if err := lease.Err(); !errors.Is(err, ErrNodeDeleted) || !errors.Is(err, ErrLockLost) {
		t.Fatalf("Err after the operator's delete = %v, want ErrNodeDeleted and ErrLockLost", err)
	}
	// The end is a step of the trace (LearnNodeGone), which a validator
	// needs: a holder that never reports it still holds in the model.
	h.trace.waitFor(t, "the holder's LearnNodeGone", 10*time.Second, func(e TraceEvent) bool {
		return e.Action == traceevent.LearnNodeGone && e.Node == baseName(node)
	})
	after := h.net.Stats()
	if after.Notifications-before.Notifications < 1 {
		t.Fatalf("lease ended without a notification of its node's deletion")
	}
	for op, n := range after.Requests {
		if op != faultinject.OpPing && op != faultinject.OpSync && n != before.Requests[op] {
			t.Fatalf("the holder sent %d %v requests before its lease ended: the end was not the notification alone", n-before.Requests[op], op)
		}
	}
	if _, err := lease.Guard(context.Background()); !errors.Is(err, ErrNotHeld) || !errors.Is(err, ErrNodeDeleted) {
		t.Fatalf("Guard after the operator's delete = %v, want ErrNotHeld and ErrNodeDeleted", err)
	}
	if err := lease.Unlock(context.Background()); !errors.Is(err, ErrLockLost) {
		t.Fatalf("Unlock after the operator's delete = %v, want ErrLockLost", err)
	}
}

// ownWatchSet waits until the lease's watch on its node is set on the
// server (if it has one: a lease without, as the mutant no-own-node-watch
// makes, is left to fail on its behaviour) and, on a local ensemble, that
// h's session watches that node and nothing else.
func ownWatchSet(t *testing.T, h *client, lease *Lease) {
	t.Helper()
	lease.mu.Lock()
	w := lease.watch
	lease.mu.Unlock()
	if w != nil {
		select {
		case <-w.armed:
		case <-time.After(30 * time.Second):
			t.Fatalf("the watch on %s not set within 30 s", lease.Node())
		}
	}
	if ensembletest.Ensemble() != nil {
		wantWatches(t, h.ID(), h.abs(lease.Node()))
	}
}

// grantedNext waits for the waiter's acquisition and releases it.
func grantedNext(t *testing.T, ctx context.Context, p *pending) {
	t.Helper()
	l, err := p.wait(t, time.Minute)
	if err != nil {
		t.Fatalf("the next waiter after the operator's delete: %v", err)
	}
	if err := l.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestOperatorDeleteEndsMutexLease(t *testing.T) {
	ctx := ctxFor(t, time.Minute)
	lock := lockPath(t)
	h, lease := holdLock(t, ctx, lock)
	w := newClient(t, "waiter")
	mw, _ := NewMutex(w.Session, lock)
	p := lockAsync(ctx, mw.Lock)
	w.trace.waitFor(t, "waiter queued", time.Minute, waiting)
	operatorDeletes(t, h, lease)
	grantedNext(t, ctx, p)
}

func TestOperatorDeleteEndsRWMutexReadLease(t *testing.T) {
	ctx := ctxFor(t, time.Minute)
	lock := lockPath(t)
	h, w := newClient(t, "reader"), newClient(t, "writer")
	rh, _ := NewRWMutex(h.Session, lock)
	rw, _ := NewRWMutex(w.Session, lock)
	lease, err := rh.RLock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	p := lockAsync(ctx, rw.Lock)
	w.trace.waitFor(t, "writer queued", time.Minute, waiting)
	operatorDeletes(t, h, lease)
	grantedNext(t, ctx, p)
}

func TestOperatorDeleteEndsRWMutexWriteLease(t *testing.T) {
	ctx := ctxFor(t, time.Minute)
	lock := lockPath(t)
	h, w := newClient(t, "writer"), newClient(t, "reader")
	rh, _ := NewRWMutex(h.Session, lock)
	rw, _ := NewRWMutex(w.Session, lock)
	lease, err := rh.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	p := lockAsync(ctx, rw.RLock)
	w.trace.waitFor(t, "reader queued", time.Minute, waiting)
	operatorDeletes(t, h, lease)
	grantedNext(t, ctx, p)
}

// A write lease downgraded moves its watch to its read node: the write
// node's deletion by our own Downgrade does not end it, the read node's by
// an operator does.
func TestOperatorDeleteEndsDowngradedLease(t *testing.T) {
	ctx := ctxFor(t, time.Minute)
	lock := lockPath(t)
	h, w := newClient(t, "writer"), newClient(t, "writer2")
	rh, _ := NewRWMutex(h.Session, lock)
	rw, _ := NewRWMutex(w.Session, lock)
	lease, err := rh.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := lease.Downgrade(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := lease.Guard(ctx); err != nil {
		t.Fatalf("Guard after Downgrade: %v (our own Downgrade ended the lease?)", err)
	}
	p := lockAsync(ctx, rw.Lock)
	w.trace.waitFor(t, "writer queued", time.Minute, waiting)
	operatorDeletes(t, h, lease)
	grantedNext(t, ctx, p)
}

func TestOperatorDeleteEndsSemaphoreLease(t *testing.T) {
	ctx := ctxFor(t, time.Minute)
	p := lockPath(t)
	h, mh := newSem(t, "holder", p, 1)
	_, mw := newSem(t, "waiter", p, 1)
	lease, err := mh.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	q := lockAsync(ctx, mw.Acquire)
	a := admin(t)
	eventually(t, "the waiter's lease node", time.Minute, func() bool {
		leases, _ := semNodes(t, a, p)
		return len(leases) == 2
	})
	operatorDeletes(t, h, lease)
	grantedNext(t, ctx, q)
}

func TestOperatorDeleteEndsLeadership(t *testing.T) {
	ctx := ctxFor(t, time.Minute)
	p := lockPath(t)
	a, b := newClient(t, "a"), newClient(t, "b")
	la := campaign(t, ctx, election(t, a, p), "a")
	cb := campaignAsync(ctx, election(t, b, p), "b")
	b.trace.waitFor(t, "b queued", time.Minute, waiting)
	// A Proclaim first: its setData fires our own watch, which is set
	// again, and makes the trace an election's (ElectionForeign).
	if err := la.Proclaim(ctx, []byte("a1")); err != nil {
		t.Fatalf("Proclaim: %v", err)
	}
	operatorDeletes(t, a, la.lease)
	if _, err := la.Guard(ctx); !errors.Is(err, ErrLockLost) {
		t.Fatalf("Guard of the lost leadership = %v, want ErrLockLost", err)
	}
	lb, err := cb.wait(t, time.Minute)
	if err != nil {
		t.Fatalf("b after the operator deleted a's node: %v", err)
	}
	lb.Resign(ctx)
}

// Our own Proclaim changes our node's data: its watch fires and is set
// again, and the leadership holds on; the session keeps one watch.
func TestProclaimKeepsOwnWatch(t *testing.T) {
	ctx := ctxFor(t, time.Minute)
	p := lockPath(t)
	a := newClient(t, "a")
	la := campaign(t, ctx, election(t, a, p), "v0")
	for _, v := range []string{"v1", "v2", "v3"} {
		if err := la.Proclaim(ctx, []byte(v)); err != nil {
			t.Fatalf("Proclaim(%s): %v", v, err)
		}
	}
	ownWatchSet(t, a, la.lease)
	if err := la.Err(); err != nil {
		t.Fatalf("leadership ended by our own Proclaims: %v", err)
	}
	if err := la.Resign(ctx); err != nil {
		t.Fatal(err)
	}
}
