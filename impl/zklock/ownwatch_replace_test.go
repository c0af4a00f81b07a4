package zklock

// An operator replaces a held node (deletes it and makes one of the same
// name): a guarded write in flight through it is never reported as ours
// (OwnWatch.tla's GuardNeverLies), and someone else's setData alone keeps
// the lease.

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/zklock/zklock/internal/zkwire"
)

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
	operatorReplacesInFlight(t, h, lease, 0, func() error {
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
	// Now the data change's event is held back while the node is replaced,
	// in one multi: a client that reconnects meanwhile (its connection may
	// time out in the blackhole) finds the node there, replaced, never a
	// moment without it.
	h.net.BlackholeUntilHealed()
	if _, err := a.Multi(
		&zk.SetDataRequest{Path: node, Data: []byte("operator again"), Version: -1},
		&zk.DeleteRequest{Path: node, Version: -1},
		&zk.CreateRequest{Path: node, Data: []byte("stranger"), Acl: zk.WorldACL(zk.PermAll)},
	); err != nil {
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
