package zklock

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"
)

// A reconnect can come back with another negotiated timeout (the server's
// bounds changed, or the session moved to a server with other bounds). The
// tests cannot change a running ensemble's bounds, so they hand the session
// the connect reply of such a reconnect, as the wire would.

// beatOf is the period the session's heartbeat last read.
func beatOf(c *client) time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.beat
}

// TestRenegotiatedTimeoutRetimesTheHeartbeat: the heartbeat's period is a
// quarter of the room the timeout leaves, and it must follow a reconnect
// that negotiates a shorter timeout: syncs at the old period are too rare
// to prove anything before the shorter timeout's deadline (code mutant
// heartbeat-keeps-period). A later reconnect that negotiates the longer
// one again changes nothing: the session keeps the smallest timeout of its
// life (TestLongerRenegotiatedTimeoutIsIgnored).
func TestRenegotiatedTimeoutRetimesTheHeartbeat(t *testing.T) {
	var logged syncBuffer
	c := newClient(t, "c", WithLogger(slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{Level: slog.LevelWarn}))))
	c.mu.Lock()
	id, real, lag := c.id, c.timeout, c.cfg.syncLag()
	c.mu.Unlock()
	period := func(timeout time.Duration) time.Duration { return (timeout - timeout/5 - lag) / 4 }
	eventually(t, "the heartbeat started", 10*time.Second, func() bool { return beatOf(c) == period(real) })
	shorter := real - 3*time.Second
	if period(shorter) < minRoom/4 {
		t.Fatalf("test timing: %v leaves no room", shorter)
	}
	if strings.Contains(logged.String(), "shorter session timeout") {
		t.Fatalf("warned of a shorter timeout before any reconnect: %s", logged.String())
	}
	c.connectReplied(c.lossNow(), id, shorter)
	eventually(t, "the heartbeat read the renegotiated timeout", 10*time.Second, func() bool {
		return beatOf(c) == period(shorter)
	})
	// The servers disagree on their bounds: the operator is told.
	if !strings.Contains(logged.String(), "shorter session timeout") {
		t.Errorf("no warning of the shorter renegotiated timeout; logged: %q", logged.String())
	}
	if err := c.Err(); err != nil {
		t.Fatalf("session ended: %v", err)
	}
}

// TestLongerRenegotiatedTimeoutIsIgnored: a reconnect that negotiates a
// longer timeout than the session had (a server with a larger
// minSessionTimeout) leaves the loss deadline counted from the shorter
// one: a new leader re-arms the session with the timeout it was created
// with (spec/tla/SessionClock.tla, LatestTimeout; code mutant
// latest-timeout). TestReconnectToLargerMinSessionTimeout shows it with
// real servers.
func TestLongerRenegotiatedTimeoutIsIgnored(t *testing.T) {
	c := newClient(t, "c")
	c.mu.Lock()
	id, real := c.id, c.timeout
	c.mu.Unlock()
	at := c.lossNow()
	c.connectReplied(at, id, 3*real)
	if got := c.Timeout(); got != real {
		t.Fatalf("Timeout %v after a reconnect that negotiated %v, want the smaller %v", got, 3*real, real)
	}
	after, _ := c.deadline()
	if limit := at.Add(real - real/5); after.After(limit) {
		t.Fatalf("the loss deadline moved to %v after the reattach, past %v: it counts from the longer timeout",
			after.Sub(at), real-real/5)
	}
	if err := c.Err(); err != nil {
		t.Fatalf("session ended: %v", err)
	}
}

// TestRenegotiatedTimeoutWithoutRoomEndsSession: a reconnect whose timeout
// leaves less than minRoom after the drift margin and the sync lag ends
// the session at once, with the reason NewSession gives for such a timeout
// (ErrInvalidArgument) besides ErrSessionLost, and every lease with it
// (code mutant renegotiated-room-unchecked: the session lingered until its
// loss timer ran out, with no word of why).
func TestRenegotiatedTimeoutWithoutRoomEndsSession(t *testing.T) {
	ctx := ctxFor(t, time.Minute)
	c := newClient(t, "c")
	m, err := NewMutex(c.Session, lockPath(t))
	if err != nil {
		t.Fatal(err)
	}
	lease, err := m.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c.mu.Lock()
	id, lag := c.id, c.cfg.syncLag()
	c.mu.Unlock()
	c.connectReplied(c.lossNow(), id, lag) // no room at all
	select {
	case <-c.Done():
	case <-time.After(30 * time.Second):
		t.Fatal("the session outlived a renegotiated timeout that leaves no room")
	}
	if err := c.Err(); !errors.Is(err, ErrSessionLost) || !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("session ended with %v, want ErrSessionLost and ErrInvalidArgument", err)
	}
	select {
	case <-lease.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the lease outlived its session")
	}
	if err := lease.Err(); !errors.Is(err, ErrLockLost) || !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("lease ended with %v, want ErrLockLost with the session's reason", err)
	}
	if err := lease.Unlock(context.Background()); !errors.Is(err, ErrLockLost) {
		t.Fatalf("Unlock of the ended lease: %v, want ErrLockLost", err)
	}
}

// syncBuffer is a bytes.Buffer safe for the session's goroutines to log
// into while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (w *syncBuffer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *syncBuffer) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}
