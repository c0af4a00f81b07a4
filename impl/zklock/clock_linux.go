package zklock

import (
	"math"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// systemClock on Linux is CLOCK_BOOTTIME: CLOCK_MONOTONIC (Go's monotonic
// clock) plus the time the machine was suspended. If the kernel refuses
// clock_gettime(CLOCK_BOOTTIME) (older than 2.6.39, or a seccomp filter),
// the process falls back to time.Now's monotonic clock for good, which
// does not count a suspend; the choice is made once so that readings never
// mix the two clocks.
type systemClock struct{}

var bootTime = sync.OnceValue(func() bool {
	var ts unix.Timespec
	return unix.ClockGettime(unix.CLOCK_BOOTTIME, &ts) == nil
})

func (systemClock) now() time.Time {
	if !bootTime() {
		return time.Now()
	}
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_BOOTTIME, &ts) != nil {
		// It answered once; a clock id does not go away. If it did, a
		// reading past every deadline ends the session: nothing is
		// granted twice.
		return instant(math.MaxInt64)
	}
	return instant(ts.Nano())
}
