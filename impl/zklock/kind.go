package zklock

import "fmt"

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

// MarshalText is String, so that a Mode reads as its name in JSON.
func (k Mode) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a Mode's name; any other text is ErrInvalidArgument.
func (k *Mode) UnmarshalText(b []byte) error {
	for _, m := range []Mode{ModeExclusive, ModeRead, ModeWrite} {
		if string(b) == m.String() {
			*k = m
			return nil
		}
	}
	return fmt.Errorf("%w: mode %q", ErrInvalidArgument, b)
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

// handOff says whether the deletion of the node decide chose to wait for
// is by itself our grant, so that the waiter need not list the queue again
// (GrantOnHeadGone in spec/tla): it is when that node is the only one
// ahead of ours that blocks us. Sequence numbers only grow, and the lock
// path cannot be deleted while our node is in it, so no node can appear
// ahead of ours later; once that one is gone nothing blocks us. Except
// that Downgrade puts a read node at the very place of the write node it
// deletes, in the same transaction: a waiter that read nodes block (a
// writer, or a Mutex on a path an RWMutex also uses) must list again when
// a write node goes. A reader is not blocked by read nodes, and a read
// node is never downgraded, so its deletion leaves nothing behind.
func handOff(q []child, i int, k Mode) bool {
	blockers, last := 0, child{}
	for _, ch := range q[:i] {
		if k != ModeRead || ch.kind != ModeRead {
			blockers, last = blockers+1, ch
		}
	}
	return blockers == 1 && (k == ModeRead || last.kind != ModeWrite)
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
