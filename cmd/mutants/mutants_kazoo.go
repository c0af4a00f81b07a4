package main

// Mutants of the parsing of kazoo's (the Python client's) lock node names.
func init() {
	mutants = append(mutants, mutant{
		Name: "ignore-kazoo-nodes",
		Why:  "count only Curator's node names: a kazoo Lock, ReadLock or WriteLock on the same path is a stranger, and zklock is granted beside its holder (issue 35)",
		File: "impl/zklock/path.go",
		Find: `	case strings.HasSuffix(head, kazooReadMarker):
		c.kind = ModeRead
	case strings.HasSuffix(head, kazooLockMarker):
		c.kind = ModeExclusive
`,
		Replace: ``,
		Killers: []string{"TestKazooInteropMutex", "TestKazooInteropRWMutex", "TestParseKazooNames", "TestKazooQueue", "TestKazooNamedStrangers"},
	})
}

// Mutants of the promises issue 35 made exact: which children of a
// semaphore's and an election's path count, and that acquirers of every
// max take turns on a semaphore's internal mutex.
func init() {
	mutants = append(mutants,
		mutant{
			Name: "semaphore-internal-lock-per-max",
			Why:  "acquirers take an internal mutex of their own max (P/locks/<max>): one with room under its max holds while an acquirer of a smaller max waits for a lease, which the doc says it does not",
			File: "impl/zklock/semaphore.go",
			Find: `	internal, err := m.locks.acquire(ctx, ModeExclusive, try)`,
			Replace: `	own := *m.locks
	own.path += "/" + fmt.Sprint(m.max)
	internal, err := own.acquire(ctx, ModeExclusive, try)`,
			Killers: []string{"TestSemaphoreTurnsAcrossMaxes"},
		},
		mutant{
			Name:    "lease-needs-protected-prefix",
			Why:     "a lease node is only one named _c_<uuid>-lease-<seq>: a hand-made lease-0000000000 still counts toward max but Holders leaves it out",
			File:    "impl/zklock/path.go",
			Find:    `	case set == leaseNodes && (head == leaseMarker[1:] || strings.HasSuffix(head, leaseMarker)):`,
			Replace: `	case set == leaseNodes && strings.HasPrefix(name, protectedPrefix) && strings.HasSuffix(head, leaseMarker):`,
			Killers: []string{"TestSemaphoreHandMadeLease"},
		},
		mutant{
			Name:    "latch-needs-protected-prefix",
			Why:     "an election candidate is only a node named _c_<uuid>-latch-<seq>: a hand-made mylatch-0000000000, which Curator's LeaderLatch sorts among the candidates, is ignored and a zklock candidate leads beside it",
			File:    "impl/zklock/path.go",
			Find:    `	case set == leaseNodes, latch != strings.HasSuffix(head, latchMarker[1:]):`,
			Replace: `	case set == leaseNodes, latch != strings.HasSuffix(head, latchMarker[1:]), latch && !strings.HasPrefix(name, protectedPrefix):`,
			Killers: []string{"TestElectionHandMadeCandidate"},
		},
	)
}
