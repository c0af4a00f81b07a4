package zklock

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/zklock/zklock/internal/zkwire"
)

// go-zookeeper v1.0.4 answers a request whose write fails with the socket's
// own error (connection reset by peer, broken pipe, i/o timeout), not with
// ErrConnectionClosed. The tests below make the write of one request of
// ours fail for real: the connection is reset (a TCP RST from the proxy)
// while go-zookeeper's receive loop is held, so that only the send loop can
// notice, at its next write.

// writeReset is one reset connection whose next write fails.
type writeReset struct {
	c       *client
	scratch string
	tc      *trackedConn
	created *created
	reply   chan error
}

// resetBeforeWrite holds c's receive loop inside the reply to a create of
// its own (the wire's create2 bookkeeping waits for a lock the test holds),
// then resets c's connection: the RST arrives, and the next request
// written fails with the raw error. scratch is a free path beside the lock.
func resetBeforeWrite(t *testing.T, c *client, scratch string) *writeReset {
	t.Helper()
	w := &writeReset{c: c, scratch: scratch, reply: make(chan error, 1)}
	c.wire.mu.Lock()
	for tc := range c.wire.conns {
		w.tc = tc
	}
	n := len(c.wire.conns)
	c.wire.mu.Unlock()
	if n != 1 {
		t.Fatalf("%d connections open, want 1", n)
	}
	w.created = c.wire.expectCreate2(scratch)
	w.created.mu.Lock()
	go func() {
		_, err := c.Conn().Create(scratch, nil, zk.FlagEphemeral, zk.WorldACL(zk.PermAll))
		w.reply <- err
	}()
	eventually(t, "the receive loop held in the scratch create's reply", 30*time.Second, recvLoopHeld)
	if got := c.net.Reset(); got != 1 {
		w.release()
		t.Fatalf("reset %d connections, want 1", got)
	}
	return w
}

// failedWrite waits until the send loop gave up on the reset connection
// (it closes the connection after a failed write) and returns the opcode
// of the request whose write failed: the last one it began to write.
func (w *writeReset) failedWrite(t *testing.T) zkwire.Op {
	t.Helper()
	eventually(t, "the send loop gave up on the reset connection", 30*time.Second, func() bool {
		w.c.wire.mu.Lock()
		defer w.c.wire.mu.Unlock()
		_, open := w.c.wire.conns[w.tc]
		return !open
	})
	w.tc.mu.Lock()
	defer w.tc.mu.Unlock()
	last, ok := w.tc.pending.newest()
	if !ok {
		t.Fatal("no request written on the reset connection")
	}
	return last.op
}

// release lets the receive loop go on: it reads the reset, and go-zookeeper
// reconnects.
func (w *writeReset) release() { w.created.mu.Unlock() }

// cleanup waits for the scratch create and deletes its node.
func (w *writeReset) cleanup(t *testing.T) {
	t.Helper()
	select {
	case err := <-w.reply:
		if err != nil && !transient(err) {
			t.Fatalf("scratch create: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("scratch create never returned")
	}
	if err := w.c.Conn().Delete(w.scratch, -1); err != nil && !errors.Is(err, zk.ErrNoNode) {
		t.Fatalf("delete scratch: %v", err)
	}
}

// recvLoopHeld reports whether a receive loop waits in created.set: the
// reply to the scratch create has been read and nothing after it will be.
func recvLoopHeld() bool {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "(*created).set(") && strings.Contains(g, "(*Conn).recvLoop(") {
			return true
		}
	}
	return false
}

// userWrite reports whether op is a request of the caller's, not the
// heartbeat's sync or go-zookeeper's ping, which may have come first.
func userWrite(op zkwire.Op) bool { return op != zkwire.OpSync && op != zkwire.OpPing }

// attempts bounds how often a test tries again when a heartbeat or a ping
// was the write that failed, leaving the caller's request to the next
// connection (the race is a few microseconds against 0.85 s).
const attempts = 5

// TestUnlockWriteResetDeletes: an Unlock whose delete cannot be written
// (the connection was reset) goes on deleting through the reconnect, as
// for any connection loss. go-zookeeper answers that delete with the raw
// "connection reset by peer"; taken for a final answer, Unlock returned it
// and left the node at the head of the queue until the session ended (code
// mutant raw-write-error-final).
func TestUnlockWriteResetDeletes(t *testing.T) { unlockThroughWriteReset(t, false) }

// TestUnlockWriteResetDeletesInBackground: the same Unlock whose context
// ends while it waits for the reconnect returns, and its delete goes on in
// the background until it lands ("an Unlock that cannot reach the server
// keeps deleting in the background"). The mutant started no background
// delete: it had returned the raw error before the context ended.
func TestUnlockWriteResetDeletesInBackground(t *testing.T) { unlockThroughWriteReset(t, true) }

func unlockThroughWriteReset(t *testing.T, background bool) {
	lock := lockPath(t)
	ctx := ctxFor(t, 2*time.Minute)
	a := admin(t)
	c := newClient(t, "c")
	m, _ := NewMutex(c.Session, lock)
	for i := 0; i < attempts; i++ {
		lease, err := m.Lock(ctx)
		if err != nil {
			t.Fatal(err)
		}
		w := resetBeforeWrite(t, c, lock+"-scratch")
		uctx, cancel := context.WithCancel(ctx)
		unlocked := make(chan error, 1)
		go func() { unlocked <- lease.Unlock(uctx) }()
		op := w.failedWrite(t)
		if background && userWrite(op) {
			// Cancel only once Unlock has had the failed write's answer:
			// it has returned, or it waits with a second delete queued for
			// the next connection, which the held receive loop delays.
			eventually(t, "Unlock returned or retrying", 30*time.Second, func() bool {
				return len(unlocked) > 0 || deleteQueued()
			})
			cancel()
		}
		w.release()
		err = <-unlocked
		cancel()
		w.cleanup(t)
		if !userWrite(op) {
			t.Logf("attempt %d: the %v went first; again", i+1, op)
			continue
		}
		if op != zkwire.OpDelete {
			t.Fatalf("the write that failed was a %v, want Unlock's delete", op)
		}
		switch {
		case background && !errors.Is(err, context.Canceled):
			t.Fatalf("Unlock cancelled after its delete's write failed: %v (connection reset: %v), want context.Canceled; nodes left: %v",
				err, errors.Is(err, syscall.ECONNRESET), nodes(t, a, lock))
		case !background && err != nil:
			t.Fatalf("Unlock after its delete's write failed: %v (connection reset: %v); nodes left: %v",
				err, errors.Is(err, syscall.ECONNRESET), nodes(t, a, lock))
		}
		eventually(t, "no node left", 30*time.Second, func() bool { return len(nodes(t, a, lock)) == 0 })
		return
	}
	t.Skipf("the heartbeat's write failed first in %d attempts", attempts)
}

// deleteQueued reports whether a goroutine waits in go-zookeeper's Delete
// for an answer: called once the first attempt's write failed (which
// readied that attempt, so it no longer waits), it is a retry.
func deleteQueued() bool {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	for _, g := range strings.Split(string(buf), "\n\n") {
		header, _, _ := strings.Cut(g, "\n")
		if strings.Contains(g, "(*Conn).Delete(") && strings.Contains(header, "[select") {
			return true
		}
	}
	return false
}

// TestLockSurvivesWriteReset: a Lock whose create cannot be written is a
// Lock through connection loss: it resolves the create by its uuid and is
// granted, with one node. The mutant returned "connection reset by peer".
func TestLockSurvivesWriteReset(t *testing.T) {
	lock := lockPath(t)
	ctx := ctxFor(t, 2*time.Minute)
	a := admin(t)
	c := newClient(t, "c")
	m, _ := NewMutex(c.Session, lock)
	first, err := m.Lock(ctx) // the lock path exists from here on
	if err != nil {
		t.Fatal(err)
	}
	first.Unlock(ctx)
	for i := 0; i < attempts; i++ {
		w := resetBeforeWrite(t, c, lock+"-scratch")
		p := lockAsync(ctx, m.Lock)
		op := w.failedWrite(t)
		w.release()
		lease, err := p.wait(t, time.Minute)
		w.cleanup(t)
		if !userWrite(op) {
			t.Logf("attempt %d: the %v went first; again", i+1, op)
			if err == nil {
				lease.Unlock(ctx)
			}
			continue
		}
		if op != zkwire.OpCreate2 {
			t.Fatalf("the write that failed was a %v, want Lock's create2", op)
		}
		if err != nil {
			t.Fatalf("Lock after its create's write failed: %v", err)
		}
		if got := nodes(t, a, lock); len(got) != 1 || got[0] != path.Base(lease.Node()) {
			t.Fatalf("nodes %v while holding, want exactly our %s", got, path.Base(lease.Node()))
		}
		if err := lease.Unlock(ctx); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Skipf("the heartbeat's write failed first in %d attempts", attempts)
}

// TestGuardWriteResetIsConnectionLoss: a Guard whose multi cannot be
// written returns connection loss, as every other request on the broken
// connection: an error matching zk.ErrConnectionClosed, where it returned
// go-zookeeper's raw "connection reset by peer", which matched nothing
// zklock documents. The lease holds on, and its next Guard writes.
func TestGuardWriteResetIsConnectionLoss(t *testing.T) {
	lock := lockPath(t)
	ctx := ctxFor(t, 2*time.Minute)
	c := newClient(t, "c")
	m, _ := NewMutex(c.Session, lock)
	lease, err := m.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer lease.Unlock(ctx)
	set := &zk.SetDataRequest{Path: lease.Node(), Data: []byte("guarded"), Version: -1}
	for i := 0; i < attempts; i++ {
		w := resetBeforeWrite(t, c, lock+"-scratch")
		guarded := make(chan error, 1)
		go func() { _, err := lease.Guard(ctx, set); guarded <- err }()
		op := w.failedWrite(t)
		w.release()
		err := <-guarded
		w.cleanup(t)
		if !userWrite(op) {
			t.Logf("attempt %d: the %v went first; again", i+1, op)
			continue
		}
		if op != zkwire.OpMulti {
			t.Fatalf("the write that failed was a %v, want Guard's multi", op)
		}
		if !errors.Is(err, zk.ErrConnectionClosed) || !errors.Is(err, syscall.ECONNRESET) {
			t.Fatalf("Guard after its multi's write failed: %v, want zk.ErrConnectionClosed (with the reset as its cause)", err)
		}
		if _, err := lease.Guard(ctx, set); err != nil {
			t.Fatalf("Guard after the reconnect: %v", err)
		}
		return
	}
	t.Skipf("the heartbeat's write failed first in %d attempts", attempts)
}

// TestBrokenWrite pins which errors are a broken connection: the socket
// errors go-zookeeper passes on from a failed write, through TLS too, and
// none of the errors that are answers or a caller's own deadline.
func TestBrokenWrite(t *testing.T) {
	op := func(err error) error { return &net.OpError{Op: "write", Net: "tcp", Err: err} }
	broken := []error{
		op(os.NewSyscallError("write", syscall.ECONNRESET)),
		op(os.NewSyscallError("write", syscall.EPIPE)),
		op(os.ErrDeadlineExceeded),
		op(net.ErrClosed),
		fmt.Errorf("tls: %w", op(os.NewSyscallError("write", syscall.ECONNRESET))),
		zk.ErrConnectionClosed,
	}
	for _, err := range broken {
		if !transient(err) {
			t.Errorf("transient(%v) = false, want true", err)
		}
	}
	answers := []error{
		nil, zk.ErrNoNode, zk.ErrNodeExists, zk.ErrBadVersion, zk.ErrNoAuth, zk.ErrSessionExpired,
		context.DeadlineExceeded, context.Canceled, errors.New("connection reset by peer"),
		syscall.ECONNRESET, // not from a connection
		op(os.NewSyscallError("write", syscall.ENOSPC)),
		ErrSessionLost, ErrClosed,
	}
	for _, err := range answers {
		if transient(err) {
			t.Errorf("transient(%v) = true, want false", err)
		}
	}
}
