package workload

import "sync"

// gate freezes a client in-process, the way a long GC pause or SIGSTOP
// freezes a real application: every goroutine of the application (the
// workload and its Lease.Done watchers) passes the gate before it acts or
// observes anything, and blocks there while the gate is frozen. zklock's own
// goroutines are not frozen; the injector blackholes the client's proxies
// for the same span, so that the session falls silent as a frozen process's
// would.
type gate struct {
	mu     sync.Mutex
	frozen chan struct{} // nil while open; closed by thaw
}

// freeze closes the gate; it reports false if it was already frozen.
func (g *gate) freeze() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.frozen != nil {
		return false
	}
	g.frozen = make(chan struct{})
	return true
}

// thaw opens the gate and lets everything blocked at it go on.
func (g *gate) thaw() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.frozen != nil {
		close(g.frozen)
		g.frozen = nil
	}
}

// pass returns at once while the gate is open, else when it is thawed. It
// does not take a context: the injector always thaws what it froze, and a
// frozen process cannot notice being asked to stop either.
func (g *gate) pass() {
	g.mu.Lock()
	ch := g.frozen
	g.mu.Unlock()
	if ch != nil {
		<-ch
	}
}
