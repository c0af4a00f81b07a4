package trace

import "fmt"

// A semaphore's path (its leases' events) is replayed by TLC in
// spec/tla/SemaphoreTrace.tla, which extends Semaphore.tla as
// PredecessorLockTrace extends PredecessorLock; its events are rendered as
// a lock's (tlaEvent: the request numbering, need, learns, the lease
// nodes named by request). Registered here, beside the locks' entries.
func init() { TLATraceSpecs["Semaphore"] = "SemaphoreTrace" }

// tlaSpecConstants returns what a trace module of lt's spec defines beyond
// the locks' constants, and the lines of its configuration that bind it:
// for a semaphore, MaxLeases, the max its listings carry (the one Validate
// replays it with).
func (lt *lockTrace) tlaSpecConstants() (def, cfg string) {
	if lt.spec != "Semaphore" {
		return "", ""
	}
	return fmt.Sprintf("TraceMaxLeases == %d\n", lt.maxLeases), "    LogMaxLeases <- TraceMaxLeases\n"
}
