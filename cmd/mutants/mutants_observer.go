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
		mutant{
			Name:    "session-callback-inline",
			Why:     "an Observer's Session function runs on the goroutine of the event, as before the fix: on go-zookeeper's receive goroutine a blocked SessionReconnected holds back the check of a renegotiated timeout (Done closes late), and on the loss monitor a SessionEnded that calls Close waits for the monitor, which waits for it",
			File:    "impl/zklock/observer.go",
			Find:    "\t\ts.cbs.post(func() { f(ev) })",
			Replace: "\t\tf(ev)",
			Killers: []string{"TestSlowCallbackDoesNotDelayDone", "TestCloseFromEveryCallback"},
		},
		mutant{
			Name: "callbacks-concurrent",
			Why:  "each Observer call runs on a goroutine of its own: calls overlap and run out of order (a Reconnected counted after the Ended that followed it), and Close no longer waits for them",
			File: "impl/zklock/callbacks.go",
			Find: `	c.queue = append(c.queue, fn)
	if c.running {
		c.mu.Unlock()
		return
	}
	c.running, c.runner = true, 0
	c.drained = make(chan struct{})
	c.mu.Unlock()
	go c.run()
`,
			Replace: `	c.mu.Unlock()
	go fn()
`,
			Killers: []string{"TestCallbacksInOrderOneAtATime"},
		},
	)
}
