package main

// The mutants of the held node's watch (impl/zklock/ownwatch.go;
// spec/tla/OwnWatch.tla).
func init() {
	mutants = append(mutants,
		mutant{
			Name: "no-own-node-watch",
			Why: "nothing watches a lock node once it is held (the code before OwnWatch): an operator who deletes the holder's node lets " +
				"the next waiter in while the old holder's Done stays open and Err nil (OwnWatch.NoOwnWatch)",
			File:    "impl/zklock/ownwatch.go",
			Find:    `	if !l.s.background(func(life context.Context) { l.keepOwnWatch(life, w, fired) }) {`,
			Replace: `	if _ = fired; true {`,
			Killers: []string{"TestOperatorDeleteEndsMutexLease", "TestOperatorDeleteEndsLeadership"},
		},
		mutant{
			Name: "node-gone-untraced",
			Why: "a lease that ends on its own-node watch traces no LearnNodeGone: a trace validator keeps the holder holding in " +
				"PredecessorLockForeign, and a trace that ends before its next request passes with the operator's delete unexplained",
			File:    "impl/zklock/ownwatch.go",
			Find:    `		l.traceNodeGone(node)`,
			Replace: `		_ = node`,
			Killers: []string{"TestOperatorDeleteEndsMutexLease", "TestOperatorDeleteEndsLeadership"},
		},
		mutant{
			Name: "maybe-applied-is-success",
			Why: "a Guard or Proclaim whose multi applied while the watch on our node reported its deletion returns nil: " +
				"a write through a stranger's node of the same name, at a matching version, is reported as ours (OwnWatch.UnwatchedGuard)",
			File:    "impl/zklock/ownwatch.go",
			Find:    `			return fmt.Errorf("%w: %w", ErrMaybeApplied, ended)`,
			Replace: `			return nil`,
			Killers: []string{"TestOperatorReplaceGuardMaybeApplied", "TestOperatorReplaceProclaimMaybeApplied"},
		},
	)
}
