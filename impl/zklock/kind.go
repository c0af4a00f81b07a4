package zklock

// Mode is what a lease holds, and what its lock node asks for: its String
// is "exclusive", "read" or "write".
type Mode uint8

// The modes of a lease.
const (
	ModeExclusive Mode = iota // Mutex
	ModeRead                  // RWMutex.RLock, or a write lease after Downgrade
	ModeWrite                 // RWMutex.Lock
)

// String is the mode's name, as trace events carry it.
func (k Mode) String() string {
	switch k {
	case ModeRead:
		return "read"
	case ModeWrite:
		return "write"
	default:
		return "exclusive"
	}
}

// marker is the part of the node name that tells other clients (Curator
// included) what the node asks for.
func (k Mode) marker() string {
	switch k {
	case ModeRead:
		return readMarker
	case ModeWrite:
		return writeMarker
	default:
		return mutexMarker
	}
}

// decide says whether the contender at position i of the queue holds and, if
// not, which node it must wait for. Exclusive and write contenders wait for
// their immediate predecessor; a reader waits for the last node ahead of it
// that is not a reader, so readers share and a release wakes only those
// whose turn it is.
func decide(q []child, i int, k Mode) (grant bool, wait child) {
	if k != ModeRead {
		if i == 0 {
			return true, child{}
		}
		return false, q[i-1]
	}
	for j := i - 1; j >= 0; j-- {
		if q[j].kind != ModeRead {
			return false, q[j]
		}
	}
	return true, child{}
}
