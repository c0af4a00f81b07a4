package zklock

import (
	"fmt"
	"strings"
	"time"
)

// Observer is told what a session and its locks do, for metrics: every
// field is optional, in the manner of net/http/httptrace.ClientTrace.
// zklock calls them after the fact, holding none of its own locks, on a
// goroutine the session owns: one call at a time, in the order of the
// events, never on the goroutine whose work they report (so a Lock may
// return before its Acquired call runs). A slow or blocking function
// delays only the calls after it: not the session's replies, its loss
// deadline, Done, or the calls of the API. A function may call Close;
// Close called elsewhere returns once every call queued before it has
// returned. Calls queue without bound while a function blocks, so it
// should still return soon (count, record, hand off). Give it with
// WithObserver; package otelzklock turns it into OpenTelemetry metrics.
type Observer struct {
	// Acquired is called when an acquisition returns: Lock, RLock,
	// TryLock, TryRLock, and each lock of a LockAll (not a call refused
	// before it queued: bad input, a session already ended).
	Acquired func(Acquisition)
	// LeaseEnded is called once when a granted lease ends: released
	// (Err is ErrReleased) or lost (Err matches ErrLockLost and the
	// reason).
	LeaseEnded func(LeaseEnd)
	// Session is called when the session is established, attached again
	// after a lost connection (a reconnect), or ends.
	Session func(SessionEvent)
}

// Acquisition is one acquisition's outcome.
type Acquisition struct {
	// Lock is the path as given to NewMutex, NewRWMutex, NewElection or
	// NewSemaphore. A semaphore's internal mutex is reported too, as the
	// lock P/locks: its own acquisitions and lease ends, beside the
	// semaphore's under P.
	Lock string
	Mode Mode // what was asked for
	Try  bool // TryLock or TryRLock
	// Ahead is the number of contenders ahead of ours at our first
	// listing (the queue's depth when we joined), -1 if we never listed.
	Ahead  int
	Waited time.Duration // from the call to its return
	// Err is nil when the lease was granted; else why not (ErrLocked for a
	// Try, the context's error, ErrLockLost, the session's error, ...).
	Err error
}

// LeaseEnd is the end of a granted lease.
type LeaseEnd struct {
	Lock string        // the same path as the lease's Acquisition
	Mode Mode          // the lease's mode when it ended (ModeRead after a Downgrade)
	Held time.Duration // from the grant to the end
	Err  error         // ErrReleased, or an error matching ErrLockLost
}

// SessionEventKind says what happened to a session.
type SessionEventKind uint8

const (
	// SessionEstablished: the server granted the session.
	SessionEstablished SessionEventKind = iota + 1
	// SessionReconnected: after a lost connection the session is attached
	// again (to the same or another server); leases held on.
	SessionReconnected
	// SessionEnded: the session ended for good (SessionEvent.Err says why:
	// ErrSessionExpired, ErrSessionLost or ErrClosed).
	SessionEnded
)

// String names the kind.
func (k SessionEventKind) String() string {
	switch k {
	case SessionEstablished:
		return "established"
	case SessionReconnected:
		return "reconnected"
	case SessionEnded:
		return "ended"
	}
	return fmt.Sprintf("SessionEventKind(%d)", uint8(k))
}

// SessionEvent is a change of a session's state.
type SessionEvent struct {
	Kind SessionEventKind
	ID   int64 // the session's id
	Err  error // SessionEnded: why
}

// WithObserver has the session report to o (see Observer).
func WithObserver(o Observer) SessionOption {
	return func(c *sessionConfig) error {
		c.observer = o
		return nil
	}
}

// observeAcquire, observeSession and observeEnd queue the Observer's
// calls (callbacks.go).

func (s *Session) observeAcquire(a Acquisition) {
	if f := s.cfg.observer.Acquired; f != nil {
		s.cbs.post(func() { f(a) })
	}
}

func (s *Session) observeSession(kind SessionEventKind, err error) {
	if f := s.cfg.observer.Session; f != nil {
		ev := SessionEvent{Kind: kind, ID: s.ID(), Err: err}
		s.cbs.post(func() { f(ev) })
	}
}

// observeEnd reports the end of l; called once, outside l.mu. A
// semaphore's lease ends under the semaphore's path, as its acquisition
// was reported (Semaphore.acquire), not under the P/leases folder its node
// is in: an observer pairs the two by that name (otelzklock's held gauge).
func (l *Lease) observeEnd(mode Mode, err error) {
	if f := l.s.cfg.observer.LeaseEnded; f != nil {
		name := l.core.name
		if l.sem != "" {
			name = strings.TrimSuffix(name, semLeases)
		}
		ev := LeaseEnd{Lock: name, Mode: mode, Held: time.Since(l.granted), Err: err}
		l.s.cbs.post(func() { f(ev) })
	}
}
