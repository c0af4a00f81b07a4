package main

// The election observer's delivery and its listings' line (issue 37).
func init() {
	mutants = append(mutants,
		mutant{
			Name: "observer-blocking-send",
			Why:  "an election observer blocks on sending each report until it is read (an unbuffered channel): a reader that comes back late reads a leader that resigned long ago, and the observer reads nothing newer meanwhile",
			File: "impl/zklock/observe.go",
			Find: `	select {
	case <-w.o.ch:
	default:
	}
	w.o.ch <- info
	w.markSent(info)`,
			Replace: `	for w.o.ch <- info; len(w.o.ch) > 0 && w.e.core.s.Err() == nil; {
		time.Sleep(time.Millisecond)
	}
	w.markSent(info)`,
			Also: []edit{{File: "impl/zklock/observe.go", Find: `	"sync"
`, Replace: `	"sync"
	"time"
`}},
			Killers: []string{"TestElectionObserverLateReaderGetsNewest"},
		},
		mutant{
			Name:    "observer-lists-joining",
			Why:     "an election observer's listings wait in its session's joining line: with no successor recorded, its report of the next leader waits behind every candidate its own session queued",
			File:    "impl/zklock/observe.go",
			Find:    `	names, pzxid, err := l.children(ctx, urgent)`,
			Replace: `	names, pzxid, err := l.children(ctx, joining)`,
			Killers: []string{"TestElectionObserverAheadOfJoins"},
		},
	)
}
