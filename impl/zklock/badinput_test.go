package zklock

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
)

// Test 11: bad input gets a typed error and leaves nothing on the server.
func TestBadInput(t *testing.T) {
	ctx := ctxFor(t, 2*time.Minute)
	c := newClient(t, "c")
	a := admin(t)
	lock := lockPath(t)

	t.Run("paths", func(t *testing.T) {
		for _, p := range []string{"", "relative", "/", "/a/", "//a", "/a//b", "/a/./b", "/a/../b", "/zookeeper",
			"/zookeeper/config", "/a\x00b", "/a\x1fb", "/a\u0090"} {
			if _, err := NewMutex(c.Session, p); !errors.Is(err, ErrInvalidPath) {
				t.Errorf("NewMutex(%q) = %v, want ErrInvalidPath", p, err)
			}
			if _, err := NewRWMutex(c.Session, p); !errors.Is(err, ErrInvalidPath) {
				t.Errorf("NewRWMutex(%q) = %v, want ErrInvalidPath", p, err)
			}
		}
	})
	t.Run("data", func(t *testing.T) {
		if _, err := NewMutex(c.Session, lock, WithData(make([]byte, MaxNodeData+1))); !errors.Is(err, ErrDataTooLarge) {
			t.Fatalf("data over the limit = %v, want ErrDataTooLarge", err)
		}
		big := bytes.Repeat([]byte{'z'}, MaxNodeData)
		m, err := NewMutex(c.Session, lock, WithData(big))
		if err != nil {
			t.Fatal(err)
		}
		lease, err := m.Lock(ctx)
		if err != nil {
			t.Fatalf("data at the limit: %v", err)
		}
		got, _, err := a.Get(lease.Node())
		if err != nil || !bytes.Equal(got, big) {
			t.Fatalf("lock node data: %d bytes, %v", len(got), err)
		}
		lease.Unlock(ctx)
	})
	t.Run("nil arguments", func(t *testing.T) {
		var nilCtx context.Context
		if _, err := NewMutex(nil, lock); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("NewMutex(nil session) = %v", err)
		}
		if _, err := NewSession(nilCtx, []string{"127.0.0.1:1"}); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("NewSession(nil ctx) = %v", err)
		}
		if _, err := NewSession(ctx, nil); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("NewSession(no servers) = %v", err)
		}
		if _, err := NewSession(ctx, []string{"127.0.0.1:1"}, WithSessionTimeout(-time.Second)); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("NewSession(negative timeout) = %v", err)
		}
		m, _ := NewMutex(c.Session, lock)
		if _, err := m.Lock(nilCtx); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("Lock(nil ctx) = %v", err)
		}
		var nm *Mutex
		if _, err := nm.Lock(ctx); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("nil Mutex Lock = %v", err)
		}
		var nl *Lease
		if err := nl.Unlock(ctx); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("nil Lease Unlock = %v", err)
		}
		lease, err := m.Lock(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := lease.Unlock(nilCtx); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("Unlock(nil ctx) = %v", err)
		}
		if err := lease.Err(); err != nil {
			t.Errorf("a refused Unlock ended the lease: %v", err)
		}
		lease.Unlock(ctx)
	})
	t.Run("cancelled context", func(t *testing.T) {
		m, _ := NewMutex(c.Session, lock)
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		if _, err := m.Lock(cctx); !errors.Is(err, context.Canceled) {
			t.Errorf("Lock(cancelled) = %v", err)
		}
		if _, err := NewSession(cctx, c.net.Addrs(), timing()); !errors.Is(err, context.Canceled) {
			t.Errorf("NewSession(cancelled) = %v", err)
		}
	})
	t.Run("unreachable servers", func(t *testing.T) {
		sctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
		defer cancel()
		if _, err := NewSession(sctx, []string{"127.0.0.1:1"}); !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("NewSession(nothing listening) = %v, want context.DeadlineExceeded", err)
		}
	})
	t.Run("double unlock and guard after unlock", func(t *testing.T) {
		m, _ := NewMutex(c.Session, lock)
		lease, err := m.Lock(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := lease.Unlock(ctx); err != nil {
			t.Fatal(err)
		}
		if !errors.Is(lease.Err(), ErrReleased) {
			t.Errorf("Err after Unlock = %v", lease.Err())
		}
		if err := lease.Unlock(ctx); !errors.Is(err, ErrNotHeld) {
			t.Errorf("second Unlock = %v, want ErrNotHeld", err)
		}
		if _, err := lease.Guard(ctx); !errors.Is(err, ErrNotHeld) {
			t.Errorf("Guard after Unlock = %v, want ErrNotHeld", err)
		}
	})
	t.Run("guard ops", func(t *testing.T) {
		m, _ := NewMutex(c.Session, lock)
		lease, err := m.Lock(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer lease.Unlock(ctx)
		var nilSet *zk.SetDataRequest
		for _, op := range []any{"set /x", nil, nilSet, zk.DeleteRequest{Path: "/x"}} {
			if _, err := lease.Guard(ctx, op); !errors.Is(err, ErrInvalidArgument) {
				t.Errorf("Guard(%#v) = %v, want ErrInvalidArgument", op, err)
			}
		}
		huge := &zk.SetDataRequest{Path: lock, Data: make([]byte, MaxNodeData+1), Version: -1}
		if _, err := lease.Guard(ctx, huge); !errors.Is(err, ErrDataTooLarge) {
			t.Errorf("Guard with too much data = %v, want ErrDataTooLarge", err)
		}
		if err := lease.Err(); err != nil {
			t.Errorf("a refused Guard ended the lease: %v", err)
		}
		res, err := lease.Guard(ctx, &zk.CreateRequest{Path: lock + "-guarded", Acl: zk.WorldACL(zk.PermAll)})
		if err != nil || len(res) != 1 || res[0].String != lock+"-guarded" {
			t.Fatalf("guarded create = %+v, %v", res, err)
		}
		a.Delete(lock+"-guarded", -1)
	})
	t.Run("closed session", func(t *testing.T) {
		d := newClient(t, "closed")
		m, _ := NewMutex(d.Session, lock)
		lease, err := m.Lock(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if err := d.Close(); err != nil {
			t.Fatal(err)
		}
		if err := d.Close(); !errors.Is(err, ErrClosed) {
			t.Errorf("second Close = %v, want ErrClosed", err)
		}
		if !errors.Is(lease.Err(), ErrLockLost) || !errors.Is(lease.Err(), ErrClosed) {
			t.Errorf("lease of a closed session: Err = %v", lease.Err())
		}
		if _, err := m.Lock(ctx); !errors.Is(err, ErrClosed) {
			t.Errorf("Lock on a closed session = %v, want ErrClosed", err)
		}
		if _, err := NewMutex(d.Session, lock); !errors.Is(err, ErrClosed) {
			t.Errorf("NewMutex on a closed session = %v, want ErrClosed", err)
		}
	})
	eventually(t, "nothing left on the server", 5*time.Second, func() bool { return len(nodes(t, a, lock)) == 0 })
}
