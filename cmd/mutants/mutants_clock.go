package main

// The loss clock's mutants (spec/tla/SessionClock.tla): which clock the
// deadline is counted on, and which negotiated timeout it counts.
func init() {
	mutants = append(mutants,
		mutant{
			Name: "monotonic-deadline",
			Why:  "count the loss deadline on time.Now's monotonic clock (Linux CLOCK_MONOTONIC, the code before the fix), which stops while the machine is suspended: a waiter listed first wakes from a suspend longer than its session and is granted a lock the leader has given to another (SessionClock.MonotonicSuspend)",
			File: "impl/zklock/clock.go",
			Find: `	if c := s.cfg.lossTimer; c != nil {
		return c.now()
	}
	return systemClock{}.now()`,
			Replace: `	return time.Now()`,
			Killers: []string{"TestSuspendBetweenListingAndGrantRefused", "TestSuspendEndsHeldLease"},
		},
		mutant{
			Name: "latest-timeout",
			Why:  "count the loss deadline from the timeout the latest reconnect negotiated (the code before the fix): a server with a larger minSessionTimeout lengthens it, but a new leader re-arms the session with the timeout createSession stored (SessionClock.LatestTimeout)",
			File: "impl/zklock/deadline.go",
			Find: `	if timeout < s.timeout {
		s.timeout = timeout
		changed, shorter = true, true
	}`,
			Replace: `	if timeout != s.timeout {
		changed, shorter = true, timeout < s.timeout
		s.timeout = timeout
	}`,
			Killers: []string{"TestLongerRenegotiatedTimeoutIsIgnored", "TestReconnectToLargerMinSessionTimeout"},
		},
	)
	// Two mutants of the list find lines that now read the loss clock
	// (they moved from session.go and from time.Now): the same bugs there.
	for i := range mutants {
		switch m := &mutants[i]; m.Name {
		case "reattach-not-counted":
			m.File = "impl/zklock/deadline.go"
			m.Find = `		s.clock.acked(sent, at, true)`
			m.Replace = `		s.clock.acked(sent, at, false)`
		case "sent-time-is-arrival":
			m.Find = `		c.w.obs.acked(req.sent, c.w.obs.lossNow(), req.op == zkwire.OpSync)`
			m.Replace = `		at := c.w.obs.lossNow()
		c.w.obs.acked(at, at, req.op == zkwire.OpSync)`
		}
	}
}
