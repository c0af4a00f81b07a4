package zklock

// lockKind is what a lock node asks for.
type lockKind int

const (
	kindExclusive lockKind = iota // Mutex
	kindRead                      // RWMutex.RLock
	kindWrite                     // RWMutex.Lock
)

func (k lockKind) String() string {
	switch k {
	case kindRead:
		return "read"
	case kindWrite:
		return "write"
	default:
		return "exclusive"
	}
}

// marker is the part of the node name that tells other clients (Curator
// included) what the node asks for.
func (k lockKind) marker() string {
	switch k {
	case kindRead:
		return readMarker
	case kindWrite:
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
func decide(q []child, i int, k lockKind) (grant bool, wait child) {
	if k != kindRead {
		if i == 0 {
			return true, child{}
		}
		return false, q[i-1]
	}
	for j := i - 1; j >= 0; j-- {
		if q[j].kind != kindRead {
			return false, q[j]
		}
	}
	return true, child{}
}
