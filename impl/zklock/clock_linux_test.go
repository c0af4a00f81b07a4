package zklock

import (
	"fmt"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// monotonicNs reads CLOCK_MONOTONIC, the clock Go's timers and time.Now's
// monotonic reading run on: it stops while the machine is suspended.
func monotonicNs(t *testing.T) int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts); err != nil {
		t.Fatalf("clock_gettime(CLOCK_MONOTONIC): %v", err)
	}
	return ts.Nano()
}

// countsAtLeastMonotonic says why read is not a clock that runs at least
// as fast as CLOCK_MONOTONIC and never behind it, or nil: read twice
// around two monotonic readings across a short sleep, it must advance at
// least as far as they did, and read no earlier than they do (CLOCK_BOOTTIME
// is CLOCK_MONOTONIC plus the time suspended).
func countsAtLeastMonotonic(t *testing.T, read func() time.Time) error {
	b1 := read()
	m1 := monotonicNs(t)
	time.Sleep(20 * time.Millisecond)
	m2 := monotonicNs(t)
	b2 := read()
	if d, m := b2.Sub(b1), time.Duration(m2-m1); d < m {
		return fmt.Errorf("advanced %v while CLOCK_MONOTONIC advanced %v", d, m)
	}
	if b := b2.UnixNano(); b < m2 {
		return fmt.Errorf("reads %d ns, behind CLOCK_MONOTONIC's %d ns", b, m2)
	}
	return nil
}

// TestSystemClockCountsSuspend: on Linux the loss clock is CLOCK_BOOTTIME,
// which runs at least as fast as CLOCK_MONOTONIC and is never behind it. A
// machine is not suspended in a test, so the check's positive controls
// are clocks that fail it: one that loses time between readings, as a
// suspend makes CLOCK_MONOTONIC lose it, and one an hour behind
// CLOCK_MONOTONIC.
func TestSystemClockCountsSuspend(t *testing.T) {
	if !bootTime() {
		t.Skip("the kernel refuses CLOCK_BOOTTIME: systemClock is time.Now's monotonic clock")
	}
	if err := countsAtLeastMonotonic(t, systemClock{}.now); err != nil {
		t.Fatalf("systemClock: %v", err)
	}
	var lost time.Duration
	stopping := func() time.Time {
		lost += 10 * time.Millisecond
		return systemClock{}.now().Add(-lost)
	}
	if err := countsAtLeastMonotonic(t, stopping); err == nil {
		t.Fatal("the check accepted a clock that loses time between readings")
	}
	behind := func() time.Time { return instant(monotonicNs(t) - int64(time.Hour)) }
	if err := countsAtLeastMonotonic(t, behind); err == nil {
		t.Fatal("the check accepted a clock behind CLOCK_MONOTONIC")
	}
}
