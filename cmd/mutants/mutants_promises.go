package main

// Promises stated in doc comments that no test guarded (issue 37): each
// mutant breaks one, and the test named for it is the only thing that
// notices.
func init() {
	mutants = append(mutants,
		mutant{
			Name: "acks-merge-proves-more",
			Why:  "the loss clock's bounded memory, instead of dropping an acknowledgement that arrived within a grain of the one kept before it, gives the kept one the dropped one's newer send time (a merge): a sync that proves the older arrival then proves a send time that remembering every acknowledgement would not (SessionTimingLoad's ProvesNoMore)",
			File: "impl/zklock/lossclock.go",
			Find: `	if n := len(c.acks); n > 0 && at.Sub(c.acks[n-1].at) < c.grain {
		return
	}`,
			Replace: `	if n := len(c.acks); n > 0 && at.Sub(c.acks[n-1].at) < c.grain {
		c.acks[n-1].sent = sent
		return
	}`,
			Killers: []string{"TestLossClockProvesNoMore"},
		},
		mutant{
			Name:    "woken-waiter-lists-joining",
			Why:     "a waiter woken by a watch lists in its session's joining line: its listing, on which its grant may depend, waits behind every waiter its session is still queuing (doc.go: a waiter woken by a watch lists before those still joining)",
			File:    "impl/zklock/join.go",
			Find:    "\t\t\tline = urgent\n",
			Replace: "\t\t\tline = joining\n",
			Killers: []string{"TestWokenWaiterListsBeforeJoins"},
		},
		mutant{
			Name:    "proclaim-keeps-check-version",
			Why:     "Proclaim does not carry its own write's version into the leadership: Check then returns a check at the version before the Proclaim, and a multi it heads fails with a bad version while we lead (Guard retries past it, which hides it)",
			File:    "impl/zklock/leadership.go",
			Find:    "\t\t\tl.version = st.Version // our own write: Guard and Check go on from it\n",
			Replace: "\t\t\t_ = st.Version\n",
			Killers: []string{"TestElectionCheckAfterProclaim"},
		},
		mutant{
			Name:    "leader-without-sync",
			Why:     "Election.Leader reads without syncing first: on a server that has not applied a change acknowledged before the call (a follower cut off from the leader), it reports a leader that has resigned",
			File:    "impl/zklock/election.go",
			Find:    "\tnames, _, err := l.syncList(ctx)\n",
			Replace: "\tnames, _, err := l.children(ctx, joining)\n",
			Killers: []string{"TestElectionLeaderSyncsFirst"},
		},
	)
}
