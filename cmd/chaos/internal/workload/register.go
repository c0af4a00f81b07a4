package workload

import (
	"sync"

	"github.com/zklock/zklock/cmd/chaos/internal/monitor"
)

// memRegister is the in-process fenced resource a critical section writes to
// beside ZooKeeper: it accepts a write only with a token at least the highest
// it has accepted, unless fencing is off (--no-fence), when it accepts
// everything, as a resource that knows nothing of tokens would.
type memRegister struct {
	name   string // register name in the history, "mem:<lock path>"
	fenced bool
	mon    *monitor.Monitor

	mu      sync.Mutex
	value   string
	highest int64
}

// write applies a write of value with token and reports whether it was
// accepted. An unfenced register that accepts a token below the highest it
// accepted before has just let a stale write through: the monitor counts it.
func (r *memRegister) write(client string, token int64, value string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if token < r.highest {
		if r.fenced {
			return false
		}
		r.mon.Violation("%s accepted %s's stale write (token %d < %d)", r.name, client, token, r.highest)
	}
	r.highest = max(r.highest, token)
	r.value = value
	return true
}

func (r *memRegister) read() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.value
}
