// Package kazooqueue is the Go mirror of spec/tla/KazooQueue.tla: one
// lock path shared by zklock's clients and kazoo's, each client's listing,
// decision and grant one step, to check that counting kazoo's node names
// with zklock's rule (a reader waits for the exclusive nodes ahead of it,
// anyone else for every node ahead) keeps mutual exclusion, and that
// ignoring them does not.
//
// Every variable of the spec is a field of State, every action a method of
// Spec with the action's name, the properties methods with the properties'
// names. spec/tla/README.md is the contract.
package kazooqueue

import (
	"encoding/binary"
	"fmt"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/tla"
)

// Constants are the CONSTANTS of KazooQueue.
type Constants struct {
	ZReaders, ZWriters, KReaders, KWriters int
	// CountKazoo: zklock counts kazoo's node names (impl/zklock).
	CountKazoo bool
}

// Spec is the state machine with its constants.
type Spec struct{ Constants }

// New checks the constants (the module's ASSUME) and returns the spec.
func New(k Constants) (*Spec, error) {
	for _, n := range []int{k.ZReaders, k.ZWriters, k.KReaders, k.KWriters} {
		if n < 0 {
			return nil, fmt.Errorf("kazooqueue: a constant is negative: %+v", k)
		}
	}
	return &Spec{Constants: k}, nil
}

// N is the number of clients (spec: Clients == 1..N).
func (sp *Spec) N() int { return sp.ZReaders + sp.ZWriters + sp.KReaders + sp.KWriters }

// IsKazoo is the spec's IsKazoo(c) for client c (0-based).
func (sp *Spec) IsKazoo(c int) bool { return c >= sp.ZReaders+sp.ZWriters }

// IsReader is the spec's IsReader(c) for client c (0-based).
func (sp *Spec) IsReader(c int) bool {
	return c < sp.ZReaders || (sp.IsKazoo(c) && c < sp.ZReaders+sp.ZWriters+sp.KReaders)
}

// PC is a client's program counter (spec: pc[c]).
type PC uint8

// The program counters.
const (
	Idle    PC = iota // no node yet
	Waiting           // its node made
	Holding
	Done // released
)

// String is the spec's name of the program counter.
func (p PC) String() string { return [...]string{"idle", "waiting", "holding", "done"}[p] }

// State is a state of KazooQueue; fields in the VARIABLES order. The
// slices are shared between states: never written in place.
type State struct {
	PC   []PC
	Node []int // the sequence number of each client's node, 0 for none
	Next int   // the parent's sequence counter
}

// VarNames are the spec's variables, in the order of the VARIABLES clause.
var VarNames = []string{"pc", "node", "next"}

// Init is the initial state (spec: Init).
func (sp *Spec) Init() State {
	return State{PC: make([]PC, sp.N()), Node: make([]int, sp.N()), Next: 1}
}

// Counts is the spec's Counts(c, d): client c counts d's node.
func (sp *Spec) Counts(c, d int) bool { return sp.IsKazoo(c) || !sp.IsKazoo(d) || sp.CountKazoo }

// Blocks is the spec's Blocks(c, d): c waits for d's node.
func (sp *Spec) Blocks(s *State, c, d int) bool {
	return d != c && s.Node[d] != 0 && s.Node[d] < s.Node[c] && sp.Counts(c, d) &&
		!(sp.IsReader(c) && sp.IsReader(d))
}

// Action indices (model.Label.Action), in the order of Next's disjuncts.
const (
	ActEnqueue uint8 = iota
	ActGrant
	ActRelease
	numActions
)

// ActionNames are the spec's names of the actions, by index.
var ActionNames = [numActions]string{"Enqueue", "Grant", "Release"}

// ActionName returns the spec name of l's action.
func ActionName(l model.Label) string {
	if int(l.Action) < len(ActionNames) {
		return ActionNames[l.Action]
	}
	return "?"
}

// with copies s into t with its own slices, so that they can be written.
func with(s, t *State) {
	*t = *s
	t.PC = append([]PC(nil), s.PC...)
	t.Node = append([]int(nil), s.Node...)
}

// Enqueue: the sequential create of c's node.
func (sp *Spec) Enqueue(s *State, c int, t *State) model.Guard {
	if s.PC[c] != Idle {
		return `pc[c] = "idle"`
	}
	with(s, t)
	t.Node[c] = s.Next
	t.Next = s.Next + 1
	t.PC[c] = Waiting
	return model.Enabled
}

// Grant: c lists the path and finds nothing it counts in its way.
func (sp *Spec) Grant(s *State, c int, t *State) model.Guard {
	if s.PC[c] != Waiting {
		return `pc[c] = "waiting"`
	}
	for d := range s.PC {
		if sp.Blocks(s, c, d) {
			return `\A d \in Clients : ~Blocks(c, d)`
		}
	}
	with(s, t)
	t.PC[c] = Holding
	return model.Enabled
}

// Release: c's node is deleted.
func (sp *Spec) Release(s *State, c int, t *State) model.Guard {
	if s.PC[c] != Holding {
		return `pc[c] = "holding"`
	}
	with(s, t)
	t.Node[c] = 0
	t.PC[c] = Done
	return model.Enabled
}

// Step applies the action instance l to s, writing the successor into t.
func (sp *Spec) Step(s *State, l model.Label, t *State) model.Guard {
	c := int(l.Client)
	if c < 0 || c >= sp.N() {
		return `c \in Clients`
	}
	switch l.Action {
	case ActEnqueue:
		return sp.Enqueue(s, c, t)
	case ActGrant:
		return sp.Grant(s, c, t)
	case ActRelease:
		return sp.Release(s, c, t)
	}
	return "unknown action"
}

// Next calls emit with every successor of s in TLC's order: for each
// client in 1..N, Enqueue, Grant, Release.
func (sp *Spec) Next(s *State, emit func(model.Label, *State)) {
	var t State
	for c := 0; c < sp.N(); c++ {
		for a := ActEnqueue; a < numActions; a++ {
			l := model.Label{Action: a, Client: int16(c)}
			if sp.Step(s, l, &t) == model.Enabled {
				emit(l, &t)
			}
		}
	}
}

// LabelString renders l with its parameter, e.g. "Grant(2)".
func (sp *Spec) LabelString(l model.Label) string {
	return fmt.Sprintf("%s(%d)", ActionName(l), l.Client+1)
}

// AppendEncoding appends the canonical encoding of s to b.
func (s *State) AppendEncoding(b []byte) []byte {
	for c := range s.PC {
		b = binary.AppendUvarint(append(b, byte(s.PC[c])), uint64(s.Node[c]))
	}
	return binary.AppendUvarint(b, uint64(s.Next))
}

// TLA returns the state's variables as TLA+ values, in VarNames order.
func (sp *Spec) TLA(s *State) []tla.Binding {
	pc, node := tla.Tuple{}, tla.Tuple{}
	for c := range s.PC {
		pc = append(pc, tla.Str(s.PC[c].String()))
		node = append(node, tla.Int(s.Node[c]))
	}
	return []tla.Binding{
		{Name: "pc", Value: pc},
		{Name: "node", Value: node},
		{Name: "next", Value: tla.Int(s.Next)},
	}
}

// Format prints s as TLC prints a state.
func (sp *Spec) Format(s *State) string { return tla.FormatState(sp.TLA(s)) }

// TypeOK is the spec's TypeOK.
func (sp *Spec) TypeOK(s *State) bool {
	for c := range s.PC {
		if s.PC[c] > Done || s.Node[c] < 0 || s.Node[c] > sp.N() {
			return false
		}
	}
	return 1 <= s.Next && s.Next <= sp.N()+1
}

// MutualExclusion: never a holder beside an exclusive holder.
func (sp *Spec) MutualExclusion(s *State) bool {
	for c := range s.PC {
		for d := range s.PC {
			if c != d && s.PC[c] == Holding && s.PC[d] == Holding && !(sp.IsReader(c) && sp.IsReader(d)) {
				return false
			}
		}
	}
	return true
}

// ReadersNeverShare: no two clients hold at once (a control that must
// fail: readers share).
func (sp *Spec) ReadersNeverShare(s *State) bool {
	holders := 0
	for c := range s.PC {
		if s.PC[c] == Holding {
			holders++
		}
	}
	return holders <= 1
}
