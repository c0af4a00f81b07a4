package zklock

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"log/slog"
	"net"
	"runtime"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/zklock/zklock/ensemble"
	"github.com/zklock/zklock/ensemble/ensembletest"
	"github.com/zklock/zklock/faultinject"
)

// tlsSession opens a session on the TLS ensemble; the test closes it.
func tlsSession(t *testing.T, e *ensemble.Ensemble, opts ...SessionOption) *Session {
	t.Helper()
	ctx := ctxFor(t, time.Minute)
	all := append([]SessionOption{WithTLS(e.ClientTLS()), WithSessionTimeout(longTimeout),
		WithEnsembleTiming(e.TickTime(), e.SyncLimit()),
		WithLogger(slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn})))}, opts...)
	s, err := NewSession(ctx, e.Addrs(), all...)
	if err != nil {
		t.Fatalf("session over TLS: %v", err)
	}
	return s
}

// Every lock kind works over TLS, and the loss timer still counts the
// acknowledged requests inside the TLS stream: the deadline moves on with
// the heartbeat. Closing the sessions leaves no goroutine behind.
func TestTLSEveryLockKind(t *testing.T) {
	e := ensembletest.RequireTLSEnsemble(t)
	runtime.GC()
	before := runtime.NumGoroutine()
	func() {
		ctx := ctxFor(t, 2*time.Minute)
		s1, s2 := tlsSession(t, e), tlsSession(t, e)
		defer s1.Close()
		defer s2.Close()
		d0, _ := s1.deadline()
		eventually(t, "the loss deadline moved on by an acknowledged sync over TLS", 30*time.Second, func() bool {
			d, live := s1.deadline()
			return live && d.After(d0)
		})
		lock := lockPath(t)
		tlsMutex(ctx, t, s1, s2, lock)
		tlsRWMutex(ctx, t, s1, s2, lock+"-rw")
		m1, _ := NewMutex(s1, lock+"-a")
		m2, _ := NewMutex(s1, lock+"-b")
		ml, err := LockAll(ctx, m1, m2)
		if err != nil || len(ml.Tokens()) != 2 {
			t.Fatalf("LockAll over TLS: %v", err)
		}
		if err := ml.Unlock(ctx); err != nil {
			t.Fatal(err)
		}
		if err := s1.Err(); err != nil {
			t.Fatalf("session ended: %v", err)
		}
	}()
	goroutinesSettle(t, before, "closing the TLS sessions")
}

// tlsMutex: Lock, TryLock refused, a waiter granted on Unlock, Guard.
func tlsMutex(ctx context.Context, t *testing.T, s1, s2 *Session, lock string) {
	t.Helper()
	m1, _ := NewMutex(s1, lock)
	m2, _ := NewMutex(s2, lock)
	l1, err := m1.Lock(ctx)
	if err != nil {
		t.Fatalf("Lock over TLS: %v", err)
	}
	if _, err := m2.TryLock(ctx); !errors.Is(err, ErrLocked) {
		t.Fatalf("TryLock of a held lock over TLS = %v, want ErrLocked", err)
	}
	p := lockAsync(ctx, m2.Lock)
	guarded := lock + "-guarded"
	if _, err := l1.Guard(ctx, &zk.CreateRequest{Path: guarded, Data: []byte("x"), Acl: zk.WorldACL(zk.PermAll)}); err != nil {
		t.Fatalf("Guard over TLS: %v", err)
	}
	if ok, _, err := s2.Conn().Exists(guarded); err != nil || !ok {
		t.Fatalf("the guarded create is not there: %v, %v", ok, err)
	}
	if err := l1.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	l2, err := p.wait(t, time.Minute)
	if err != nil {
		t.Fatalf("waiter over TLS: %v", err)
	}
	if l2.Token() <= l1.Token() {
		t.Errorf("tokens %d then %d: not increasing", l1.Token(), l2.Token())
	}
	if err := l2.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	s2.Conn().Delete(guarded, -1)
}

// tlsRWMutex: two readers at once, a writer, its Downgrade letting a
// reader in.
func tlsRWMutex(ctx context.Context, t *testing.T, s1, s2 *Session, lock string) {
	t.Helper()
	rw1, _ := NewRWMutex(s1, lock)
	rw2, _ := NewRWMutex(s2, lock)
	r1, err := rw1.RLock(ctx)
	if err != nil {
		t.Fatalf("RLock over TLS: %v", err)
	}
	r2, err := rw2.RLock(ctx)
	if err != nil {
		t.Fatalf("second RLock over TLS: %v", err)
	}
	r2.Unlock(ctx)
	if _, err := rw2.TryLock(ctx); !errors.Is(err, ErrLocked) {
		t.Fatalf("TryLock beside a reader = %v, want ErrLocked", err)
	}
	r1.Unlock(ctx)
	w, err := rw1.Lock(ctx)
	if err != nil {
		t.Fatalf("write Lock over TLS: %v", err)
	}
	if err := w.Downgrade(ctx); err != nil {
		t.Fatalf("Downgrade over TLS: %v", err)
	}
	r3, err := rw2.RLock(ctx)
	if err != nil {
		t.Fatalf("RLock beside a downgraded lease: %v", err)
	}
	r3.Unlock(ctx)
	w.Unlock(ctx)
}

// A session that cannot speak to any server in its protocol fails at once
// with ErrTLS (and ErrNoServer), not at the end of its connect bound: a CA
// that did not sign the servers' certificate (the x509 cause is wrapped),
// a plaintext session on the TLS port, a TLS session on a plaintext port.
// None leaves a goroutine behind.
func TestTLSMismatchFailsFast(t *testing.T) {
	e := ensembletest.RequireTLSEnsemble(t)
	plain := ensembletest.Require(t)
	runtime.GC()
	before := runtime.NumGoroutine()
	timing := WithEnsembleTiming(e.TickTime(), e.SyncLimit())
	for _, tc := range []struct {
		name    string
		servers []string
		opts    []SessionOption
		cause   any
	}{
		{"wrong CA", e.Addrs(), []SessionOption{WithTLS(&tls.Config{RootCAs: x509.NewCertPool()})}, &x509.UnknownAuthorityError{}},
		{"plaintext on the TLS port", e.Addrs(), nil, nil},
		{"TLS on a plaintext port", plain, []SessionOption{WithTLS(e.ClientTLS())}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// No deadline: only a failure for a reason may end NewSession
			// before its connect bound.
			s, err := NewSession(context.Background(), tc.servers, append(tc.opts, timing, WithSessionTimeout(longTimeout))...)
			if err == nil {
				s.Close()
				t.Fatal("NewSession succeeded")
			}
			var bound boundPassed
			if !errors.Is(err, ErrTLS) || !errors.Is(err, ErrNoServer) || errors.As(err, &bound) {
				t.Fatalf("NewSession = %v, want ErrTLS and ErrNoServer before the connect bound", err)
			}
			if ua, ok := tc.cause.(*x509.UnknownAuthorityError); ok && !errors.As(err, ua) {
				t.Fatalf("NewSession = %v, want the x509 cause wrapped", err)
			}
			t.Log(err)
		})
	}
	goroutinesSettle(t, before, "the failed sessions")
}

// The control of the protocol checks above: a server that merely closes
// connections (as ZooKeeper does while it is not serving, or at its
// connection limit) is not taken for a protocol mismatch, on either side.
func TestTLSMismatchNeedsEvidence(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			buf := make([]byte, 512)
			c.SetReadDeadline(time.Now().Add(time.Second))
			c.Read(buf)
			c.Close()
		}
	}()
	addr := l.Addr().String()
	w := &wire{tls: &tls.Config{RootCAs: x509.NewCertPool()}, evidence: newTLSEvidence()}
	if _, err := w.dial("tcp", addr, time.Second); err == nil || errors.Is(err, ErrTLS) {
		t.Errorf("TLS dial of a server that closes: %v, want a plain failure", err)
	}
	plain := &wire{evidence: newTLSEvidence()}
	plain.plainConnectFailed(addr, nil)
	for _, w := range []*wire{w, plain} {
		if err := w.evidence.err(); err != nil {
			t.Errorf("evidence of a protocol mismatch from a server that closes: %v", err)
		}
	}
	// And the positive side on the same wire: a TLS record where a reply
	// should be is evidence.
	plain.plainConnectFailed(addr, []byte{0x15, 0x03, 0x03, 0x00, 0x02})
	if !errors.Is(plain.evidence.err(), ErrTLS) {
		t.Errorf("a TLS alert before the connect reply is not evidence: %v", plain.evidence.err())
	}
}

// WithTLS refuses nil.
func TestWithTLSNil(t *testing.T) {
	if _, err := NewSession(context.Background(), []string{"127.0.0.1:1"}, WithTLS(nil)); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("WithTLS(nil) = %v, want ErrInvalidArgument", err)
	}
}

// Behind fault-injecting proxies that relay TLS as an opaque stream, a
// severed session reconnects over TLS within its session and keeps its
// lease; a cut of a create's reply, which needs to see inside, is refused.
func TestTLSThroughOpaqueProxies(t *testing.T) {
	e := ensembletest.RequireTLSEnsemble(t)
	set, err := faultinject.NewSet(e.Addrs(), faultinject.WithOpaqueStream())
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	ctx := ctxFor(t, time.Minute)
	s, err := NewSession(ctx, set.Addrs(), WithTLS(e.ClientTLS()), WithSessionTimeout(longTimeout),
		WithEnsembleTiming(e.TickTime(), e.SyncLimit()))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	m, _ := NewMutex(s, lockPath(t))
	lease, err := m.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n := set.Sever(); n == 0 {
		t.Fatal("no connection to sever")
	}
	if _, err := m.Contenders(ctx); err != nil {
		t.Fatalf("after a sever: %v", err)
	}
	if err := lease.Err(); err != nil {
		t.Fatalf("the lease ended with the connection: %v", err)
	}
	if _, err := set.CutAfterRequest(faultinject.OpCreate).Wait(ctx); !errors.Is(err, faultinject.ErrOpaque) {
		t.Fatalf("a cut on an opaque stream = %v, want ErrOpaque", err)
	}
	if err := lease.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
}

// NewSession gives up on the protocol only once go-zookeeper went round
// every address and each failed in it: one server with a bad certificate
// among good ones is skipped, as a server that is down would be.
func TestTLSEvidenceNeedsEveryAddress(t *testing.T) {
	closed := func(e *tlsEvidence) bool {
		select {
		case <-e.all:
			return true
		default:
			return false
		}
	}
	bad := errors.New("bad certificate")
	e := newTLSEvidence()
	e.dial("a")
	e.fail("a", bad)
	e.dial("b") // refused, say: no evidence
	e.dial("a")
	e.fail("a", bad)
	if closed(e) {
		t.Fatal("gave up while b never failed in the protocol")
	}
	e.dial("b")
	e.fail("b", bad)
	if !closed(e) || !errors.Is(e.err(), bad) {
		t.Fatalf("every address failed after a full round: closed %v, err %v", closed(e), e.err())
	}
	once := newTLSEvidence()
	once.dial("a")
	once.fail("a", bad)
	if closed(once) {
		t.Fatal("gave up before a full round")
	}
	once.established()
	once.dial("a")
	if closed(once) {
		t.Fatal("gave up after the session was established")
	}
}
