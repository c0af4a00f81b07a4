package zklock

import "time"

// lossTimer is the clock a session's loss deadline is counted on: every
// send and arrival time the loss rule keeps, the deadline, and the checks
// against it read it, and nothing else does (its instants compare only
// with each other).
//
// It must count the time the machine spends suspended (laptop sleep, a
// paused or migrated VM, a checkpoint restored): the servers' clocks run
// on meanwhile, and the leader may expire the session and grant its lock
// to another client. A clock that stops (Linux's CLOCK_MONOTONIC, which is
// Go's monotonic clock there) wakes showing almost no time passed, and a
// waiter listed first before the suspend would be granted a lock another
// client holds (spec/tla/SessionClock.tla, MonotonicSuspend). What each
// system gets is systemClock's doc. Tests inject their own (withLossTimer).
//
// Go's timers run on the monotonic clock, so the monitor's timer fires
// late after a suspend; the session still ends at once: a grant checks the
// loss clock itself (checkDeadline), and the first reply after waking,
// which arrives past the deadline, ends the session (replied).
type lossTimer interface {
	now() time.Time
}

// lossNow reads the session's loss clock.
func (s *Session) lossNow() time.Time {
	if c := s.cfg.lossTimer; c != nil {
		return c.now()
	}
	return systemClock{}.now()
}

// withLossTimer makes the session count its loss deadline on c: tests
// inject a clock that jumps, as a suspended machine's does on waking.
func withLossTimer(c lossTimer) SessionOption {
	return func(cfg *sessionConfig) error {
		cfg.lossTimer = c
		return nil
	}
}

// instant makes a loss-clock reading of a count of nanoseconds: a
// time.Time without a monotonic reading, so that Sub, Before and After
// compare the counts themselves.
func instant(ns int64) time.Time { return time.Unix(0, ns) }
