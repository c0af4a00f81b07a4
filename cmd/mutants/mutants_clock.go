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
			Find: `	if timeout < s.timeout {`,
			Replace: `	if timeout > s.timeout {
		s.timeout = timeout
		changed = true
	}
	if timeout < s.timeout {`,
			Killers: []string{"TestLongerRenegotiatedTimeoutIsIgnored", "TestReconnectToLargerMinSessionTimeout"},
		},
		mutant{
			Name: "shorter-timeout-silent",
			Why:  "take a shorter timeout from a reconnect without a word: the servers disagree on their bounds, and a reply held up past the shorter timeout finds the session expired while the client believed (SessionClock.ShorterReattach), which no client rule can prevent; only the operator can",
			File: "impl/zklock/deadline.go",
			Find: `		s.log.Warn("zklock: a reconnect negotiated a shorter session timeout; give every server the same minSessionTimeout and maxSessionTimeout",
			"session", fmt.Sprintf("0x%x", s.id), "was", s.timeout, "now", timeout)
`,
			Replace: ``,
			Killers: []string{"TestRenegotiatedTimeoutRetimesTheHeartbeat"},
		},
	)
	// Two mutants of the list find lines that now read the loss clock
	// (they moved from session.go and from time.Now): the same bugs there.
	for i := range mutants {
		switch m := &mutants[i]; m.Name {
		case "reattach-not-counted":
			m.File = "impl/zklock/deadline.go"
			m.Find = `		s.clock.recordAck(sent, at, true)`
			m.Replace = `		s.clock.recordAck(sent, at, false)`
		case "sent-time-is-arrival":
			m.Find = `		c.w.obs.replied(req.sent, c.w.obs.lossNow(), req.op == zkwire.OpSync)`
			m.Replace = `		at := c.w.obs.lossNow()
		c.w.obs.replied(at, at, req.op == zkwire.OpSync)`
		}
	}
}
