package zklock

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/zklock/zklock/ensemble/ensembletest"
	"github.com/zklock/zklock/faultinject"
	"github.com/zklock/zklock/internal/zkwire"
)

// An operator (a raw connection of its own, as a runbook step or a
// clean-up script would use) deletes the holder's lock node: the lease's
// one watch on its node (OwnWatch.tla's LearnNodeGone) ends it on that
// notification, with no request of ours in between, while the next waiter
// is granted. The trace is not checked: the operator's delete is the
// spec's ForeignDelete, an environment step the trace model does not have.

// operatorDeletes deletes the node of lease, held by h, from a raw
// connection, and checks that the lease ends on the one notification:
// Done closes and Err matches ErrNodeDeleted (so ErrLockLost), and h sent
// no request but pings and syncs between the delete and the end. Before
// the delete, h's session watches exactly the lease's node.
func operatorDeletes(t *testing.T, h *client, lease *Lease) {
	t.Helper()
	skipTraceCheck(t, "an operator deletes the holder's node: OwnWatch.tla's ForeignDelete, an environment step the trace model has not")
	node := lease.Node()
	ownWatchSet(t, h, lease)
	a := admin(t)
	before := h.net.Stats()
	if err := a.Delete(h.abs(node), -1); err != nil {
		t.Fatalf("operator's delete of %s: %v", node, err)
	}
	select {
	case <-lease.Done():
	case <-time.After(30 * time.Second):
		t.Fatalf("lease of %s still held 30 s after an operator deleted its node (Err %v)", node, lease.Err())
	}
	if err := lease.Err(); !errors.Is(err, ErrNodeDeleted) || !errors.Is(err, ErrLockLost) {
		t.Fatalf("Err after the operator's delete = %v, want ErrNodeDeleted and ErrLockLost", err)
	}
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

// multiInFlight says whether the session has a multi sent and not yet
// answered.
func multiInFlight(s *Session) bool {
	s.wire.mu.Lock()
	defer s.wire.mu.Unlock()
	for c := range s.wire.conns {
		c.mu.Lock()
		found := false
		for _, same := range c.pending.byXid {
			found = found || slices.ContainsFunc(same, func(p pendingRequest) bool { return p.op == zkwire.OpMulti })
		}
		c.mu.Unlock()
		if found {
			return true
		}
	}
	return false
}

// operatorReplacesInFlight runs write (a Guard or a Proclaim of lease) with
// h's network holding every frame, and, once the write's multi is sent, has
// an operator delete the lease's node and make one of the same name at the
// lease's data version (OwnWatch.tla's ForeignReplace). Healed, the server
// applies the multi through the stranger's node (its check passes) and
// sends our watch's event before the multi's reply: write must return an
// error matching ErrMaybeApplied, never nil. It returns write's error.
func operatorReplacesInFlight(t *testing.T, h *client, lease *Lease, version int32, write func() error) error {
	t.Helper()
	skipTraceCheck(t, "an operator replaces the holder's node: OwnWatch.tla's ForeignReplace, an environment step the trace model has not")
	node := h.abs(lease.Node())
	ownWatchSet(t, h, lease)
	a := admin(t)
	h.net.BlackholeUntilHealed()
	defer h.net.Heal()
	res := goAsync(context.Background(), func(context.Context) (struct{}, error) { return struct{}{}, write() })
	eventually(t, "the guarded multi sent", 30*time.Second, func() bool { return multiInFlight(h.Session) })
	if err := a.Delete(node, -1); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Create(node, []byte("stranger"), 0, zk.WorldACL(zk.PermAll)); err != nil {
		t.Fatal(err)
	}
	for v := int32(0); v < version; v++ {
		if _, err := a.Set(node, []byte("stranger"), v); err != nil {
			t.Fatal(err)
		}
	}
	h.net.Heal()
	_, err := res.wait(t, time.Minute)
	if !errors.Is(err, ErrMaybeApplied) || !errors.Is(err, ErrLockLost) {
		t.Fatalf("write through a replaced node = %v, want ErrMaybeApplied and ErrLockLost", err)
	}
	if lerr := lease.Err(); !errors.Is(lerr, ErrNodeDeleted) && !errors.Is(lerr, ErrNodeReplaced) {
		t.Fatalf("lease Err = %v, want ErrNodeDeleted or ErrNodeReplaced", lerr)
	}
	a.Delete(node, -1)
	return err
}

func TestOperatorReplaceGuardMaybeApplied(t *testing.T) {
	ctx := ctxFor(t, time.Minute)
	lock := lockPath(t)
	h, lease := holdLock(t, ctx, lock)
	a := admin(t)
	res := lock + "-resource"
	if _, err := a.Create(res, nil, 0, zk.WorldACL(zk.PermAll)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Delete(res, -1) })
	chk, _ := lease.Check() // the version Guard checks: the mark (leasemark.go) made it 1
	operatorReplacesInFlight(t, h, lease, chk.Version, func() error {
		_, err := lease.Guard(ctx, &zk.SetDataRequest{Path: res, Data: []byte("ours"), Version: -1})
		return err
	})
	// The write did apply, through the stranger's node: "may have
	// applied" was no idle warning.
	if data, _, err := a.Get(res); err != nil || string(data) != "ours" {
		t.Fatalf("resource = %q, %v; want the guarded write applied", data, err)
	}
}

func TestOperatorReplaceProclaimMaybeApplied(t *testing.T) {
	ctx := ctxFor(t, time.Minute)
	p := lockPath(t)
	h := newClient(t, "leader")
	la := campaign(t, ctx, election(t, h, p), "v0")
	if err := la.Proclaim(ctx, []byte("v1")); err != nil {
		t.Fatal(err)
	}
	operatorReplacesInFlight(t, h, la.lease, 1, func() error { return la.Proclaim(ctx, []byte("v2")) })
}

// Someone else's setData on our node fires the watch (a data change) and
// the watch is set again: the stat that comes with it shows the node is
// still ours, and the lease holds (Guard goes on with the new version).
// If the node was also deleted and made again meanwhile (the one-shot
// watch, spent on the data change, saw no deletion), that stat shows
// another owner and czxid: the lease ends with ErrNodeReplaced.
func TestOperatorSetDataKeepsLeaseReplaceEndsIt(t *testing.T) {
	skipTraceCheck(t, "an operator writes to and replaces the holder's node: OwnWatch.tla's environment, not in the trace model")
	ctx := ctxFor(t, time.Minute)
	h, lease := holdLock(t, ctx, lockPath(t))
	node := h.abs(lease.Node())
	a := admin(t)
	ownWatchSet(t, h, lease)
	lease.mu.Lock()
	first := lease.watch
	lease.mu.Unlock()
	if _, err := a.Set(node, []byte("operator"), -1); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the watch set again after the data change", 30*time.Second, func() bool {
		lease.mu.Lock()
		w := lease.watch
		lease.mu.Unlock()
		select {
		case <-w.armed:
			return w != first
		default:
			return false
		}
	})
	if _, err := lease.Guard(ctx); err != nil || lease.Err() != nil {
		t.Fatalf("Guard after someone's setData = %v (lease Err %v), want the lease held", err, lease.Err())
	}
	ownWatchSet(t, h, lease)
	// Now the data change's event is held back while the node is replaced.
	h.net.BlackholeUntilHealed()
	if _, err := a.Set(node, []byte("operator again"), -1); err != nil {
		t.Fatal(err)
	}
	if err := a.Delete(node, -1); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Create(node, []byte("stranger"), 0, zk.WorldACL(zk.PermAll)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Delete(node, -1) })
	h.net.Heal()
	select {
	case <-lease.Done():
	case <-time.After(30 * time.Second):
		t.Fatalf("lease still held 30 s after its node was replaced (Err %v)", lease.Err())
	}
	if err := lease.Err(); !errors.Is(err, ErrNodeReplaced) || !errors.Is(err, ErrLockLost) {
		t.Fatalf("Err after the replace = %v, want ErrNodeReplaced and ErrLockLost", err)
	}
}

// operatorReplacesAtOtherVersion is operatorReplacesInFlight with a
// stranger's node whose data version differs from the lease's: the check
// in the write's multi must then fail, so nothing lands (the caller looks),
// and the write reports the loss (it may still say ErrMaybeApplied: the
// watch's event came first, and the lease cannot tell). It returns the
// write's error.
func operatorReplacesAtOtherVersion(t *testing.T, h *client, lease *Lease, write func() error) error {
	t.Helper()
	skipTraceCheck(t, "an operator replaces the holder's node: OwnWatch.tla's ForeignReplace, an environment step the trace model has not")
	node := h.abs(lease.Node())
	ownWatchSet(t, h, lease)
	lease.mu.Lock()
	version := lease.version
	lease.mu.Unlock()
	a := admin(t)
	h.net.BlackholeUntilHealed()
	defer h.net.Heal()
	res := goAsync(context.Background(), func(context.Context) (struct{}, error) { return struct{}{}, write() })
	eventually(t, "the guarded multi sent", 30*time.Second, func() bool { return multiInFlight(h.Session) })
	if err := a.Delete(node, -1); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Create(node, []byte("stranger"), 0, zk.WorldACL(zk.PermAll)); err != nil {
		t.Fatal(err)
	}
	for v := int32(0); v <= version; v++ { // one version past the lease's
		if _, err := a.Set(node, []byte("stranger"), v); err != nil {
			t.Fatal(err)
		}
	}
	h.net.Heal()
	_, err := res.wait(t, time.Minute)
	if !errors.Is(err, ErrLockLost) {
		t.Fatalf("write through a node replaced at another version = %v, want ErrLockLost", err)
	}
	t.Cleanup(func() { a.Delete(node, -1) })
	return err
}

// A Guard in flight when an operator replaces our node at another
// version: the multi's check of our node (by its version) fails, and the
// write does not land. A check of the lock path instead would pass.
func TestGuardInFlightNodeReplacedNothingLands(t *testing.T) {
	ctx := ctxFor(t, time.Minute)
	lock := lockPath(t)
	h, lease := holdLock(t, ctx, lock)
	a := admin(t)
	res := lock + "-resource"
	if _, err := a.Create(res, []byte("before"), 0, zk.WorldACL(zk.PermAll)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Delete(res, -1) })
	operatorReplacesAtOtherVersion(t, h, lease, func() error {
		_, err := lease.Guard(ctx, &zk.SetDataRequest{Path: res, Data: []byte("ours"), Version: -1})
		return err
	})
	if data, _, err := a.Get(res); err != nil || string(data) != "before" {
		t.Fatalf("resource = %q, %v; want the guarded write refused", data, err)
	}
}

// A Proclaim in flight when an operator replaces the leader's node at
// another version: the check fails and the stranger's node keeps its
// data. Proclaim without the check would write into it.
func TestProclaimInFlightNodeReplacedNothingLands(t *testing.T) {
	ctx := ctxFor(t, time.Minute)
	p := lockPath(t)
	h := newClient(t, "leader")
	la := campaign(t, ctx, election(t, h, p), "v0")
	if err := la.Proclaim(ctx, []byte("v1")); err != nil {
		t.Fatal(err)
	}
	node := h.abs(la.Node())
	operatorReplacesAtOtherVersion(t, h, la.lease, func() error { return la.Proclaim(ctx, []byte("v2")) })
	if data, _, err := admin(t).Get(node); err != nil || string(data) != "stranger" {
		t.Fatalf("stranger's node = %q, %v; want its data untouched", data, err)
	}
}
