package zklock

import (
	"errors"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/zklock/zklock/model/trace"
	"github.com/zklock/zklock/traceevent"
)

// Lease.Check's operation makes a caller's own multi apply only while the
// lease holds: it applies while held; after someone deletes our lock node
// (the lock is lost) the same multi applies nothing; once the lease has
// ended Check itself refuses.
func TestLeaseCheck(t *testing.T) {
	a := admin(t)
	c := newClient(t, "c")
	ctx := ctxFor(t, time.Minute)
	lock := lockPath(t)
	m, _ := NewMutex(c.Session, lock)
	lease, err := m.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	data := lock + "-data"
	t.Cleanup(func() { a.Delete(data, -1) })
	check, err := lease.Check()
	if err != nil {
		t.Fatal(err)
	}
	if check.Path != lock+"/"+lastElem(lease.Node()) {
		t.Fatalf("Check path %q, lease node %q", check.Path, lease.Node())
	}
	create := &zk.CreateRequest{Path: data, Data: []byte("1"), Acl: zk.WorldACL(zk.PermAll)}
	if _, err := c.Conn().Multi(check, create); err != nil {
		t.Fatalf("multi with the check of a held lease: %v", err)
	}
	// The lock is lost behind the holder's back: our node is deleted, an
	// outsider's step in the trace (its lease then ends by LearnNodeGone).
	start := time.Now()
	if err := a.Delete(lease.Node(), -1); err != nil {
		t.Fatal(err)
	}
	end := time.Now().UnixNano()
	traceOutsider(t, trace.Event{Lock: lease.lock, Action: traceevent.ForeignDelete, Node: baseName(lease.Node()),
		Start: start.UnixNano(), End: &end})
	set := &zk.SetDataRequest{Path: data, Data: []byte("2"), Version: -1}
	res, err := c.Conn().Multi(check, set)
	if err == nil || len(res) == 0 || !errors.Is(res[0].Error, zk.ErrNoNode) {
		t.Fatalf("multi with the check of a lost lock = %v, %+v; want the check to fail with NoNode", err, res)
	}
	if got, _, _ := a.Get(data); string(got) != "1" {
		t.Fatalf("the write landed after the lock was lost: %q", got)
	}
	lease.Unlock(ctx)
	if _, err := lease.Check(); !errors.Is(err, ErrNotHeld) {
		t.Fatalf("Check after the lease ended = %v, want ErrNotHeld", err)
	}
	var nilLease *Lease
	if _, err := nilLease.Check(); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("Check on a nil lease = %v, want ErrInvalidArgument", err)
	}
}

func lastElem(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' {
			return p[i+1:]
		}
	}
	return p
}

// Guard writes only while the lease holds: once our lock node is gone
// (deleted behind the holder's back, as the server does when the session
// expires), a guarded write applies nothing, fails with ErrLockLost and
// ends the lease, although the lock path itself still stands.
func TestGuardAfterLockLost(t *testing.T) {
	skipTraceCheck(t, "an operator deletes a lock node: a step outside the model")
	a := admin(t)
	c := newClient(t, "c")
	ctx := ctxFor(t, time.Minute)
	lock := lockPath(t)
	m, _ := NewMutex(c.Session, lock)
	lease, err := m.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	data := lock + "-data"
	t.Cleanup(func() { a.Delete(data, -1) })
	if _, err := lease.Guard(ctx, &zk.CreateRequest{Path: data, Data: []byte("1"), Acl: zk.WorldACL(zk.PermAll)}); err != nil {
		t.Fatalf("Guard while held: %v", err)
	}
	if err := a.Delete(lease.Node(), -1); err != nil {
		t.Fatal(err)
	}
	_, err = lease.Guard(ctx, &zk.SetDataRequest{Path: data, Data: []byte("2"), Version: -1})
	if !errors.Is(err, ErrLockLost) {
		t.Fatalf("Guard after our lock node was deleted = %v, want ErrLockLost", err)
	}
	if got, _, _ := a.Get(data); string(got) != "1" {
		t.Fatalf("the guarded write landed after the lock was lost: %q", got)
	}
	select {
	case <-lease.Done():
	default:
		t.Fatal("the lease did not end when Guard found its node gone")
	}
}
