// Package predadaptive is the Go mirror of
// spec/tla/PredecessorLockAdaptive.tla (issue 38, the adaptive marker: a
// holder marks its node or not at each grant, Mark or SkipMark; a waiter
// keeps today's rule, with the marker's MarkSeen, Rearm and
// GrantOnMarkedGone on its predecessor's mark, and SecondMarked on the
// mark of the node two ahead).
//
// State is predmarked.State: the module adds no variable. Spec embeds
// predmarked.Spec: the Plain and pure marking clients' steps, and the
// marker's steps an adaptive client reuses, are predmarked's; today's steps
// of an adaptive client are predlock's under the module's A... wrappers,
// with the marker's variables unchanged (or seen set by AWatchPredecessor,
// reset by APredecessorGone); SecondMarked and SkipMark are this package's.
// spec/tla/README.md is the contract.
package predadaptive

import (
	"fmt"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/predmarked"
	"github.com/zklock/zklock/model/recipe"
)

// State is the module's state: PredecessorLockMarked's variables.
type State = predmarked.State

// AdaptRule is the spec's constant AdaptRule: the protocol or a must-fail
// mutant of it.
type AdaptRule uint8

// The adapt rules.
const (
	// Sound ("sound"): S's NodeDataChanged drops the spent watch on S, and
	// the waiter keeps waiting on P, which is not known head.
	Sound AdaptRule = iota
	// SecondChangeIsHead ("secondChangeIsHead"): S's NodeDataChanged taken
	// to mean that P is the head (must fail MutualExclusion).
	SecondChangeIsHead
	// SecondDropsTarget ("secondDropsTarget"): SecondMarked drops the
	// watch on P too (must fail StarvationFree).
	SecondDropsTarget
)

var adaptRuleNames = [...]string{"sound", "secondChangeIsHead", "secondDropsTarget"}

// String returns the spec's name of the rule.
func (r AdaptRule) String() string {
	if int(r) < len(adaptRuleNames) {
		return adaptRuleNames[r]
	}
	return "?"
}

// ParseAdaptRule returns the rule the spec names name.
func ParseAdaptRule(name string) (AdaptRule, error) {
	for i, n := range adaptRuleNames {
		if n == name {
			return AdaptRule(i), nil
		}
	}
	return 0, fmt.Errorf("predadaptive: AdaptRule %q is not one of %v", name, adaptRuleNames)
}

// Constants are PredecessorLockAdaptive's: PredecessorLockMarked's and
// its own.
type Constants struct {
	predmarked.Constants
	// Adaptive are the clients (indices into Clients) that choose their
	// rule per predecessor; none of them is Plain.
	Adaptive []int
	// AdaptRule is the protocol or a must-fail mutant.
	AdaptRule AdaptRule
}

// Spec is the state machine of PredecessorLockAdaptive (ASpec, AFairSpec).
type Spec struct {
	*predmarked.Spec
	Adaptive  []bool // Adaptive as a predicate on clients
	AdaptRule AdaptRule
}

// Module returns the TLA+ module the Spec mirrors.
func (sp *Spec) Module() string { return "PredecessorLockAdaptive" }

// New checks the constants (the module's ASSUMEs) and returns the Spec.
func New(k Constants) (*Spec, error) {
	if k.WithForgery {
		return nil, fmt.Errorf("predadaptive: a forged mark is PredecessorLockMarkedForged's, not this module's")
	}
	m, err := predmarked.New(k.Constants, false)
	if err != nil {
		return nil, err
	}
	if k.AdaptRule > SecondDropsTarget {
		return nil, fmt.Errorf("predadaptive: unknown AdaptRule %d", k.AdaptRule)
	}
	adaptive := make([]bool, m.N())
	for _, c := range k.Adaptive {
		if c < 0 || c >= m.N() || m.Plain[c] {
			return nil, fmt.Errorf("predadaptive: Adaptive client %d is not in Clients \\ Plain", c)
		}
		adaptive[c] = true
	}
	return &Spec{Spec: m, Adaptive: adaptive, AdaptRule: k.AdaptRule}, nil
}

// Action indices of the module's own actions, after predmarked's.
var (
	ActAListChildren     = predmarked.ActForgeMark + 1
	ActAWatchSecond      = predmarked.ActForgeMark + 2
	ActAWatchPredecessor = predmarked.ActForgeMark + 3
	ActSecondMarked      = predmarked.ActForgeMark + 4
	ActAGrantOnHeadGone  = predmarked.ActForgeMark + 5
	ActAPredecessorGone  = predmarked.ActForgeMark + 6
	ActSkipMark          = predmarked.ActForgeMark + 7
	numActions           = predmarked.ActForgeMark + 8
)

// ownNames are the module's own actions' names, from ActAListChildren on.
var ownNames = []string{"AListChildren", "AWatchSecond", "AWatchPredecessor", "SecondMarked",
	"AGrantOnHeadGone", "APredecessorGone", "SkipMark"}

// Each kind of client's steps in the order of its disjunction (PClientNext,
// MMClientNext, AClientNext): TLC generates successors in this order.
var (
	pClientNext = []uint8{recipe.ActRequestLock, recipe.ActCreateOk, recipe.ActCreateReplyLost, recipe.ActFindOwnNode,
		recipe.ActListChildren, predlock.ActWatchSecond, recipe.ActWatchPredecessor, recipe.ActPredecessorGone,
		recipe.ActGrantOnHeadGone, recipe.ActIgnoreNotification, recipe.ActGrant, predlock.ActWrite,
		recipe.ActRelease, recipe.ActCancel, recipe.ActLearnExpiry}
	mmClientNext = []uint8{recipe.ActRequestLock, recipe.ActCreateOk, recipe.ActCreateReplyLost, recipe.ActFindOwnNode,
		predmarked.ActMListChildren, predmarked.ActMWatchPredecessor, predmarked.ActMarkSeen, predmarked.ActRearm,
		predmarked.ActGrantOnMarkedGone, predmarked.ActUnmarkedGone, recipe.ActIgnoreNotification, recipe.ActGrant,
		predmarked.ActMark, predmarked.ActWatchOwn, predlock.ActWrite, recipe.ActRelease, recipe.ActCancel,
		recipe.ActLearnExpiry}
	aClientNext = []uint8{recipe.ActRequestLock, recipe.ActCreateOk, recipe.ActCreateReplyLost, recipe.ActFindOwnNode,
		ActAListChildren, ActAWatchSecond, ActAWatchPredecessor, predmarked.ActMarkSeen, predmarked.ActRearm,
		ActSecondMarked, predmarked.ActGrantOnMarkedGone, ActAGrantOnHeadGone, ActAPredecessorGone,
		recipe.ActIgnoreNotification, recipe.ActGrant, predmarked.ActMark, ActSkipMark, predmarked.ActWatchOwn,
		predlock.ActWrite, recipe.ActRelease, recipe.ActCancel, recipe.ActLearnExpiry}
)

// ownActions are the module's own client actions, by index from ActAListChildren.
var ownActions = []func(sp *Spec, s *State, c int, t *State) model.Guard{
	(*Spec).AListChildren, (*Spec).AWatchSecond, (*Spec).AWatchPredecessor, (*Spec).SecondMarked,
	(*Spec).AGrantOnHeadGone, (*Spec).APredecessorGone, (*Spec).SkipMark,
}

// markerWaits are the pure marking client's waiting steps an adaptive
// client does not take (it lists and watches by today's rule).
var markerWaits = map[uint8]bool{predmarked.ActMListChildren: true, predmarked.ActMWatchPredecessor: true,
	predmarked.ActUnmarkedGone: true}

// ActionName returns the name TLC gives l's action in the module.
func ActionName(l model.Label) string {
	if l.Action >= ActAListChildren && l.Action < numActions {
		return ownNames[l.Action-ActAListChildren]
	}
	return predmarked.ActionName(l)
}

// ActionName is the package's ActionName, as a method for the explorer.
func (sp *Spec) ActionName(l model.Label) string { return ActionName(l) }

// LabelString renders l with its parameters, e.g. "SecondMarked(c3)".
func (sp *Spec) LabelString(l model.Label) string {
	if l.Action >= ActAListChildren && l.Action < numActions {
		return fmt.Sprintf("%s(%s)", ActionName(l), sp.Clients[l.Client])
	}
	return sp.Spec.LabelString(l)
}

// IsProgress reports whether l is a step of its client's AProgress (an
// adaptive client's; every own action but none of the user's choices) or
// MProgress.
func (sp *Spec) IsProgress(l model.Label) bool {
	return (l.Action >= ActAListChildren && l.Action < numActions) || sp.Spec.IsProgress(l)
}

// Step applies the action instance l to s, writing the successor into t.
func (sp *Spec) Step(s *State, l model.Label, t *State) model.Guard {
	if l.Action >= ActAListChildren && l.Action < numActions {
		if int(l.Client) < 0 || int(l.Client) >= sp.N() {
			return "unknown client"
		}
		return ownActions[l.Action-ActAListChildren](sp, s, int(l.Client), t)
	}
	if l.Action == predmarked.ActForgeMark {
		return "ForgeMark is not an action of " + model.Guard(sp.Module())
	}
	if markerWaits[l.Action] && int(l.Client) >= 0 && int(l.Client) < sp.N() && sp.Adaptive[l.Client] {
		return `c \in Marking \ Adaptive`
	}
	return sp.Spec.Step(s, l, t)
}

// Next calls emit with every successor of s in TLC's order: for each
// Plain client PClientNext's disjuncts in order, for each pure marking
// client MMClientNext's, for each adaptive client AClientNext's; then
// MExpireSession for each live session; MPauseClient and MResumeClient for
// each client; MDeleteLands for each pending delete. The state passed to
// emit is only valid during the call.
func (sp *Spec) Next(s *State, emit func(model.Label, *State)) {
	var t State
	try := func(l model.Label) {
		if sp.Step(s, l, &t) == model.Enabled {
			emit(l, &t)
		}
	}
	kinds := []struct {
		is   func(c int) bool
		acts []uint8
	}{
		{func(c int) bool { return sp.Plain[c] }, pClientNext},
		{func(c int) bool { return !sp.Plain[c] && !sp.Adaptive[c] }, mmClientNext},
		{func(c int) bool { return sp.Adaptive[c] }, aClientNext},
	}
	for _, k := range kinds {
		for c := range sp.N() {
			if !k.is(c) {
				continue
			}
			for _, a := range k.acts {
				try(model.Label{Action: a, Client: int16(c)})
			}
		}
	}
	predmarked.EnvLabels(s, sp.N(), try)
}

// Invariants is the module's table of state invariants: PredecessorLockMarked's.
func (sp *Spec) Invariants() map[string]func(*State) bool { return sp.Spec.Invariants() }

// ActionProperties is the module's table of action properties:
// PredecessorLockMarked's.
func (sp *Spec) ActionProperties() map[string]func(s, t *State) bool {
	return sp.Spec.ActionProperties()
}
