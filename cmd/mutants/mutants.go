package main

// A mutant is impl/zklock with one deliberate protocol bug. It exists only
// as an overlay handed to `go test -overlay`: the shipped code has no switch
// for it. Find must occur exactly once in File, so a refactor that moves the
// code makes the mutant fail loudly instead of silently testing nothing.
type mutant struct {
	Name    string
	Why     string // the bug, and who has shipped it
	File    string // relative to the repository root
	Find    string
	Replace string
	Killers []string // the tests expected to kill it
}

var mutants = []mutant{
	{
		Name: "skip-own-node-check",
		Why:  "after a wake-up, carry on as if our node were still queued (go-zookeeper's zk.Lock: double grant after expiry)",
		File: "impl/zklock/contender.go",
		Find: `		if me < 0 {
			c.traceList(traceevent.ResultMissing, "", q)`,
		Replace: `		if me < 0 {
			seq, _ := parseChild(c.name)
			me = 0
			for me < len(q) && q[me].seq < seq.seq {
				me++
			}
			q = append(q[:me], append([]child{seq}, q[me:]...)...)
		}
		if me < 0 {
			c.traceList(traceevent.ResultMissing, "", q)`,
		Killers: []string{"TestWaiterSessionExpires"},
	},
	{
		Name: "notification-is-grant",
		Why:  "take a watch notification as the grant, without listing the queue again",
		File: "impl/zklock/contender.go",
		Find: `		case <-fired:
			c.trace(TraceEvent{Action: traceevent.PredecessorGone, Target: wait.name})`,
		Replace: `		case <-fired:
			c.trace(TraceEvent{Action: traceevent.PredecessorGone, Target: wait.name})
			return c.grant(ctx)`,
		Killers: []string{"TestMutualExclusion", "TestCancelWhileWaiting"},
	},
	{
		Name: "watch-the-holder",
		Why:  "every waiter watches the lowest node instead of its predecessor: the herd effect",
		File: "impl/zklock/kind.go",
		Find: `		return false, q[i-1]
	}`,
		Replace: `		return false, q[0]
	}`,
		Killers: []string{"TestNoHerd"},
	},
	{
		Name: "blind-create-retry",
		Why:  "retry a create whose reply was lost without looking for the node it may have made",
		File: "impl/zklock/contender.go",
		Find: `			found, err := c.findOwnNode(ctx)
			if err != nil || found {
				return err
			}`,
		Replace: `			c.ambiguous = false`,
		Killers: []string{"TestCreateReplyLost"},
	},
	{
		Name: "lease-outlives-session",
		Why:  "a lease that does not end when its session is lost (no loss signal, like zk.Lock and Curator's mutex)",
		File: "impl/zklock/session.go",
		Find: `	for l := range leases {
		l.end(lockLost(cause))
	}`,
		Replace: `	_ = leases`,
		Killers: []string{"TestHolderSessionExpires"},
	},
	{
		Name: "reader-ignores-writers",
		Why:  "a reader holds whatever is ahead of it in the queue",
		File: "impl/zklock/kind.go",
		Find: `		if q[j].kind != ModeRead {
			return false, q[j]
		}`,
		Replace: `		_ = j`,
		Killers: []string{"TestRWWriterExclusion"},
	},
	{
		Name: "trust-follower-pings",
		Why:  "every acknowledged request restarts the loss clock, pings answered by a follower cut off from the leader included (the rule before SessionTiming.tla)",
		File: "impl/zklock/lossclock.go",
		Find: `	if sync {
		c.prove(sent.Add(-c.lag))
	}`,
		Replace: `	if sent.After(c.base) {
		c.base = sent
	}`,
		Killers: []string{"TestFollowerCutOffFromLeader", "TestLossClock"},
	},
	{
		Name: "grant-ignores-deadline",
		Why:  "the grant, a local step, trusts a listing made before a pause longer than the session (a stale token)",
		File: "impl/zklock/contender.go",
		Find: `	if err := s.checkDeadline(); err != nil {
		return nil, err
	}
	lease := newLease(c)`,
		Replace: `	lease := newLease(c)`,
		Killers: []string{"TestGrantChecksDeadlineSynchronously", "TestPauseBetweenListingAndGrant"},
	},
	{
		Name: "timer-not-rearmed",
		Why:  "a shorter timeout renegotiated on reconnect is stored, but the loss timer sleeps on towards the old deadline",
		File: "impl/zklock/session.go",
		Find: `		if shorter {
			select {
			case s.kick <- struct{}{}:
			default:
			}
		}`,
		Replace: `		_ = shorter`,
		Killers: []string{"TestRenegotiatedTimeoutRearmsTheTimer"},
	},
}
