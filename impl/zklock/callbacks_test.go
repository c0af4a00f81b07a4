package zklock

import (
	"bytes"
	"errors"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zklock/zklock/ensemble/ensembletest"
	"github.com/zklock/zklock/faultinject"
)

// TestSlowCallbackDoesNotDelayDone: an Observer's Session function that
// blocks on a reconnect does not hold up the session's own work. Two
// connect replies come on one goroutine, as go-zookeeper's receive
// goroutine reads them: a reconnect, whose SessionReconnected call blocks
// until the test releases it, then one whose renegotiated timeout leaves
// no room, which ends the session at once. Done must close while the
// function still blocks. When the function ran on the receive goroutine,
// before the room was checked, the session lived on until it returned.
func TestSlowCallbackDoesNotDelayDone(t *testing.T) {
	release := make(chan struct{})
	blocked := make(chan struct{}, 1)
	c := newClient(t, "c", WithObserver(Observer{Session: func(e SessionEvent) {
		if e.Kind == SessionReconnected {
			blocked <- struct{}{}
			<-release
		}
	}}))
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()
	c.mu.Lock()
	id, timeout, lag := c.id, c.timeout, c.cfg.syncLag()
	c.mu.Unlock()
	replies := make(chan struct{})
	go func() {
		defer close(replies)
		c.connectReplied(time.Now(), id, timeout) // a reconnect: same timeout
		c.connectReplied(time.Now(), id, lag)     // no room at all
	}()
	select {
	case <-blocked:
	case <-time.After(30 * time.Second):
		t.Fatal("SessionReconnected was not called within 30s")
	}
	select {
	case <-c.Done():
	case <-time.After(15 * time.Second):
		t.Fatal("Done still open 15s after a reconnect whose timeout leaves no room: it waited for the blocked SessionReconnected function")
	}
	select {
	case <-blocked:
		t.Fatal("SessionReconnected called twice")
	default:
	}
	if err := c.Err(); !errors.Is(err, ErrSessionLost) || !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("session ended with %v, want ErrSessionLost and ErrInvalidArgument", err)
	}
	close(release)
	select {
	case <-replies:
	case <-time.After(30 * time.Second):
		t.Fatal("the connect replies were not handled within 30s")
	}
}

// closingObserver calls Close from the Observer function of one event
// (which), once, and hands Close's result to closed. The function waits
// for the session on s: NewSession returns it, as a program would keep it.
type closingObserver struct {
	which  string
	s      chan *Session
	sess   atomic.Pointer[Session]
	fired  atomic.Bool
	closed chan error
}

func (o *closingObserver) call(what string) {
	if what != o.which || o.fired.Swap(true) {
		return
	}
	s := o.sess.Load()
	if s == nil {
		s = <-o.s
		o.sess.Store(s)
	}
	o.closed <- s.Close()
}

func (o *closingObserver) observer() Observer {
	kinds := map[SessionEventKind]string{SessionEstablished: "established", SessionReconnected: "reconnected", SessionEnded: "ended"}
	return Observer{
		Acquired:   func(Acquisition) { o.call("acquired") },
		LeaseEnded: func(LeaseEnd) { o.call("lease-ended") },
		Session:    func(e SessionEvent) { o.call(kinds[e.Kind]) },
	}
}

// TestCloseFromEveryCallback: Close called from each Observer function
// returns, and once that function has returned, every goroutine of the
// session is gone. When each function ran on the goroutine doing the
// work, Close from Acquired or LeaseEnded (inside the Lock or Unlock,
// which Close waits for) or from SessionEnded (on the loss monitor, which
// Close waits for) never returned.
func TestCloseFromEveryCallback(t *testing.T) {
	for _, which := range []string{"established", "reconnected", "ended", "acquired", "lease-ended"} {
		t.Run(which, func(t *testing.T) {
			skipTraceCheck(t, "a session closed from inside its own Observer: the test checks Close's return and the goroutines")
			before := runtime.NumGoroutine()
			closeFromCallback(t, which)
			goroutinesSettle(t, before, "Close called from the "+which+" Observer function")
		})
	}
}

// closeFromCallback makes a session whose which function calls Close,
// makes that event happen, and waits for that Close to return.
func closeFromCallback(t *testing.T, which string) {
	t.Helper()
	set, err := faultinject.NewSet(ensembletest.Require(t))
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	ctx := ctxFor(t, time.Minute)
	o := &closingObserver{which: which, s: make(chan *Session, 1), closed: make(chan error, 1)}
	var logs lockedBuffer
	s, err := NewSession(ctx, set.Addrs(), WithSessionTimeout(shortTimeout), timing(), WithObserver(o.observer()),
		WithLogger(slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn}))))
	if err != nil {
		t.Fatal(err)
	}
	o.s <- s
	defer s.Close()
	switch which {
	case "reconnected":
		set.Sever()
	case "ended":
		set.BlackholeUntilHealed() // the loss deadline passes: the monitor ends the session
	case "acquired":
		m, _ := NewMutex(s, lockPath(t))
		lockAsync(ctx, m.Lock)
	case "lease-ended":
		m, _ := NewMutex(s, lockPath(t))
		lease, err := m.Lock(ctx)
		if err != nil {
			t.Fatal(err)
		}
		go lease.Unlock(ctx)
	}
	select {
	case err := <-o.closed:
		if err != nil {
			t.Fatalf("Close from the %s function = %v, want nil", which, err)
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("Close called from the %s function did not return within 30s", which)
	}
	if err := s.Err(); !errors.Is(err, ErrClosed) && which != "ended" {
		t.Fatalf("session ended with %v, want ErrClosed", err)
	}
	// On go-zookeeper's receive goroutine, Close gave up waiting for the
	// connection to stop and left its goroutine behind.
	if l := logs.String(); strings.Contains(l, "abandoned") {
		t.Fatalf("Close from the %s function abandoned go-zookeeper's connection:\n%s", which, l)
	}
}

// lockedBuffer is a bytes.Buffer for a logger that writes from many
// goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
