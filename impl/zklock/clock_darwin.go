package zklock

import (
	"math"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// systemClock on macOS (and iOS) is clock_gettime(CLOCK_MONOTONIC), which
// there counts the time the machine sleeps (mach_continuous_time); Go's
// own monotonic clock there does not (mach_absolute_time). If the call
// fails the process falls back to time.Now's monotonic clock for good.
type systemClock struct{}

var continuousTime = sync.OnceValue(func() bool {
	var ts unix.Timespec
	return unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts) == nil
})

func (systemClock) now() time.Time {
	if !continuousTime() {
		return time.Now()
	}
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts) != nil {
		// A reading past every deadline ends the session.
		return instant(math.MaxInt64)
	}
	return instant(ts.Nano())
}
