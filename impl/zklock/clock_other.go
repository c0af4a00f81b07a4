//go:build !linux && !darwin

package zklock

import "time"

// systemClock on systems other than Linux and macOS is time.Now's
// monotonic clock. Whether it counts the time the machine is suspended
// depends on the system and Go's runtime there; zklock does not promise
// that a suspend longer than the loss deadline's room ends the session
// before a grant on these systems.
type systemClock struct{}

func (systemClock) now() time.Time { return time.Now() }
