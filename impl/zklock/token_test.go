package zklock

import (
	"context"
	"testing"
	"time"

	"github.com/zklock/zklock/faultinject"
)

// TestTokenIsCzxid: every lease's token is its node's czxid as the server
// reports it, for a grant at once and for one after a hand-off, with and
// without a tracer (the wire keeps more of each request with one), for
// every lock kind. The token comes with the create (a create2, whose reply
// carries the node's Stat): acquiring reads no stat of its own.
func TestTokenIsCzxid(t *testing.T) {
	lock := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	a := admin(t)
	traced := newClient(t, "traced")
	plain := newClient(t, "plain", WithTracer(nil))
	for _, c := range []*client{traced, plain} {
		m, _ := NewMutex(c.Session, lock)
		rw, _ := NewRWMutex(c.Session, lock+"-rw")
		for _, acquire := range []func(context.Context) (*Lease, error){m.Lock, rw.RLock, rw.Lock} {
			before := c.net.Stats().Requests
			lease, err := acquire(ctx)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			after := c.net.Stats().Requests
			if n := after[faultinject.OpExists] - before[faultinject.OpExists]; n != 0 {
				t.Errorf("%s: %d exists requests for one uncontended %v lease, want 0 (the token comes with the create)", c.name, n, lease.Mode())
			}
			// Two on a fresh lock path: the first finds no parent.
			if n := after[faultinject.OpCreate2] - before[faultinject.OpCreate2]; n < 1 || n > 2 {
				t.Errorf("%s: %d create2 requests for one %v lease, want 1 (2 on a fresh lock path)", c.name, n, lease.Mode())
			}
			checkCzxid(t, a, c.name, lease)
			if err := lease.Unlock(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}
	// A hand-off: the waiter's token is its own node's czxid, not its
	// predecessor's nor the one the hand-off's notification carries.
	mh, _ := NewMutex(traced.Session, lock)
	mw, _ := NewMutex(plain.Session, lock)
	held, err := mh.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	p := lockAsync(ctx, mw.Lock)
	eventually(t, "the waiter queued", 10*time.Second, func() bool { return len(nodes(t, a, lock)) == 2 })
	if err := held.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	second, err := p.wait(t, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	checkCzxid(t, a, "waiter", second)
	if second.Token() <= held.Token() {
		t.Errorf("token %d after %d", second.Token(), held.Token())
	}
	second.Unlock(ctx)
}

// checkCzxid fails unless lease's token is its node's czxid.
func checkCzxid(t *testing.T, a *adminClient, who string, lease *Lease) {
	t.Helper()
	// The admin's session may be on a server that has not applied the
	// create yet: a stale read, not a missing node.
	if _, err := a.Sync(lease.Node()); err != nil {
		t.Fatalf("%s: sync %s: %v", who, lease.Node(), err)
	}
	ok, st, err := a.Exists(lease.Node())
	if err != nil || !ok {
		t.Fatalf("%s: stat %s: %v %v", who, lease.Node(), ok, err)
	}
	if lease.Token() != st.Czxid {
		t.Errorf("%s: token %#x, node %s has czxid %#x (mzxid %#x, ctime %d)", who, lease.Token(), lease.Node(), st.Czxid, st.Mzxid, st.Ctime)
	}
}
