// Package sharedlock is the Go mirror of spec/tla/SharedLock.tla, the
// read/write ZooKeeper lock of impl/zklock's RWMutex (readers share,
// writers exclude, a writer may downgrade), and of its three mutants
// (SharedLockDowngradeReleaseAcquire, SharedLockReaderWatchesPredecessor,
// SharedLockWriterShortcut).
//
// It follows the conventions of model/predlock: every variable a field of
// State, every action a method named like the spec action, every property
// a method named like the property, states built copy-on-write, sets as
// sorted slices. The server is model/zk's, what PredecessorLock shares
// model/recipe's (State embeds recipe.State and adds kind).
// spec/tla/README.md is the contract.
package sharedlock

import (
	"fmt"

	"github.com/zklock/zklock/model/recipe"
)

// Constants are the CONSTANTS of SharedLock: those PredecessorLock has
// too, and its own.
type Constants struct {
	recipe.Constants
	// WithDowngrade: a holding writer may downgrade to a reader.
	WithDowngrade bool
}

// Unbounded is the value of MaxSeq, MaxFaults or MaxRequests that stands
// for "no bound" when the model replays a trace (model/trace).
const Unbounded = recipe.Unbounded

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
	// DowngradeLost is SharedLockDowngradeLost: a Downgrade whose
	// outcome is unknown leaves a write lease.
	DowngradeLost
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
	case DowngradeLost:
		return "SharedLockDowngradeLost"
	}
	return "SharedLock"
}

// Spec is the state machine of one module with its constants.
type Spec struct {
	Constants
	Variant Variant
	// Outsider names the owner of an outsider's node (client index -1) in
	// printed states: the Stranger of SharedLockForeign
	// (model/sharedforeign), which extends this module; "" otherwise.
	Outsider string
	r        recipe.Spec[Kind] // the actions PredecessorLock writes alike
}

// New checks the constants and returns the Spec of the variant.
func New(k Constants, v Variant) (*Spec, error) {
	if err := k.Check("sharedlock"); err != nil {
		return nil, err
	}
	if v < Base || v > DowngradeLost {
		return nil, fmt.Errorf("sharedlock: unknown variant %d", v)
	}
	sp := &Spec{Constants: k, Variant: v}
	sp.r = recipe.Spec[Kind]{Constants: &sp.Constants.Constants, ExpireHeld: `s = Sess(c) => (pc[c] # "hold" \/ paused[c])`}
	return sp, nil
}
