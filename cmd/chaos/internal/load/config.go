// Package load is the chaos command's load campaign (--load): no fault is
// injected, and the campaign judges availability instead of safety. Busy
// sessions each hold several leases and send as many requests as they can
// (Guard writes under their leases and reads of their own on Conn()), while
// waiter sessions queue thousands of waiters behind one holder on one path
// and drain them. On a healthy ensemble a lease lost, a session declared
// lost or an acquisition slower than the stated bound is a finding: the
// verdict fails on it. Memory, goroutines and the servers' watches are
// sampled from start to end, so that a long run shows whether they stay
// flat.
package load

import (
	"fmt"
	"time"
)

// Config is what a load campaign does; durations are Go duration strings in
// report.json.
type Config struct {
	Duration       time.Duration // how long the busy sessions run (the last queue round is let finish)
	Sessions       int           // busy sessions
	Workers        int           // goroutines sending requests on each busy session
	Rate           int           // requests per second per busy session; 0: flat out
	GuardEvery     int           // one request in GuardEvery is a Guard write (0: reads only)
	LocksPerS      int           // leases each busy session holds at once
	Churn          time.Duration // a lease is released and taken again about this often (0: held throughout)
	Recipe         string        // what the waiters take: RecipeLock (also ""), RecipeElection or RecipeSemaphore
	Max            int           // RecipeSemaphore: its leases
	Waiters        int           // waiters queued on the one queue path per round
	WaiterSessions int           // sessions the waiters are spread over
	AcquireBound   time.Duration // an acquisition (or a hand-off in the queue) slower than this is a finding
	SampleEvery    time.Duration // period of the memory, goroutine and watch samples
	SessionTimeout time.Duration
	TickTime       time.Duration
	SyncLimit      int
}

// Validate rejects values out of range.
func (c *Config) Validate() error {
	if c.Recipe == "" {
		c.Recipe = RecipeLock
	}
	switch {
	case c.Sessions < 1 || c.Sessions > 64:
		return fmt.Errorf("--load-sessions %d: between 1 and 64", c.Sessions)
	case c.Workers < 1 || c.Workers > 256:
		return fmt.Errorf("--load-workers %d: between 1 and 256", c.Workers)
	case c.Rate < 0:
		return fmt.Errorf("--load-rate %d: must not be negative (0: flat out)", c.Rate)
	case c.GuardEvery < 0:
		return fmt.Errorf("--load-guard-every %d: must not be negative (0: reads only)", c.GuardEvery)
	case c.LocksPerS < 1 || c.LocksPerS > 64:
		return fmt.Errorf("--load-locks %d: between 1 and 64", c.LocksPerS)
	case c.Churn < 0:
		return fmt.Errorf("--load-churn %v: must not be negative", c.Churn)
	case c.Recipe != RecipeLock && c.Recipe != RecipeElection && c.Recipe != RecipeSemaphore:
		return fmt.Errorf("--load-recipe %q: lock, election or semaphore", c.Recipe)
	case c.Recipe == RecipeSemaphore && (c.Max < 1 || c.Max > 64):
		return fmt.Errorf("--max %d with --load-recipe semaphore: between 1 and 64", c.Max)
	case c.Waiters < 0 || c.Waiters > 100_000:
		return fmt.Errorf("--waiters %d: between 0 and 100000", c.Waiters)
	case c.Waiters > 0 && (c.WaiterSessions < 1 || c.WaiterSessions > 64):
		return fmt.Errorf("--waiter-sessions %d: between 1 and 64", c.WaiterSessions)
	case c.AcquireBound <= 0:
		return fmt.Errorf("--acquire-bound %v: must be positive", c.AcquireBound)
	case c.SampleEvery < 100*time.Millisecond:
		return fmt.Errorf("--sample-every %v: at least 100ms", c.SampleEvery)
	}
	return nil
}
