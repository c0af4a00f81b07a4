// Package sharedlock is the Go mirror of spec/tla/SharedLock.tla, the
// read/write ZooKeeper lock of impl/zklock's RWMutex (readers share,
// writers exclude, a writer may downgrade), and of its three mutants
// (SharedLockDowngradeReleaseAcquire, SharedLockReaderWatchesPredecessor,
// SharedLockWriterShortcut).
//
// It follows the conventions of model/predlock: every variable a field of
// State, every action a method of Spec named like the spec action, every
// property a method named like the property, states built copy-on-write,
// sets as sorted slices. spec/tla/README.md is the contract.
package sharedlock

import (
	"fmt"
	"math"
)

// Constants are the CONSTANTS of SharedLock.
type Constants struct {
	// Clients are the client processes (model values), in TLC's order.
	Clients []string
	// MaxRequests bounds the lock requests of each client.
	MaxRequests int
	// MaxSeq bounds the parent's sequence counter.
	MaxSeq int
	// MaxFaults is the budget of fault steps.
	MaxFaults int
	// WithExpiry: server-side session expiry and the client's loss timer.
	WithExpiry bool
	// WithReplyLoss: a create's reply may be lost.
	WithReplyLoss bool
	// WithPause: a holder's process may pause.
	WithPause bool
	// WithCancel: a request's context may end while it acquires.
	WithCancel bool
	// WithDowngrade: a holding writer may downgrade to a reader.
	WithDowngrade bool
	// AsyncDelete: Release and Cancel end the request at once and leave its
	// delete pending until DeleteLands (impl/zklock's background delete).
	AsyncDelete bool
}

// Unbounded is the value of MaxSeq, MaxFaults or MaxRequests that stands
// for "no bound" when the model replays a trace (model/trace).
const Unbounded = math.MaxInt32

// Variant says which module's next-state relation the Spec follows.
type Variant int

// The modules mirrored by this package.
const (
	// Base is SharedLock itself.
	Base Variant = iota
	// DowngradeReleaseAcquire is SharedLockDowngradeReleaseAcquire:
	// downgrade as release + acquire (CURATOR-621).
	DowngradeReleaseAcquire
	// ReaderWatchesPredecessor is SharedLockReaderWatchesPredecessor: a
	// reader watches its immediate predecessor.
	ReaderWatchesPredecessor
	// WriterShortcut is SharedLockWriterShortcut: a writer takes the
	// deletion of a write node that was its only blocker as its grant.
	WriterShortcut
)

// Module returns the TLA+ module the variant mirrors.
func (v Variant) Module() string {
	switch v {
	case DowngradeReleaseAcquire:
		return "SharedLockDowngradeReleaseAcquire"
	case ReaderWatchesPredecessor:
		return "SharedLockReaderWatchesPredecessor"
	case WriterShortcut:
		return "SharedLockWriterShortcut"
	}
	return "SharedLock"
}

// Spec is the state machine of one module with its constants.
type Spec struct {
	Constants
	Variant Variant
}

// New checks the constants and returns the Spec of the variant.
func New(k Constants, v Variant) (*Spec, error) {
	switch {
	case len(k.Clients) == 0:
		return nil, fmt.Errorf("sharedlock: no clients")
	case len(k.Clients) > math.MaxInt16:
		return nil, fmt.Errorf("sharedlock: %d clients: too many", len(k.Clients))
	case k.MaxRequests < 0 || k.MaxSeq < 0 || k.MaxFaults < 0:
		return nil, fmt.Errorf("sharedlock: MaxRequests, MaxSeq and MaxFaults must be natural numbers")
	case v < Base || v > WriterShortcut:
		return nil, fmt.Errorf("sharedlock: unknown variant %d", v)
	}
	seen := map[string]bool{}
	for _, c := range k.Clients {
		if seen[c] {
			return nil, fmt.Errorf("sharedlock: client %s listed twice", c)
		}
		seen[c] = true
	}
	return &Spec{Constants: k, Variant: v}, nil
}

// N returns the number of clients.
func (sp *Spec) N() int { return len(sp.Clients) }
