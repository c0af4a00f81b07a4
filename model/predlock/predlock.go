// Package predlock is the Go mirror of spec/tla/PredecessorLock.tla, the
// exclusive, herd-free ZooKeeper lock of impl/zklock's Mutex, and of its
// variants: the mutants PredecessorLockHerdParent,
// PredecessorLockNotifyIsGrant, PredecessorLockStaleEvent,
// PredecessorLockBlindRetry and PredecessorLockSeqToken, and PredecessorLockParentReset (the parent
// deleted and re-created).
//
// Every variable of the spec is a field of State, every action a method
// with the action's name, every property a method with the property's
// name. The server's variables and steps are model/zk's, the variables,
// actions and properties SharedLock shares model/recipe's (State embeds
// recipe.State); this package adds the tenure, the history of grants and
// the fenced resource, and the actions PredecessorLock writes its own way.
// spec/tla/README.md is the contract; the comments here point to the
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

	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/zk"
)

// Constants are the CONSTANTS of PredecessorLock: those SharedLock has
// too, and its own.
type Constants struct {
	recipe.Constants
	// Fencing: the resource rejects a token below the highest it has seen.
	Fencing bool
	// GrantRule: how a client that is first becomes the holder, and where
	// a client may pause (with WithPause: a holder's only with
	// GrantReread, any but an idle client's otherwise). The zero value is
	// "reread".
	GrantRule GrantRule
}

// GrantRule is the spec's constant GrantRule (spec: GrantRules).
type GrantRule uint8

// The grant rules.
const (
	// GrantReread ("reread"): the grant is getData of the own node on a
	// live session, whose czxid is the token; only a holder pauses.
	GrantReread GrantRule = iota
	// GrantLocal ("local"): the grant is a local step with the token known
	// since the node became known, and checks nothing; a client pauses in
	// any state but "idle". impl/zklock before its grant checked the loss
	// deadline.
	GrantLocal
	// GrantChecked ("checked"): as GrantLocal, but refused once the loss
	// deadline has passed (Overdue); impl/zklock's grant, which calls
	// Session.checkDeadline.
	GrantChecked
)

var grantRuleNames = [...]string{"reread", "local", "checked"}

// String returns the spec's name of the rule ("reread", ...).
func (g GrantRule) String() string {
	if int(g) < len(grantRuleNames) {
		return grantRuleNames[g]
	}
	return "?"
}

// ParseGrantRule returns the rule the spec names name.
func ParseGrantRule(name string) (GrantRule, error) {
	for i, n := range grantRuleNames {
		if n == name {
			return GrantRule(i), nil
		}
	}
	return 0, fmt.Errorf("predlock: GrantRule %q is not in GrantRules %v", name, grantRuleNames)
}

// Unbounded is the value of MaxSeq, MaxFaults or MaxRequests that stands
// for "no bound" when the model replays a trace (model/trace).
const Unbounded = recipe.Unbounded

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
	// DropDelete is PredecessorLockDropDelete: a pending delete may be
	// dropped on a connection loss and never retried.
	DropDelete
	// ParentReset is PredecessorLockParentReset!ResetSpec: the base
	// protocol, and the empty parent may be deleted and re-created
	// (RecreateParent), which restarts the sequence numbers.
	ParentReset
	// SeqToken is PredecessorLockSeqToken!SeqSpec: ParentReset with the
	// sequence number as the token (GrantSeqToken replaces Grant).
	SeqToken
	// SeqTokenNoReset is PredecessorLockSeqToken!SeqNoResetSpec: the
	// sequence number as the token, the parent never re-created.
	SeqTokenNoReset
	// StaleEvent is PredecessorLockStaleEvent: the hand-off taken on any
	// event of the current request, whichever node it is for.
	StaleEvent
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
	case DropDelete:
		return "PredecessorLockDropDelete"
	case ParentReset:
		return "PredecessorLockParentReset"
	case SeqToken, SeqTokenNoReset:
		return "PredecessorLockSeqToken"
	case StaleEvent:
		return "PredecessorLockStaleEvent"
	}
	return "PredecessorLock"
}

// Spec is the state machine of one module with its constants.
type Spec struct {
	Constants
	Variant Variant
	// Outsider names the owner of an outsider's node (client index -1) in
	// printed states: the Stranger of PredecessorLockForeign
	// (model/predforeign), which extends this module; "" otherwise.
	Outsider string
	r        recipe.Spec[zk.NoKind] // the actions SharedLock writes alike
}

// New checks the constants and returns the Spec of the variant.
func New(k Constants, v Variant) (*Spec, error) {
	if err := k.Check("predlock"); err != nil {
		return nil, err
	}
	switch {
	case v < Base || v > StaleEvent:
		return nil, fmt.Errorf("predlock: unknown variant %d", v)
	case (v == SeqToken || v == SeqTokenNoReset) && k.GrantRule != GrantReread:
		return nil, fmt.Errorf("predlock: %s assumes GrantRule = \"reread\"", v.Module())
	case k.GrantRule > GrantChecked:
		return nil, fmt.Errorf("predlock: unknown GrantRule %d", k.GrantRule)
	}
	sp := &Spec{Constants: k, Variant: v}
	sp.r = recipe.Spec[zk.NoKind]{Constants: &sp.Constants.Constants,
		ExpireHeld: `s = Sess(c) => (pc[c] = "hold" => paused[c])`}
	return sp, nil
}
