// Package sharedext is the Go mirror of the modules that EXTEND
// spec/tla/SharedLock.tla with a variable of their own:
// SharedLockConnLoss (connection loss on the calls of an acquisition of
// the read/write lock, recovered as impl/zklock's RWMutex recovers it,
// within a budget of lost calls) and its must-fail control
// SharedLockLostWatchWaits. It is to model/sharedlock what model/predext
// is to model/predlock.
//
// State embeds sharedlock.State and adds lost; every step of SharedLock is
// sharedlock's own (Spec embeds *sharedlock.Spec), taken with lost
// unchanged, as the module's LBase says. TLC names those steps LBase, and
// so does ActionName; LabelString keeps the inner name.
// spec/tla/README.md is the contract.
package sharedext

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/internal/cow"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/sharedlock"
	"github.com/zklock/zklock/model/tla"
)

// Module says which module's next-state relation the Spec follows.
type Module uint8

// The modules mirrored by this package.
const (
	// ConnLoss is SharedLockConnLoss (LSpec, LFairSpec): lost calls
	// (CreateRequestLost, WatchPredecessorLost, HandOffLost) beside
	// SharedLock, within MaxLost.
	ConnLoss Module = iota
	// LostWatchWaits is SharedLockLostWatchWaits!LWFairSpec: a lost
	// getData on the node waited for taken as a watch set
	// (WatchPredecessorLostWaits replaces WatchPredecessorLost).
	LostWatchWaits
)

// Name returns the TLA+ module the Module mirrors.
func (m Module) Name() string {
	return [...]string{"SharedLockConnLoss", "SharedLockLostWatchWaits"}[m]
}

// base is the name TLC gives every step of SharedLock in the modules.
const base = "LBase"

// State is one state of the module: SharedLock's variables and lost.
type State struct {
	sharedlock.State
	Lost int // lost calls so far
}

// Spec is the state machine of one module with its constants.
type Spec struct {
	*sharedlock.Spec
	Module Module
	// MaxLost is the budget of lost calls.
	MaxLost int
}

// New checks the constants and returns the Spec of module m with a budget
// of maxLost lost calls.
func New(k sharedlock.Constants, m Module, maxLost int) (*Spec, error) {
	if m > LostWatchWaits {
		return nil, fmt.Errorf("sharedext: unknown module %d", m)
	}
	if maxLost < 0 {
		return nil, fmt.Errorf("sharedext: MaxLost %d is not a natural number", maxLost)
	}
	inner, err := sharedlock.New(k, sharedlock.Base)
	if err != nil {
		return nil, err
	}
	return &Spec{Spec: inner, Module: m, MaxLost: maxLost}, nil
}

// Init is the initial state (spec: LInit).
func (sp *Spec) Init() State { return State{State: sp.Spec.Init()} }

// AppendEncoding appends the canonical encoding of s: SharedLock's, then
// lost. Two states are equal iff their encodings are.
func (s *State) AppendEncoding(b []byte) []byte {
	return binary.AppendVarint(s.State.AppendEncoding(b), int64(s.Lost))
}

// TLA returns the state's variables as TLC prints them: SharedLock's, then
// lost.
func (sp *Spec) TLA(s *State) []tla.Binding {
	return append(sp.Spec.TLA(&s.State), tla.Binding{Name: "lost", Value: tla.Int(s.Lost)})
}

// Format prints s as TLC prints a state.
func (sp *Spec) Format(s *State) string { return tla.FormatState(sp.TLA(s)) }

// Action indices (model.Label.Action) of the modules' own actions: after
// SharedLock's.
var (
	ActCreateRequestLost         = uint8(len(sharedlock.ActionNames))
	ActWatchPredecessorLost      = ActCreateRequestLost + 1
	ActHandOffLost               = ActCreateRequestLost + 2
	ActWatchPredecessorLostWaits = ActCreateRequestLost + 3
	ownNames                     = []string{"CreateRequestLost", "WatchPredecessorLost", "HandOffLost", "WatchPredecessorLostWaits"}
)

// lostActs are the module's own actions for each client, in the order
// LostNext(c) (LWNext) lists them.
func (m Module) lostActs() []uint8 {
	if m == LostWatchWaits {
		return []uint8{ActCreateRequestLost, ActWatchPredecessorLostWaits, ActHandOffLost}
	}
	return []uint8{ActCreateRequestLost, ActWatchPredecessorLost, ActHandOffLost}
}

// ActionName returns the name TLC gives l's action in the module: the
// module's own actions by name, SharedLock's steps as LBase.
func (sp *Spec) ActionName(l model.Label) string {
	if l.Action >= ActCreateRequestLost && int(l.Action-ActCreateRequestLost) < len(ownNames) {
		return ownNames[l.Action-ActCreateRequestLost]
	}
	return base
}

// LabelString renders l with its parameters; a step of SharedLock also
// names SharedLock's action ("LBase: Grant(c1)").
func (sp *Spec) LabelString(l model.Label) string {
	if l.Action >= ActCreateRequestLost && int(l.Action-ActCreateRequestLost) < len(ownNames) &&
		l.Client >= 0 && int(l.Client) < sp.N() {
		return fmt.Sprintf("%s(%s)", ownNames[l.Action-ActCreateRequestLost], sp.Clients[l.Client])
	}
	return base + ": " + sp.Spec.LabelString(l)
}

// Next calls emit with every successor of s in TLC's order: the steps of
// SharedLock (LBase), then the module's lost calls for each client.
func (sp *Spec) Next(s *State, emit func(model.Label, *State)) {
	var t State
	sp.Spec.Next(&s.State, func(l model.Label, u *sharedlock.State) {
		t.State, t.Lost = *u, s.Lost
		emit(l, &t)
	})
	acts := sp.Module.lostActs()
	for c := range sp.Clients {
		for _, a := range acts {
			l := model.Label{Action: a, Client: int16(c)}
			if sp.Step(s, l, &t) == model.Enabled {
				emit(l, &t)
			}
		}
	}
}

// Step applies the action instance l to s, writing the successor into t.
func (sp *Spec) Step(s *State, l model.Label, t *State) model.Guard {
	if l.Action < ActCreateRequestLost {
		var u sharedlock.State
		g := sp.Spec.Step(&s.State, l, &u)
		if g == model.Enabled {
			t.State, t.Lost = u, s.Lost
		}
		return g
	}
	if int(l.Client) < 0 || int(l.Client) >= sp.N() {
		return "unknown client"
	}
	if !slices.Contains(sp.Module.lostActs(), l.Action) {
		return "not an action of " + model.Guard(sp.Module.Name())
	}
	return sp.lostCall(s, int(l.Client), l.Action, t)
}

// IsBase reports whether l is a step of SharedLock (LBase), not a lost call.
func IsBase(l model.Label) bool { return l.Action < ActCreateRequestLost }

// lostCall applies one of the lost calls a to s for client c: each spends
// one lost call (Lose: lost < MaxLost).
func (sp *Spec) lostCall(s *State, c int, a uint8, t *State) model.Guard {
	if s.Lost >= sp.MaxLost {
		return `Lose (lost < MaxLost)`
	}
	var g model.Guard
	switch a {
	case ActCreateRequestLost:
		g = sp.CreateRequestLost(s, c, t)
	case ActWatchPredecessorLost:
		g = sp.WatchPredecessorLost(s, c, t)
	case ActHandOffLost:
		g = sp.HandOffLost(s, c, t)
	default:
		g = sp.WatchPredecessorLostWaits(s, c, t)
	}
	if g == model.Enabled {
		t.Lost = s.Lost + 1
	}
	return g
}

// CreateRequestLost: the create's request lost, or the create not applied
// (impl/zklock contender.create sees a transient error and looks for its
// node by uuid, finding none): pc "find", nothing on the server. Spec:
// SharedLockConnLoss!CreateRequestLost (the budget in lostCall).
func (sp *Spec) CreateRequestLost(s *State, c int, t *State) model.Guard {
	if g := s.Ready(c, recipe.PCCreate); g != model.Enabled {
		return g
	}
	*t = *s
	t.PC = cow.With(s.PC, c, recipe.PCFind)
	return model.Enabled
}

// WatchPredecessorLost: the getData on the node waited for (a writer's
// predecessor, a reader's last write node before it) fails with a lost
// connection: nothing armed, list again (sharedlock.Spec.WatchPredecessorLost).
// Spec: SharedLockConnLoss!WatchPredecessorLost.
func (sp *Spec) WatchPredecessorLost(s *State, c int, t *State) model.Guard {
	*t = *s
	return sp.Spec.WatchPredecessorLost(&s.State, c, &t.State)
}

// HandOffLost: the own node's getData lost, or a reconnect before the
// event is taken (impl/zklock ownIntact), while the hand-off may be taken
// (a reader, or a writer whose only blocker is a read node: RWMutex arms
// the own node's watch only then): c lists again after the notification.
// Spec: SharedLockConnLoss!HandOffLost.
func (sp *Spec) HandOffLost(s *State, c int, t *State) model.Guard {
	switch {
	case s.Paused[c]:
		return recipe.GNotPaused
	case s.PC[c] != recipe.PCWatch && s.PC[c] != recipe.PCWait:
		return `pc[c] \in {"watch", "wait"}`
	case !s.SoleBlocker[c]:
		return `soleBlocker[c]`
	case s.Kind[c] != sharedlock.KindRead && s.Target[c].Kind != sharedlock.KindRead:
		return `kind[c] = "read" \/ target[c][2] = "read"`
	}
	*t = *s
	t.SetSoleBlocker(c, false)
	return model.Enabled
}

// WatchPredecessorLostWaits (mutant LostWatchWaits): the lost getData on
// the node waited for taken as a watch set: c waits with nothing armed.
// Spec: SharedLockLostWatchWaits!WatchPredecessorLostWaits.
func (sp *Spec) WatchPredecessorLostWaits(s *State, c int, t *State) model.Guard {
	if g := s.Ready(c, recipe.PCWatch); g != model.Enabled {
		return g
	}
	*t = *s
	t.PC = cow.With(s.PC, c, recipe.PCWait)
	return model.Enabled
}

// TypeOK is LTypeOK: SharedLock's TypeOK and lost within 0..MaxLost.
func (sp *Spec) TypeOK(s *State) bool {
	return sp.Spec.TypeOK(&s.State) && s.Lost >= 0 && s.Lost <= sp.MaxLost
}
