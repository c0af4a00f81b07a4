package zklock

import (
	"errors"
	"path"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
)

// A lock is a security boundary: whoever can delete the holder's node can
// take the lock. With digest ACLs (the creator's identity may do anything,
// the world may only read) an intruder without the credentials, or with
// wrong ones, can do nothing to the queue; without ACLs the same intruder
// makes two clients hold the lock at once. The second half is the first
// half's positive control.

// lockACL: the authenticated creator may do anything, everyone may read.
func lockACL() []zk.ACL {
	return append(zk.AuthACL(zk.PermAll), zk.WorldACL(zk.PermRead)...)
}

// intrude tries everything a session without the owner's credentials could
// do to take the lock from holder, and returns what the server allowed.
func intrude(t *testing.T, intruder *zk.Conn, lock, holderNode string) []string {
	t.Helper()
	var allowed []string
	try := func(what string, err error) {
		switch {
		case err == nil:
			allowed = append(allowed, what)
		case !errors.Is(err, zk.ErrNoAuth) && !errors.Is(err, zk.ErrNotEmpty):
			t.Errorf("intruder: %s: %v, want NoAuth", what, err)
		}
	}
	_, err := intruder.Set(holderNode, []byte("mine now"), -1)
	try("overwrite the holder's node", err)
	_, err = intruder.Create(lock+"/_c_00000000-0000-4000-8000-000000000000-lock-", nil,
		zk.FlagEphemeral|zk.FlagSequence, zk.WorldACL(zk.PermAll))
	try("queue a node of its own", err)
	_, err = intruder.Create(lock+"/lock-0000000000", nil, 0, zk.WorldACL(zk.PermAll))
	try("create a node sorting ahead of the queue", err)
	try("delete the holder's node", intruder.Delete(holderNode, -1))
	try("delete the lock path", intruder.Delete(lock, -1))
	return allowed
}

func TestIntruderCannotTakeAnACLProtectedLock(t *testing.T) {
	cred := WithAuth("digest", []byte("owner:secret"))
	holder := newClient(t, "holder", cred)
	waiter := newClient(t, "waiter", cred)
	lock := lockPath(t)
	// WithACL applies to the parents zklock creates too: make the shared
	// test parent ourselves, open, so that only this lock path is closed.
	a := admin(t)
	if _, err := a.Create(path.Dir(lock), nil, 0, zk.WorldACL(zk.PermAll)); err != nil && !errors.Is(err, zk.ErrNodeExists) {
		t.Fatal(err)
	}
	acl := WithACL(lockACL())
	hm, err := NewMutex(holder.Session, lock, acl)
	if err != nil {
		t.Fatal(err)
	}
	wm, err := NewMutex(waiter.Session, lock, acl)
	if err != nil {
		t.Fatal(err)
	}
	ctx := ctxFor(t, time.Minute)
	lease, err := hm.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, who := range []struct {
		name string
		auth []byte
	}{{"no credentials", nil}, {"wrong credentials", []byte("owner:guess")}} {
		intruder := admin(t)
		if who.auth != nil {
			if err := intruder.AddAuth("digest", who.auth); err != nil {
				t.Fatal(err)
			}
		}
		if allowed := intrude(t, intruder.Conn, lock, lease.Node()); len(allowed) > 0 {
			t.Errorf("intruder with %s was allowed to %q", who.name, allowed)
		}
	}
	if _, err := wm.TryLock(ctx); !errors.Is(err, ErrLocked) {
		t.Fatalf("a second client with the credentials: %v, want ErrLocked while the holder holds", err)
	}
	select {
	case <-lease.Done():
		t.Fatalf("the holder's lease ended: %v", lease.Err())
	default:
	}
	if err := lease.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	next, err := wm.Lock(ctx)
	if err != nil {
		t.Fatalf("the legitimate waiter after the release: %v", err)
	}
	next.Unlock(ctx)
}

// TestIntruderTakesAnUnprotectedLock is the control: the same intruder on
// a lock without ACLs deletes the holder's node, and a second client is
// granted. The holder learns it from the watch on its own node (its lease
// ends with ErrNodeDeleted), but the two tenures may overlap for that one
// notification: only fencing protects the resource then.
func TestIntruderTakesAnUnprotectedLock(t *testing.T) {
	skipTraceCheck(t, "an intruder deletes a node: a step outside the model")
	holder := newClient(t, "holder")
	other := newClient(t, "other")
	lock := lockPath(t)
	hm, err := NewMutex(holder.Session, lock)
	if err != nil {
		t.Fatal(err)
	}
	om, err := NewMutex(other.Session, lock)
	if err != nil {
		t.Fatal(err)
	}
	ctx := ctxFor(t, time.Minute)
	lease, err := hm.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	intruder := admin(t)
	allowed := intrude(t, intruder.Conn, lock, lease.Node())
	if len(allowed) == 0 {
		t.Fatal("the intruder could do nothing to an unprotected lock: the ACL test above proves nothing")
	}
	// The intruder's own nodes would make the next client wait behind
	// them: it removes them, keeping only the theft.
	for _, n := range nodes(t, intruder, lock) {
		if err := intruder.Delete(lock+"/"+n, -1); err != nil && !errors.Is(err, zk.ErrNoNode) {
			t.Fatal(err)
		}
	}
	second, err := om.Lock(ctx)
	if err != nil {
		t.Fatalf("second client: %v", err)
	}
	defer second.Unlock(ctx)
	select {
	case <-lease.Done():
	case <-time.After(30 * time.Second):
		t.Fatal("the holder's lease still held 30 s after the intruder deleted its node")
	}
	if err := lease.Err(); !errors.Is(err, ErrNodeDeleted) {
		t.Fatalf("the holder's Err = %v, want ErrNodeDeleted", err)
	}
	if second.Token() <= lease.Token() {
		t.Errorf("second token %d not above the first %d", second.Token(), lease.Token())
	}
	t.Logf("intruder was allowed to %q; the lock passed to a second client, tokens %d and %d (fencing tells them apart)",
		allowed, lease.Token(), second.Token())
}
