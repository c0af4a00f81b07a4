// Package predadaptiveforeign is the Go mirror of
// spec/tla/PredecessorLockAdaptiveForeign.tla (issue 38: the adaptive
// marker beside an operator who sets non-mark data on lock nodes,
// ForeignSetData; a waiter counts a data change as its predecessor's mark
// only if the read after it shows the mark record, DataRule "verified", or,
// the must-fail rule, any data version >= 1, "anyVersion").
//
// State embeds predmarked.State and adds opData, the nodes an operator
// wrote. Spec embeds predadaptive.Spec with every client adaptive and
// sound: the module's steps are predadaptive's under the same names, with
// opData unchanged, but for AWatchPredecessor, Rearm and Mark, which the
// rule and the operator's data rewrite, and the module's own MarkRefused
// and ForeignSetData. spec/tla/README.md is the contract.
package predadaptiveforeign

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/predadaptive"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/predmarked"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/tla"
	"github.com/zklock/zklock/model/zk"
)

// DataRule is the spec's constant DataRule: what a waiter counts as its
// predecessor's mark.
type DataRule uint8

// The data rules.
const (
	// Verified ("verified"): a read that shows the mark record.
	Verified DataRule = iota
	// AnyVersion ("anyVersion"): any data version >= 1 read, or any data
	// change (must fail MutualExclusion).
	AnyVersion
)

var dataRuleNames = [...]string{"verified", "anyVersion"}

// String returns the spec's name of the rule.
func (r DataRule) String() string {
	if int(r) < len(dataRuleNames) {
		return dataRuleNames[r]
	}
	return "?"
}

// ParseDataRule returns the rule the spec names name.
func ParseDataRule(name string) (DataRule, error) {
	for i, n := range dataRuleNames {
		if n == name {
			return DataRule(i), nil
		}
	}
	return 0, fmt.Errorf("predadaptiveforeign: DataRule %q is not one of %v", name, dataRuleNames)
}

// Constants are the module's: PredecessorLock's and its own.
type Constants struct {
	predlock.Constants
	DataRule       DataRule
	MaxForeignSets int // budget of the operator's setData steps
}

// Spec is the state machine of PredecessorLockAdaptiveForeign (AFSpec,
// AFFairSpec).
type Spec struct {
	*predadaptive.Spec
	DataRule       DataRule
	MaxForeignSets int
}

// Module returns the TLA+ module the Spec mirrors.
func (sp *Spec) Module() string { return "PredecessorLockAdaptiveForeign" }

// New checks the constants (the module's ASSUMEs) and returns the Spec:
// PredecessorLockAdaptive with Plain {}, Adaptive Clients, both rules
// sound and no forgery, as the module's INSTANCE substitutes.
func New(k Constants) (*Spec, error) {
	if k.DataRule > AnyVersion {
		return nil, fmt.Errorf("predadaptiveforeign: unknown DataRule %d", k.DataRule)
	}
	if k.MaxForeignSets < 0 {
		return nil, fmt.Errorf("predadaptiveforeign: MaxForeignSets %d is not in Nat", k.MaxForeignSets)
	}
	all := make([]int, len(k.Clients))
	for c := range all {
		all[c] = c
	}
	a, err := predadaptive.New(predadaptive.Constants{
		Constants: predmarked.Constants{Constants: k.Constants, MarkRule: predmarked.Sound},
		Adaptive:  all, AdaptRule: predadaptive.Sound})
	if err != nil {
		return nil, err
	}
	return &Spec{Spec: a, DataRule: k.DataRule, MaxForeignSets: k.MaxForeignSets}, nil
}

// State is one state of the module: PredecessorLockAdaptive's variables
// and opData. Slices are shared between states: never written in place.
type State struct {
	predmarked.State
	OpData []int // seqs of the nodes an operator set data on, sorted
}

// Wrote reports whether an operator set data on the node of seq.
func (s *State) Wrote(seq int) bool {
	_, ok := slices.BinarySearch(s.OpData, seq)
	return ok
}

// AppendEncoding appends the canonical encoding of s: the marker's, then
// opData. Two states are equal iff their encodings are.
func (s *State) AppendEncoding(b []byte) []byte {
	b = binary.AppendVarint(s.State.AppendEncoding(b), int64(len(s.OpData)))
	for _, m := range s.OpData {
		b = binary.AppendVarint(b, int64(m))
	}
	return b
}

// Init is the initial state (spec: AFInit).
func (sp *Spec) Init() State { return State{State: sp.Spec.Init()} }

// TLA returns the state's variables as TLC prints them: the marker's,
// then opData.
func (sp *Spec) TLA(s *State) []tla.Binding {
	ops := tla.Set{}
	for _, m := range s.OpData {
		ops = append(ops, tla.Int(m))
	}
	return append(sp.Spec.TLA(&s.State), tla.Binding{Name: "opData", Value: ops})
}

// Format prints s as TLC prints a state.
func (sp *Spec) Format(s *State) string { return zk.Format(sp.TLA(s)) }

// Action indices of the module's own actions, after predadaptive's.
// ForeignSetData's Arg is the node's seq (Client -1).
var (
	ActMarkRefused    = predadaptive.ActSkipMark + 1
	ActForeignSetData = predadaptive.ActSkipMark + 2
	numActions        = predadaptive.ActSkipMark + 3
	ownNames          = []string{"MarkRefused", "ForeignSetData"}
)

// clientNext is ClientNext(c)'s disjuncts in order (Waits expanded): TLC
// generates successors in this order.
var clientNext = []uint8{recipe.ActRequestLock, recipe.ActCreateOk, recipe.ActCreateReplyLost, recipe.ActFindOwnNode,
	predadaptive.ActAListChildren, predadaptive.ActAWatchSecond, predadaptive.ActAWatchPredecessor,
	predmarked.ActMarkSeen, predmarked.ActRearm, predadaptive.ActSecondMarked, predmarked.ActGrantOnMarkedGone,
	predadaptive.ActAGrantOnHeadGone, predadaptive.ActAPredecessorGone, recipe.ActIgnoreNotification,
	recipe.ActGrant, predmarked.ActMark, ActMarkRefused, predadaptive.ActSkipMark, predmarked.ActWatchOwn,
	predlock.ActWrite, recipe.ActRelease, recipe.ActCancel, recipe.ActLearnExpiry}

// ActionName returns the name TLC gives l's action in the module.
func ActionName(l model.Label) string {
	if l.Action >= ActMarkRefused && l.Action < numActions {
		return ownNames[l.Action-ActMarkRefused]
	}
	return predadaptive.ActionName(l)
}

// ActionName is the package's ActionName, as a method for the explorer.
func (sp *Spec) ActionName(l model.Label) string { return ActionName(l) }

// LabelString renders l with its parameters, e.g. "ForeignSetData(2)".
func (sp *Spec) LabelString(l model.Label) string {
	switch l.Action {
	case ActForeignSetData:
		return fmt.Sprintf("ForeignSetData(%d)", l.Arg)
	case ActMarkRefused:
		return fmt.Sprintf("MarkRefused(%s)", sp.Clients[l.Client])
	}
	return sp.Spec.LabelString(l)
}

// IsProgress reports whether l is a step of Progress(l.Client): MarkRefused
// and AProgress's; the operator's steps are none.
func (sp *Spec) IsProgress(l model.Label) bool {
	return l.Action == ActMarkRefused || (l.Action != ActForeignSetData && sp.Spec.IsProgress(l))
}

// Step applies the action instance l to s, writing the successor into t.
func (sp *Spec) Step(s *State, l model.Label, t *State) model.Guard {
	if l.Action == ActForeignSetData {
		return sp.ForeignSetData(s, int(l.Arg), t)
	}
	if l.Action == predmarked.ActForgeMark || l.Action >= numActions {
		return "not an action of " + model.Guard(sp.Module())
	}
	if int(l.Client) < 0 || int(l.Client) >= sp.N() {
		return "unknown client"
	}
	c := int(l.Client)
	switch l.Action {
	case ActMarkRefused:
		return sp.MarkRefused(s, c, t)
	case predadaptive.ActAWatchPredecessor:
		return sp.AWatchPredecessor(s, c, t)
	case predmarked.ActRearm:
		return sp.Rearm(s, c, t)
	case predmarked.ActMark:
		return sp.Mark(s, c, t)
	}
	if g := sp.Spec.Step(&s.State, l, &t.State); g != model.Enabled {
		return g
	}
	t.OpData = s.OpData
	return model.Enabled
}

// Next calls emit with every successor of s in TLC's order: for each
// client ClientNext's disjuncts in order; then MExpireSession for each
// live session; MPauseClient and MResumeClient for each client;
// MDeleteLands for each pending delete; ForeignSetData(s) for s in
// 0..MaxSeq. The state passed to emit is only valid during the call.
func (sp *Spec) Next(s *State, emit func(model.Label, *State)) {
	var t State
	try := func(l model.Label) {
		if sp.Step(s, l, &t) == model.Enabled {
			emit(l, &t)
		}
	}
	for c := range sp.N() {
		for _, a := range clientNext {
			try(model.Label{Action: a, Client: int16(c)})
		}
	}
	predmarked.EnvLabels(&s.State, sp.N(), try)
	for seq := 0; seq <= sp.MaxSeq; seq++ {
		try(model.Label{Action: ActForeignSetData, Client: -1, Arg: int16(seq)})
	}
}
