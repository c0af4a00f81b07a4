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
		Killers: []string{"TestKazooInteropMutex", "TestKazooInteropRWMutex", "TestParseKazooNames", "TestKazooQueue"},
	})
}
