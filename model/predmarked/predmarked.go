// Package predmarked is the Go mirror of spec/tla/PredecessorLockMarked.tla
// (issue 38, the marker hand-off: a new holder marks its own node with
// setData, and a marking waiter that read its predecessor's mark takes the
// predecessor's deletion as the grant without listing) and of
// PredecessorLockMarkedForged.tla (an outsider's forged mark, ForgeMark).
//
// State embeds predlock.State and adds the module's variables: marks (the
// server's marked nodes), seen and holdStep (each client's). Every step
// of PredecessorLock the module takes is predlock's own, under the name
// the module gives its wrapper (MRequestLock, PListChildren, ...: TLC
// names the step so, and so does ActionName), with the marker's variables
// unchanged or reset at the end of a request (MRelease, MCancel,
// MLearnExpiry) or set at the grant (MGrant). The marking client's steps
// (MListChildren, MWatchPredecessor, MarkSeen, Rearm, GrantOnMarkedGone,
// UnmarkedGone, Mark, WatchOwn) and ForgeMark are this package's, each a
// method with the action's name. A NodeDataChanged event for node s is a
// zk.Watch whose name is Changed(s) = -3-s, as the spec writes it.
// spec/tla/README.md is the contract.
package predmarked

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/tla"
	"github.com/zklock/zklock/model/zk"
)

// MarkRule is the spec's constant MarkRule: the protocol or a must-fail
// mutant of it.
type MarkRule uint8

// The mark rules.
const (
	// Sound ("sound"): the protocol. NodeDataChanged is not the grant: the
	// waiter re-arms (Rearm); the deletion of a predecessor whose mark it
	// read is the grant; any other deletion makes it list again.
	Sound MarkRule = iota
	// MarkIsGrant ("markIsGrant"): the NodeDataChanged event taken as the
	// grant (must fail MutualExclusion).
	MarkIsGrant
	// UnmarkedGrant ("unmarkedGrant"): the deletion of a predecessor never
	// seen marked taken as the grant (must fail MutualExclusion).
	UnmarkedGrant
	// NoRearm ("noRearm"): after NodeDataChanged the waiter waits on the
	// spent one-shot watch (must fail StarvationFree).
	NoRearm
)

var markRuleNames = [...]string{"sound", "markIsGrant", "unmarkedGrant", "noRearm"}

// String returns the spec's name of the rule.
func (r MarkRule) String() string {
	if int(r) < len(markRuleNames) {
		return markRuleNames[r]
	}
	return "?"
}

// ParseMarkRule returns the rule the spec names name.
func ParseMarkRule(name string) (MarkRule, error) {
	for i, n := range markRuleNames {
		if n == name {
			return MarkRule(i), nil
		}
	}
	return 0, fmt.Errorf("predmarked: MarkRule %q is not one of %v", name, markRuleNames)
}

// Seen is what a marking waiter knows of its target (spec: seen[c]).
type Seen uint8

// The values of seen.
const (
	// SeenNone ("none"): no mark read.
	SeenNone Seen = iota
	// SeenChanged ("changed"): its NodeDataChanged was taken; the re-arm is next.
	SeenChanged
	// SeenMark ("mark"): its last getData read a mark.
	SeenMark
)

// String returns the value as the spec writes it.
func (v Seen) String() string { return [...]string{"none", "changed", "mark"}[v] }

// HoldStep is a marking holder's next step (spec: holdStep[c]).
type HoldStep uint8

// The values of holdStep.
const (
	// HoldNone ("none"): nothing left to do (or not holding).
	HoldNone HoldStep = iota
	// HoldMark ("mark"): the mark (setData of the own node) is next.
	HoldMark
	// HoldOwn ("own"): the own-node watch (getData of the own node) is next.
	HoldOwn
)

// String returns the value as the spec writes it.
func (h HoldStep) String() string { return [...]string{"none", "mark", "own"}[h] }

// Constants are PredecessorLockMarked's: PredecessorLock's and its own.
type Constants struct {
	predlock.Constants
	// Plain are the clients (indices into Clients) that never mark:
	// Curator, zklock before the marker.
	Plain []int
	// MarkRule is the protocol or a must-fail mutant.
	MarkRule MarkRule
	// WithForgery: an outsider may setData on lock nodes (a fault). Only
	// the Forged module takes ForgeMark.
	WithForgery bool
}

// Spec is the state machine of PredecessorLockMarked (Forged false:
// MSpec, MFairSpec) or PredecessorLockMarkedForged (Forged: FSpec).
type Spec struct {
	*predlock.Spec
	Plain       []bool // Plain as a predicate on clients
	MarkRule    MarkRule
	WithForgery bool
	Forged      bool
}

// Module returns the TLA+ module the Spec mirrors.
func (sp *Spec) Module() string {
	if sp.Forged {
		return "PredecessorLockMarkedForged"
	}
	return "PredecessorLockMarked"
}

// New checks the constants (the module's ASSUMEs) and returns the Spec;
// forged selects PredecessorLockMarkedForged's next-state relation.
func New(k Constants, forged bool) (*Spec, error) {
	inner, err := predlock.New(k.Constants, predlock.Base)
	if err != nil {
		return nil, err
	}
	if k.MarkRule > NoRearm {
		return nil, fmt.Errorf("predmarked: unknown MarkRule %d", k.MarkRule)
	}
	plain := make([]bool, inner.N())
	for _, c := range k.Plain {
		if c < 0 || c >= inner.N() {
			return nil, fmt.Errorf("predmarked: Plain client %d is not in Clients", c)
		}
		plain[c] = true
	}
	return &Spec{Spec: inner, Plain: plain, MarkRule: k.MarkRule, WithForgery: k.WithForgery, Forged: forged}, nil
}

// Marking reports whether c marks (spec: c \in Marking).
func (sp *Spec) Marking(c int) bool { return !sp.Plain[c] }

// State is one state of the module: PredecessorLock's variables and the
// marker's. Slices are shared between states: never written in place.
type State struct {
	predlock.State
	Marks    []int      // seqs of the nodes whose data carries a mark, sorted
	Seen     []Seen     // per client
	HoldStep []HoldStep // per client
}

// VarNames are the marker's variables, in the order of its VARIABLES
// clause (after PredecessorLock's, predlock.VarNames).
var VarNames = []string{"marks", "seen", "holdStep"}

// Changed is the name a NodeDataChanged event for the node of seq s
// carries (spec: Changed(s) == -3 - s), a name no node or watch has.
func Changed(s int) int { return -3 - s }

// Init is the initial state (spec: MInit).
func (sp *Spec) Init() State {
	return State{State: sp.Spec.Init(), Seen: make([]Seen, sp.N()), HoldStep: make([]HoldStep, sp.N())}
}

// Marked reports whether the node of seq s carries a mark (s \in marks).
func (s *State) Marked(seq int) bool {
	_, ok := slices.BinarySearch(s.Marks, seq)
	return ok
}

// AppendEncoding appends the canonical encoding of s: PredecessorLock's,
// then marks, seen and holdStep. Two states are equal iff their encodings
// are.
func (s *State) AppendEncoding(b []byte) []byte {
	b = binary.AppendVarint(s.State.AppendEncoding(b), int64(len(s.Marks)))
	for _, m := range s.Marks {
		b = binary.AppendVarint(b, int64(m))
	}
	for c := range s.Seen {
		b = append(b, byte(s.Seen[c]), byte(s.HoldStep[c]))
	}
	return b
}

// TLA returns the state's variables as TLC prints them: PredecessorLock's,
// then the marker's.
func (sp *Spec) TLA(s *State) []tla.Binding {
	p := zk.Printer[zk.NoKind]{Clients: sp.Clients}
	marks := tla.Set{}
	for _, m := range s.Marks {
		marks = append(marks, tla.Int(m))
	}
	return append(sp.Spec.TLA(&s.State),
		tla.Binding{Name: "marks", Value: marks},
		tla.Binding{Name: "seen", Value: p.PerClient(func(c int) tla.Value { return tla.Str(s.Seen[c].String()) })},
		tla.Binding{Name: "holdStep", Value: p.PerClient(func(c int) tla.Value { return tla.Str(s.HoldStep[c].String()) })})
}

// Format prints s as TLC prints a state.
func (sp *Spec) Format(s *State) string { return zk.Format(sp.TLA(s)) }
