package main

import (
	"flag"
	"fmt"
	"time"

	"github.com/zklock/zklock/cmd/chaos/internal/campaign"
	"github.com/zklock/zklock/cmd/chaos/internal/load"
)

// loadConfig is the --load flags before validation.
type loadConfig struct {
	on  bool
	cfg load.Config
}

// loadFlags defines the load campaign's flags on fs.
func loadFlags(fs *flag.FlagSet) *loadConfig {
	l := &loadConfig{}
	c := &l.cfg
	fs.BoolVar(&l.on, "load", false, "a load campaign instead: no faults, busy sessions and a queue of waiters; a lease or session lost, or an acquisition slower than --acquire-bound, fails it")
	fs.IntVar(&c.Sessions, "load-sessions", 2, "with --load: busy sessions, each holding --load-locks leases")
	fs.IntVar(&c.Workers, "load-workers", 8, "with --load: goroutines sending requests on each busy session (Guard writes and Exists reads on Conn())")
	fs.IntVar(&c.Rate, "load-rate", 0, "with --load: requests per second per busy session (0: flat out)")
	fs.IntVar(&c.GuardEvery, "load-guard-every", 16, "with --load: one request in this many is a Guard write under a held lease, the rest reads (0: reads only)")
	fs.IntVar(&c.LocksPerS, "load-locks", 4, "with --load: leases each busy session holds at once")
	fs.DurationVar(&c.Churn, "load-churn", 2*time.Second, "with --load: each lease is released and taken again this often, to time acquisitions under load (0: held throughout)")
	fs.StringVar(&c.Recipe, "load-recipe", load.RecipeLock, "with --load: what the queue's waiters take: lock (a Mutex), election (they campaign, proclaim once and resign, observed from every waiter session) or semaphore (a lease of --max)")
	fs.IntVar(&c.Waiters, "waiters", 2000, "with --load: waiters queued on one path behind a holder, then drained, round after round")
	fs.IntVar(&c.WaiterSessions, "waiter-sessions", 4, "with --load: sessions the waiters are spread over")
	fs.DurationVar(&c.AcquireBound, "acquire-bound", 5*time.Second, "with --load: an acquisition, or a wait between two grants of the queue, slower than this is a finding")
	fs.DurationVar(&c.SampleEvery, "sample-every", 10*time.Second, "with --load: period of the heap, goroutine and server-watch samples")
	return l
}

// finish validates a load campaign's command line and puts its config in
// c.Load. The campaign flags that would inject faults are refused: a load
// campaign judges a healthy ensemble.
func (l *loadConfig) finish(c *campaign.Config, set map[string]bool) error {
	for _, f := range []string{"faults", "fault-interval", "lock", "no-fence", "no-acl", "pin", "pin-followers", "idle-hold", "tls", "clients", "locks", "rw-ratio", "kill-cmd"} {
		if set[f] {
			return fmt.Errorf("--%s with --load: a load campaign injects no faults and runs zklock's own sessions (see --load-*)", f)
		}
	}
	if !set["session-timeout"] {
		c.SessionTimeout = 10 * time.Second // the setting that lost busy sessions before the fix, and the longest the local ensemble grants
	}
	switch {
	case c.Duration < 5*time.Second:
		return fmt.Errorf("--duration %v: at least 5s", c.Duration)
	case timingErr(c.SessionTimeout, c.SyncLimit, c.TickTime) != nil:
		return timingErr(c.SessionTimeout, c.SyncLimit, c.TickTime)
	}
	l.cfg.Duration, l.cfg.SessionTimeout = c.Duration, c.SessionTimeout
	l.cfg.TickTime, l.cfg.SyncLimit = c.TickTime, c.SyncLimit
	l.cfg.Max = c.Max // --max: a semaphore's leases (ignored by the other recipes)
	c.Faults = nil
	c.Load = &l.cfg
	return l.cfg.Validate()
}
