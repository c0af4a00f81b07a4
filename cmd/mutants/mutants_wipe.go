package main

// The mutants of a wiped or restored ensemble (impl/zklock/rewind.go,
// spec/tla/Rewind.tla). Appended to the list in their own file so that
// they stay out of the way of the shared one; the order of the list is
// only the order they run and print in.
func init() {
	mutants = append(mutants,
		mutant{
			Name: "wait-for-loss-on-rewind",
			Why: "a refused handshake on a wiped ensemble is retried until the loss deadline, the holder believing all the while " +
				"(go-zookeeper's default; Rewind.WaitForDeadline)",
			File:    "impl/zklock/rewind.go",
			Find:    `		if a.st.leads && a.st.zxid < seen {`,
			Replace: `		if a.st.leads && a.st.zxid < seen && refusedBy == "" {`,
			Killers: []string{"TestWipeEndsLeaseAtOnce"},
		},
		mutant{
			Name:    "silent-lower-token",
			Why:     "a grant whose token is not above one this process handed out before is not said (Rewind.SilentLowerToken)",
			File:    "impl/zklock/rewind.go",
			Find:    `	if token <= before {`,
			Replace: `	if token <= before && before < 0 {`,
			Killers: []string{"TestWipeEndsLeaseAtOnce", "TestNoteTokenOrder"},
		},
		mutant{
			Name: "lower-than-any-token",
			Why: "a grant's token compared with every token handed out before, whenever the acquisition began: " +
				"a reader or a semaphore lease granted after a newer node's grant is said to have gone back",
			File:    "impl/zklock/rewind.go",
			Find:    `	case !h.topAt.IsZero() && h.topAt.Before(begun):`,
			Replace: `	case !h.topAt.IsZero():`,
			Killers: []string{"TestNoteTokenOrder"},
		},
	)
}
