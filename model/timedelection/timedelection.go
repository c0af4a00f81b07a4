// Package timedelection is the Go mirror of spec/tla/TimedElection.tla: the
// election's leader question with time. As the module INSTANCEs TimedLock
// (TL) and adds the leaders' proclaims, its State embeds a timedlock.State
// and adds H's epoch and the history of the proclaims that landed, and its
// action table takes model/timedlock's entries (timing.Lift, timing.Extend)
// as the spec takes `TL!A /\ ...`, then HProclaim and CProclaim.
//
// spec/tla/README.md ("TimedElection") is the contract.
package timedelection

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/zklock/zklock/model/sessiontiming"
	"github.com/zklock/zklock/model/timedlock"
	"github.com/zklock/zklock/model/timing"
	"github.com/zklock/zklock/model/tla"
)

// Constants are the CONSTANTS of TimedElection: TimedLock's.
type Constants = timedlock.Constants

// Spec is the state machine with its constants; its Step, Next,
// ActionName and LabelString are its action table's.
type Spec struct {
	Constants
	timing.Actions[State]
	TL *timedlock.Spec
}

// New checks the constants (TimedLock's ASSUMEs) and returns the spec.
func New(k Constants) (*Spec, error) {
	tl, err := timedlock.New(k)
	if err != nil {
		return nil, fmt.Errorf("timedelection: %w", err)
	}
	sp := &Spec{Constants: k, TL: tl}
	sp.Actions = sp.actions()
	return sp, nil
}

// Proclaimed is one proclaim that landed: the proclaimer's epoch and the
// epoch of the node at the head at the leader then.
type Proclaimed struct{ Epoch, Head int }

// State is a state of TimedElection: TimedLock's variables, then the
// election's.
type State struct {
	TL     timedlock.State
	HEpoch int // the czxid of H's node once its create landed, 0 before
	// Proclaimed is the history, a set sorted by (Epoch, Head); shared
	// between states: never written in place.
	Proclaimed []Proclaimed
}

// VarNames are the module's variables, in the order of its VARIABLES clause.
var VarNames = append(slices.Clip(timedlock.VarNames), "hepoch", "proclaimed")

// Init is the initial state (Init: TimedLock's, no epoch, no proclaim).
func (sp *Spec) Init() State { return State{TL: sp.TL.Init()} }

// headEpoch is HeadEpoch: the czxid of the node at the head (nodes are
// sorted by seq; there is one).
func headEpoch(s *State) int { return s.TL.ZK.Nodes[0].Czxid }

// epochOf is EpochOf(x), and false if x has no node.
func epochOf(s *State, x int) (int, bool) {
	n, ok := timedlock.NodeOf(&s.TL, x)
	return n.Czxid, ok
}

// withProclaimed returns a new history: h with p added.
func withProclaimed(h []Proclaimed, p Proclaimed) []Proclaimed {
	i, found := slices.BinarySearchFunc(h, p, func(a, b Proclaimed) int {
		return cmp.Or(cmp.Compare(a.Epoch, b.Epoch), cmp.Compare(a.Head, b.Head))
	})
	if found {
		return h
	}
	return slices.Insert(slices.Clone(h), i, p)
}

// hProclaimed is HProclaimed: H has sent its proclaim.
func hProclaimed(s *State) bool {
	return slices.ContainsFunc(s.TL.ST.Reqs, func(r sessiontiming.Req) bool { return r.Kind == sessiontiming.Proclaim })
}

// AtMostOneLeader: at most one of H and C believes it leads (TimedLock's
// MutualExclusion).
func (sp *Spec) AtMostOneLeader(s *State) bool { return sp.TL.MutualExclusion(&s.TL) }

// ProclaimedByLeader: every proclaim that landed was written by the node
// at the head at the leader then (the fence: the multi's check).
func (sp *Spec) ProclaimedByLeader(s *State) bool {
	for _, p := range s.Proclaimed {
		if p.Epoch != p.Head {
			return false
		}
	}
	return true
}

// NoGrantPastDeadline is TimedLock's.
func (sp *Spec) NoGrantPastDeadline(s *State) bool { return sp.TL.NoGrantPastDeadline(&s.TL) }

// LossBeforeExpiry is TimedLock's.
func (sp *Spec) LossBeforeExpiry(s *State) bool { return sp.TL.LossBeforeExpiry(&s.TL) }

// StandIns is TimedLock's.
func (sp *Spec) StandIns(s *State) bool { return sp.TL.StandIns(&s.TL) }

// TypeOK is the module's TypeOK: TimedLock's with H's proclaims, then the
// election's variables.
func (sp *Spec) TypeOK(s *State) bool {
	if !sp.TL.TypeOKUpTo(&s.TL, sessiontiming.Proclaim) || s.HEpoch < 0 {
		return false
	}
	for _, p := range s.Proclaimed {
		if p.Epoch < 0 || p.Head < 0 {
			return false
		}
	}
	return true
}

// AppendEncoding appends the canonical encoding of s to b.
func (s *State) AppendEncoding(b []byte) []byte {
	b = s.TL.AppendEncoding(b)
	b = binary.AppendUvarint(b, uint64(s.HEpoch))
	b = binary.AppendUvarint(b, uint64(len(s.Proclaimed)))
	for _, p := range s.Proclaimed {
		b = binary.AppendUvarint(binary.AppendUvarint(b, uint64(p.Epoch)), uint64(p.Head))
	}
	return b
}

// TLA returns the state's variables as TLA+ values, in VarNames order.
func (sp *Spec) TLA(s *State) []tla.Binding {
	h := tla.Set{}
	for _, p := range s.Proclaimed {
		h = append(h, tla.Record{{Name: "epoch", Value: tla.Int(p.Epoch)}, {Name: "head", Value: tla.Int(p.Head)}})
	}
	return append(sp.TL.TLA(&s.TL),
		tla.Binding{Name: "hepoch", Value: tla.Int(s.HEpoch)},
		tla.Binding{Name: "proclaimed", Value: h})
}

// Format prints s as TLC prints a state.
func (sp *Spec) Format(s *State) string { return tla.FormatState(sp.TLA(s)) }
