// Package connloss is the Go mirror of spec/tla/ConnLoss.tla and the
// modules that INSTANCE it (PredecessorLockConnLoss, SharedLockConnLoss
// and their controls LostWatchWaits): connection loss on the calls of an
// acquisition, within a budget of lost calls, written once for any Recipe.
// A recipe's steps are its own with lost unchanged (LBase, as TLC names
// them); the lost calls follow, for each client, in LostNext(c)'s order:
// CreateRequestLost, the recipe's own Moves, WatchPredecessorLost (the
// control's WatchPredecessorLostWaits), HandOffLost.
package connloss

import (
	"encoding/binary"
	"fmt"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/internal/cow"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/tla"
	"github.com/zklock/zklock/model/zk"
)

// Recipe is a lock recipe's model as connection loss wraps it: its state
// machine, its relisting after a lost watch, and its Shape.
type Recipe[S any, K zk.Kind] interface {
	model.Machine[S]
	TypeOK(s *S) bool
	// WatchPredecessorLost is the recipe module's WatchPredecessorLostStep:
	// what a waiter forgets when it lists again after a lost getData on
	// the node it waits for (only the recipe knows its variables).
	WatchPredecessorLost(s *S, c int, t *S) model.Guard
	// LossShape is the rest of what connection loss needs to know.
	LossShape() Shape[S, K]
}

// Shape is what a recipe tells connection loss about itself beyond its
// steps.
type Shape[S any, K zk.Kind] struct {
	Clients []string // the clients' names, by index
	Actions int      // the recipe's steps are Label.Action 0..Actions-1
	// Core returns the server's and the clients' variables every recipe
	// has (pc, paused, soleBlocker, ...), which the lost calls change.
	Core   func(s *S) *recipe.State[K]
	Encode func(b []byte, s *S) []byte // the recipe's canonical encoding
	// HandOffArmed says whether c has the watch on its own node that
	// HandOffLost loses (nil: always, as Mutex arms it).
	HandOffArmed func(s *S, c int) model.Guard
	// Moves are the recipe's own lost calls after which the client only
	// moves on (PredecessorLock's WatchSecondLost), listed after
	// CreateRequestLost.
	Moves []Move
}

// Move is a lost call taken as a move from one control state to another,
// nothing else changing: the TLA+ Lose /\ Loss!Moves(c, From, To).
type Move struct {
	Name     string
	From, To recipe.PC
}

// State is one state of a connection-loss module: the recipe's variables
// and lost.
type State[S any] struct {
	Lock S   // the recipe's variables
	Lost int // lost calls so far
}

// call is one lost call: its name and its step without the budget.
type call[S any] struct {
	name string
	step func(s *State[S], c int, t *State[S]) model.Guard
}

// Spec is the state machine of one connection-loss module.
type Spec[S any, K zk.Kind] struct {
	Recipe  Recipe[S, K]
	MaxLost int  // budget of lost calls
	Waits   bool // the control LostWatchWaits: a lost watch taken as armed
	shape   Shape[S, K]
	calls   []call[S] // in LostNext(c)'s order; call i is action shape.Actions+i
}

// New returns the module over r with a budget of maxLost lost calls; with
// waits, the control LostWatchWaits.
func New[S any, K zk.Kind](r Recipe[S, K], maxLost int, waits bool) (*Spec[S, K], error) {
	if maxLost < 0 {
		return nil, fmt.Errorf("connloss: MaxLost %d is not a natural number", maxLost)
	}
	sp := &Spec[S, K]{Recipe: r, MaxLost: maxLost, Waits: waits, shape: r.LossShape()}
	sp.calls = append(sp.calls, sp.move(Move{"CreateRequestLost", recipe.PCCreate, recipe.PCFind}))
	for _, m := range sp.shape.Moves {
		sp.calls = append(sp.calls, sp.move(m))
	}
	if waits {
		sp.calls = append(sp.calls, sp.move(Move{"WatchPredecessorLostWaits", recipe.PCWatch, recipe.PCWait}))
	} else {
		sp.calls = append(sp.calls, call[S]{"WatchPredecessorLost", sp.watchPredecessorLost})
	}
	sp.calls = append(sp.calls, call[S]{"HandOffLost", sp.handOffLost})
	return sp, nil
}

// Init is the initial state (spec: LInit).
func (sp *Spec[S, K]) Init() State[S] { return State[S]{Lock: sp.Recipe.Init()} }

// AppendEncoding appends the canonical encoding of s: the recipe's, then
// lost. Two states are equal iff their encodings are.
func (sp *Spec[S, K]) AppendEncoding(b []byte, s *State[S]) []byte {
	return binary.AppendVarint(sp.shape.Encode(b, &s.Lock), int64(s.Lost))
}

// TLA returns the state's variables as TLC prints them: the recipe's, then
// lost.
func (sp *Spec[S, K]) TLA(s *State[S]) []tla.Binding {
	return append(sp.Recipe.TLA(&s.Lock), tla.Binding{Name: "lost", Value: tla.Int(s.Lost)})
}

// Format prints s as TLC prints a state.
func (sp *Spec[S, K]) Format(s *State[S]) string { return tla.FormatState(sp.TLA(s)) }

// TypeOK is LTypeOK: the recipe's TypeOK and lost within 0..MaxLost.
func (sp *Spec[S, K]) TypeOK(s *State[S]) bool {
	return sp.Recipe.TypeOK(&s.Lock) && s.Lost >= 0 && s.Lost <= sp.MaxLost
}

// IsBase reports whether l is a step of the recipe (LBase), not a lost call.
func (sp *Spec[S, K]) IsBase(l model.Label) bool { return int(l.Action) < sp.shape.Actions }

// Actions is the number of action indices: the recipe's, then the lost calls.
func (sp *Spec[S, K]) Actions() int { return sp.shape.Actions + len(sp.calls) }

// lostCall returns l's lost call (nil: a step of the recipe, or unknown).
func (sp *Spec[S, K]) lostCall(l model.Label) *call[S] {
	if i := int(l.Action) - sp.shape.Actions; i >= 0 && i < len(sp.calls) {
		return &sp.calls[i]
	}
	return nil
}

// ActionName returns the name TLC gives l's action in the module: a lost
// call by name, the recipe's steps as LBase.
func (sp *Spec[S, K]) ActionName(l model.Label) string {
	if c := sp.lostCall(l); c != nil {
		return c.name
	}
	return "LBase"
}

// LabelString renders l with its parameters; a step of the recipe also
// names the recipe's action ("LBase: Grant(c1)").
func (sp *Spec[S, K]) LabelString(l model.Label) string {
	if c := sp.lostCall(l); c != nil && l.Client >= 0 && int(l.Client) < len(sp.shape.Clients) {
		return fmt.Sprintf("%s(%s)", c.name, sp.shape.Clients[l.Client])
	}
	return "LBase: " + sp.Recipe.LabelString(l)
}

// Next calls emit with every successor of s in TLC's order: the recipe's
// steps (LBase), then the lost calls for each client.
func (sp *Spec[S, K]) Next(s *State[S], emit func(model.Label, *State[S])) {
	var t State[S]
	sp.Recipe.Next(&s.Lock, func(l model.Label, u *S) {
		t.Lock, t.Lost = *u, s.Lost
		emit(l, &t)
	})
	for c := range sp.shape.Clients {
		for i := range sp.calls {
			l := model.Label{Action: uint8(sp.shape.Actions + i), Client: int16(c)}
			if sp.Step(s, l, &t) == model.Enabled {
				emit(l, &t)
			}
		}
	}
}

// Step applies the action instance l to s, writing the successor into t.
func (sp *Spec[S, K]) Step(s *State[S], l model.Label, t *State[S]) model.Guard {
	if sp.IsBase(l) {
		var u S
		g := sp.Recipe.Step(&s.Lock, l, &u)
		if g == model.Enabled {
			t.Lock, t.Lost = u, s.Lost
		}
		return g
	}
	call := sp.lostCall(l)
	switch {
	case call == nil:
		return "unknown action"
	case l.Client < 0 || int(l.Client) >= len(sp.shape.Clients):
		return "unknown client"
	case s.Lost >= sp.MaxLost:
		return `Lose (lost < MaxLost)`
	}
	g := call.step(s, int(l.Client), t)
	if g == model.Enabled {
		t.Lost = s.Lost + 1
	}
	return g
}

// move is a lost call after which c only moves on, Loss!Moves(c, m.From,
// m.To): CreateRequestLost (contender.create looks for its node by uuid),
// the recipe's own, the control's WatchPredecessorLostWaits (a lost
// getData taken as a watch set: c waits with nothing armed).
func (sp *Spec[S, K]) move(m Move) call[S] {
	return call[S]{m.Name, func(s *State[S], c int, t *State[S]) model.Guard {
		if g := sp.shape.Core(&s.Lock).Ready(c, m.From); g != model.Enabled {
			return g
		}
		*t = *s
		core := sp.shape.Core(&t.Lock)
		core.PC = cow.With(core.PC, c, m.To)
		return model.Enabled
	}}
}

// watchPredecessorLost: the getData on the node c waits for fails with a
// lost connection: nothing armed (the server dropped it with the
// connection, go-zookeeper registers a watch only with its reply), list
// again: the recipe's WatchPredecessorLostStep.
func (sp *Spec[S, K]) watchPredecessorLost(s *State[S], c int, t *State[S]) model.Guard {
	*t = *s
	return sp.Recipe.WatchPredecessorLost(&s.Lock, c, &t.Lock)
}

// handOffLost: the own node's getData lost, or a reconnect before the
// event is taken (impl/zklock ownIntact): c lists again after the
// notification instead of taking the hand-off (Loss!HandOffGivenUp, while
// the recipe has the own node's watch armed).
func (sp *Spec[S, K]) handOffLost(s *State[S], c int, t *State[S]) model.Guard {
	core := sp.shape.Core(&s.Lock)
	switch {
	case core.Paused[c]:
		return recipe.GNotPaused
	case core.PC[c] != recipe.PCWatch && core.PC[c] != recipe.PCWait:
		return `pc[c] \in {"watch", "wait"}`
	case !core.SoleBlocker[c]:
		return `soleBlocker[c]`
	}
	if armed := sp.shape.HandOffArmed; armed != nil {
		if g := armed(&s.Lock, c); g != model.Enabled {
			return g
		}
	}
	*t = *s
	sp.shape.Core(&t.Lock).SetSoleBlocker(c, false)
	return model.Enabled
}
