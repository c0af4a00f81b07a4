package zklock

import (
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zklock/zklock/traceevent"
)

// fixedClock is a loss clock that always reads the same instant.
type fixedClock time.Time

func (c fixedClock) now() time.Time { return time.Time(c) }

// jumpClock is the system's loss clock plus an offset the test moves: a
// suspended machine's CLOCK_BOOTTIME jumps so on waking, while its
// monotonic clock, its timers and the servers notice nothing.
type jumpClock struct{ off atomic.Int64 }

func (c *jumpClock) now() time.Time { return systemClock{}.now().Add(time.Duration(c.off.Load())) }

func (c *jumpClock) jump(d time.Duration) { c.off.Add(int64(d)) }

// TestSuspendBetweenListingAndGrantRefused: a waiter whose listing showed
// it first, suspended for twice its session timeout before the grant (the
// clock jumps inside the listing's trace event), is refused: the grant
// checks the loss clock, which counted the suspend, and finds the deadline
// passed (spec/tla/SessionClock.tla, MonotonicSuspend; code mutant
// monotonic-deadline: on time.Now's monotonic clock the suspend is not
// seen and the waiter is granted).
func TestSuspendBetweenListingAndGrantRefused(t *testing.T) {
	clk := &jumpClock{}
	var me atomic.Pointer[client]
	var jumped atomic.Bool
	hook := func(ev TraceEvent) {
		c := me.Load()
		if c == nil {
			return
		}
		if ev.Action == traceevent.ListChildren && ev.Result == traceevent.ResultGrant && jumped.CompareAndSwap(false, true) {
			clk.jump(2 * c.Timeout())
		}
		c.trace.add(ev)
	}
	c := newClient(t, "suspended", WithTracer(hook), withLossTimer(clk))
	me.Store(c)
	m, err := NewMutex(c.Session, lockPath(t))
	if err != nil {
		t.Fatal(err)
	}
	lease, err := m.Lock(ctxFor(t, time.Minute))
	if err == nil {
		t.Fatalf("granted token %d after a suspend of twice the session timeout", lease.Token())
	}
	if !jumped.Load() {
		t.Fatalf("no listing showed the client first: %v", err)
	}
	if !errors.Is(err, ErrSessionLost) {
		t.Fatalf("Lock after the suspend: %v, want ErrSessionLost", err)
	}
}

// TestSuspendEndsHeldLease: a lease held across a suspend of twice the
// session timeout ends (its Done closes, ErrLockLost) without any call on
// it: the first reply after waking arrives past the loss deadline (code
// mutant monotonic-deadline: the lease lives on).
func TestSuspendEndsHeldLease(t *testing.T) {
	clk := &jumpClock{}
	c := newClient(t, "suspended", withLossTimer(clk))
	m, err := NewMutex(c.Session, lockPath(t))
	if err != nil {
		t.Fatal(err)
	}
	lease, err := m.Lock(ctxFor(t, time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	clk.jump(2 * c.Timeout())
	select {
	case <-lease.Done():
	case <-time.After(30 * time.Second):
		t.Fatal("a lease held across a suspend of twice the session timeout lives on")
	}
	if err := lease.Err(); !errors.Is(err, ErrLockLost) || !errors.Is(err, ErrSessionLost) {
		t.Fatalf("lease ended with %v, want ErrLockLost for ErrSessionLost", err)
	}
}
