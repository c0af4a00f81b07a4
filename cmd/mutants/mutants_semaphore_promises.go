package main

// The semaphore's promises that only their own tests guard: an acquirer
// deletes a duplicate lease node of its own, and TryAcquire never queues
// on the internal mutex. Appended to mutants after its literal is built
// (package-level variables are initialised before any init function).
func init() {
	mutants = append(mutants,
		mutant{
			Name:    "semaphore-keeps-own-duplicate",
			Why:     "never delete a duplicate lease node of our own (a lost create made again): it counts against max until the session ends",
			File:    "impl/zklock/semaphore.go",
			Find:    `		m.dropDuplicates(c, r.names)`,
			Replace: `		_ = m.dropDuplicates`,
			Killers: []string{"TestSemaphoreDropsOwnDuplicate"},
		},
		mutant{
			Name:    "semaphore-try-waits-internal",
			Why:     "TryAcquire queues on the internal mutex like Acquire: it blocks behind an acquirer that waits at max instead of saying ErrLocked",
			File:    "impl/zklock/semaphore.go",
			Find:    `	internal, err := m.locks.acquire(ctx, ModeExclusive, try)`,
			Replace: `	internal, err := m.locks.acquire(ctx, ModeExclusive, false)`,
			Killers: []string{"TestSemaphoreTryAcquireSkipsInternalWait"},
		},
	)
}

// A semaphore's lease end reported under the folder its node is in.
func init() {
	mutants = append(mutants, mutant{
		Name:    "semaphore-lease-ends-under-leases",
		Why:     "report a semaphore lease's end under P/leases, the folder of its node, while its acquisition is reported under P: a held gauge by lock only rises for P and only falls for P/leases",
		File:    "impl/zklock/observer.go",
		Find:    `			name = strings.TrimSuffix(name, semLeases)`,
		Replace: `			name = strings.TrimSuffix(name, "")`,
		Killers: []string{"TestObserverSemaphoreLeaseName"},
	})
}
