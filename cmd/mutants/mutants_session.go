package main

// The wire's pending requests (impl/zklock/pending.go): which request a
// reply answers.
func init() {
	mutants = append(mutants,
		mutant{
			Name:    "pending-reply-takes-newest",
			Why:     "match a reply to the newest request sent with its xid, not the oldest: pings share one xid, and a ping reply would carry the send time of a later ping, moving the loss deadline on a proof the leader never gave",
			File:    "impl/zklock/pending.go",
			Find:    `	req = same[0]`,
			Replace: `	req = same[len(same)-1]`,
			Killers: []string{"TestPendingRequestsSharedXid"},
		},
		mutant{
			Name:    "pending-reply-kept",
			Why:     "leave an answered request pending: a second reply with its xid (a hostile or confused server) is taken for a fresh acknowledgement of it, and the pending requests grow without bound",
			File:    "impl/zklock/pending.go",
			Find:    "\t\tdelete(q.byXid, xid)\n",
			Replace: "",
			Killers: []string{"TestPendingRequestsUnknownXid", "TestPendingRequestsInOrder"},
		},
	)
}
