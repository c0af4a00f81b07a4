// Package predlock is the Go mirror of spec/tla/PredecessorLock.tla, the
// exclusive, herd-free ZooKeeper lock of impl/zklock's Mutex, and of its
// three mutants (PredecessorLockHerdParent, PredecessorLockNotifyIsGrant,
// PredecessorLockBlindRetry).
//
// Every variable of the spec is a field of State, every action a method of
// Spec with the action's name, every property a method with the property's
// name. spec/tla/README.md is the contract; the comments here point to the
// spec and say which ZooKeeper call or event each action models.
//
// States are values built copy-on-write: an action returns a successor that
// shares the slices it did not change with its predecessor, and never
// writes into a slice it did not allocate. Sets are kept as sorted slices
// and records as structs, so that two equal TLA+ states have one encoding
// (State.AppendEncoding), whose hash is the state's fingerprint.
package predlock

import (
	"fmt"
	"math"
)

// Constants are the CONSTANTS of PredecessorLock.
type Constants struct {
	// Clients are the client processes (model values), in TLC's order.
	Clients []string
	// MaxRequests bounds the lock requests of each client.
	MaxRequests int
	// MaxSeq bounds the parent's sequence counter: creates are disabled at
	// nextSeq = MaxSeq.
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
	// Fencing: the resource rejects a token below the highest it has seen.
	Fencing bool
}

// Unbounded is the value of MaxSeq, MaxFaults or MaxRequests that stands
// for "no bound" when the model replays a trace (model/trace).
const Unbounded = math.MaxInt32

// Variant says which module's next-state relation the Spec follows.
type Variant int

// The modules mirrored by this package.
const (
	// Base is PredecessorLock itself.
	Base Variant = iota
	// HerdParent is PredecessorLockHerdParent: waiters watch the parent.
	HerdParent
	// NotifyIsGrant is PredecessorLockNotifyIsGrant: a notification is the grant.
	NotifyIsGrant
	// BlindRetry is PredecessorLockBlindRetry: a lost create is retried blindly.
	BlindRetry
)

// Module returns the TLA+ module the variant mirrors.
func (v Variant) Module() string {
	switch v {
	case HerdParent:
		return "PredecessorLockHerdParent"
	case NotifyIsGrant:
		return "PredecessorLockNotifyIsGrant"
	case BlindRetry:
		return "PredecessorLockBlindRetry"
	}
	return "PredecessorLock"
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
		return nil, fmt.Errorf("predlock: no clients")
	case len(k.Clients) > math.MaxInt16:
		return nil, fmt.Errorf("predlock: %d clients: too many", len(k.Clients))
	case k.MaxRequests < 0 || k.MaxSeq < 0 || k.MaxFaults < 0:
		return nil, fmt.Errorf("predlock: MaxRequests, MaxSeq and MaxFaults must be natural numbers")
	case v < Base || v > BlindRetry:
		return nil, fmt.Errorf("predlock: unknown variant %d", v)
	}
	seen := map[string]bool{}
	for _, c := range k.Clients {
		if seen[c] {
			return nil, fmt.Errorf("predlock: client %s listed twice", c)
		}
		seen[c] = true
	}
	return &Spec{Constants: k, Variant: v}, nil
}

// N returns the number of clients.
func (sp *Spec) N() int { return len(sp.Clients) }
