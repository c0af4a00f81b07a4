package zklock

import (
	"context"
	"errors"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklock/zklock/ensemble/ensembletest"
)

func TestConnectServers(t *testing.T) {
	good := []struct {
		in     []string
		want   []string
		chroot string
	}{
		{[]string{"h1:2181", "h2:2181"}, []string{"h1:2181", "h2:2181"}, ""},
		{[]string{"h1:2181,h2:2181,h3:2181"}, []string{"h1:2181", "h2:2181", "h3:2181"}, ""},
		{[]string{" h1:2181 , h2:2181,", "h3:2181"}, []string{"h1:2181", "h2:2181", "h3:2181"}, ""},
		{[]string{"h1:2181,h2:2181,h3:2181/app"}, []string{"h1:2181", "h2:2181", "h3:2181"}, "/app"}, // as Java clients write it
		{[]string{"h1:2181", "h2:2181", "h3:2181/app/x"}, []string{"h1:2181", "h2:2181", "h3:2181"}, "/app/x"},
		{[]string{"h1:2181/app"}, []string{"h1:2181"}, "/app"},
		{[]string{"h1:2181,h2:2181/"}, []string{"h1:2181", "h2:2181"}, ""},
	}
	for _, c := range good {
		got, chroot, err := connectServers(c.in)
		if err != nil || !slices.Equal(got, c.want) || chroot != c.chroot {
			t.Errorf("connectServers(%q) = %q, %q, %v; want %q, %q", c.in, got, chroot, err, c.want, c.chroot)
		}
	}
	bad := [][]string{
		{"h1:2181/app", "h2:2181", "h3:2181"}, // on one address, not the last
		{"h1:2181/app,h2:2181"},
		{"h1:2181/a,h2:2181/a"},  // on each address
		{"h1:2181,h2:2181/app/"}, // trailing slash
		{"h1:2181,h2:2181/a//b"}, // empty segment
		{"h1:2181,/app"},         // no address before it
		{"h1:2181,h2:2181/zookeeper"},
	}
	for _, in := range bad {
		if _, _, err := connectServers(in); !errors.Is(err, ErrChroot) || !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("connectServers(%q) = %v, want ErrChroot", in, err)
		}
	}
	for _, in := range [][]string{nil, {}, {""}, {",", " "}} {
		if _, _, err := connectServers(in); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("connectServers(%q) = %v, want ErrInvalidArgument", in, err)
		}
	}
}

// A misplaced chroot is refused at once, even with a context that never
// ends and servers that are really there; a comma-separated connect string
// connects.
func TestNewSessionConnectString(t *testing.T) {
	servers := ensembletest.Require(t)
	for _, in := range [][]string{
		append([]string{servers[0] + "/app"}, servers[1:]...),
		{servers[0] + "/app," + strings.Join(servers[1:], ",")},
	} {
		s, err := NewSession(context.Background(), in)
		if !errors.Is(err, ErrChroot) {
			if s != nil {
				s.Close()
			}
			t.Fatalf("NewSession(%q) = %v, want ErrChroot", in, err)
		}
	}
	s, err := NewSession(ctxFor(t, time.Minute), []string{strings.Join(servers, ",")}, WithSessionTimeout(longTimeout), timing())
	if err != nil {
		t.Fatalf("NewSession with a comma-separated connect string: %v", err)
	}
	s.Close()
}

// Nothing listens: NewSession returns ErrNoServer by itself, even with a
// context that never ends.
func TestNewSessionNothingListens(t *testing.T) {
	if testing.Short() {
		t.Skip("waits out NewSession's bound (10 s)")
	}
	var addrs []string
	for i := 0; i < 2; i++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addrs = append(addrs, l.Addr().String())
		l.Close()
	}
	done := make(chan error, 1)
	go func() {
		s, err := NewSession(context.Background(), addrs, WithSessionTimeout(shortTimeout), timing())
		if s != nil {
			s.Close()
		}
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, ErrNoServer) {
			t.Fatalf("NewSession where nothing listens = %v, want ErrNoServer", err)
		}
	case <-time.After(2 * time.Minute): // only keeps a hang from stalling the suite
		t.Fatal("NewSession where nothing listens never returned")
	}
}

// A drift margin at or above the session timeout is refused: at once
// against the timeout asked for, after the handshake against the one the
// server negotiated (the test ensemble grants at most 10 s).
func TestDriftMarginAboveTimeout(t *testing.T) {
	servers := ensembletest.Require(t)
	ctx := ctxFor(t, time.Minute)
	for _, opts := range [][]SessionOption{
		{WithSessionTimeout(2 * time.Second), WithDriftMargin(2 * time.Second)},
		{WithDriftMargin(time.Hour)},
		{WithSessionTimeout(time.Hour), WithDriftMargin(30 * time.Second)},
	} {
		s, err := NewSession(ctx, servers, opts...)
		if !errors.Is(err, ErrInvalidArgument) {
			if s != nil {
				t.Logf("negotiated %v", s.Timeout())
				s.Close()
			}
			t.Fatalf("NewSession with a drift margin not below the timeout = %v, want ErrInvalidArgument", err)
		}
	}
	s, err := NewSession(ctx, servers, WithSessionTimeout(longTimeout), WithDriftMargin(time.Second), timing())
	if err != nil {
		t.Fatalf("a margin below the timeout: %v", err)
	}
	s.Close()
}

// Lock on a path whose ACL forbids us fails at once with ErrNoAuth (which
// is zk.ErrNoAuth too) and leaves nothing behind.
func TestLockNoAuth(t *testing.T) {
	a := admin(t)
	c := newClient(t, "c")
	ctx := ctxFor(t, time.Minute)
	mlock, rwlock := forbidden(t, a), forbidden(t, a)
	m, _ := NewMutex(c.Session, mlock)
	rw, _ := NewRWMutex(c.Session, rwlock)
	for name, lockFn := range map[string]func(context.Context) (*Lease, error){
		"Lock": m.Lock, "TryLock": m.TryLock, "RLock": rw.RLock, "RW Lock": rw.Lock,
	} {
		_, err := lockFn(ctx)
		if !errors.Is(err, ErrNoAuth) || !errors.Is(err, zk.ErrNoAuth) {
			t.Fatalf("%s on a path we may not write = %v, want ErrNoAuth", name, err)
		}
		if ctx.Err() != nil {
			t.Fatalf("%s waited for its context", name)
		}
	}
	for _, lock := range []string{mlock, rwlock} {
		if left := synced(t, a, lock); len(left) != 0 {
			t.Fatalf("nodes %v left under %s", left, lock)
		}
	}
}

// forbidden makes a lock path under which no one may create nodes.
func forbidden(t testing.TB, a *adminClient) string {
	t.Helper()
	lock := lockPath(t)
	if _, err := a.Create("/zklock-test", nil, 0, zk.WorldACL(zk.PermAll)); err != nil && !errors.Is(err, zk.ErrNodeExists) {
		t.Fatal(err)
	}
	if _, err := a.Create(lock, nil, 0, zk.WorldACL(zk.PermRead|zk.PermDelete)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Delete(lock, -1) })
	return lock
}
