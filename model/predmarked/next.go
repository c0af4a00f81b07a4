package predmarked

import (
	"fmt"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/internal/cow"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/recipe"
)

// Action indices (model.Label.Action): PredecessorLock's for the steps the
// module takes through a wrapper (recipe.ActRequestLock is MRequestLock,
// recipe.ActListChildren PListChildren, ...), then the module's own.
var (
	ActMListChildren     = uint8(len(predlock.ActionNames))
	ActMWatchPredecessor = ActMListChildren + 1
	ActMarkSeen          = ActMListChildren + 2
	ActRearm             = ActMListChildren + 3
	ActGrantOnMarkedGone = ActMListChildren + 4
	ActUnmarkedGone      = ActMListChildren + 5
	ActMark              = ActMListChildren + 6
	ActWatchOwn          = ActMListChildren + 7
	ActForgeMark         = ActMListChildren + 8
	numActions           = ActMListChildren + 9
)

// ownNames are the module's own actions' names, from ActMListChildren on.
var ownNames = []string{"MListChildren", "MWatchPredecessor", "MarkSeen", "Rearm", "GrantOnMarkedGone",
	"UnmarkedGone", "Mark", "WatchOwn", "ForgeMark"}

// wrapped names PredecessorLock's steps as the module's wrappers do: M...
// with the marker's variables unchanged (or reset, or set at the grant),
// P... a Plain client's waiting step.
var wrapped = map[uint8]string{
	recipe.ActRequestLock: "MRequestLock", recipe.ActCreateOk: "MCreateOk",
	recipe.ActCreateReplyLost: "MCreateReplyLost", recipe.ActFindOwnNode: "MFindOwnNode",
	recipe.ActListChildren: "PListChildren", predlock.ActWatchSecond: "PWatchSecond",
	recipe.ActWatchPredecessor: "PWatchPredecessor", recipe.ActPredecessorGone: "PPredecessorGone",
	recipe.ActGrantOnHeadGone: "PGrantOnHeadGone", recipe.ActIgnoreNotification: "MIgnoreNotification",
	recipe.ActGrant: "MGrant", predlock.ActWrite: "MWrite", recipe.ActRelease: "MRelease",
	recipe.ActCancel: "MCancel", recipe.ActLearnExpiry: "MLearnExpiry",
	recipe.ActExpireSession: "MExpireSession", recipe.ActPauseClient: "MPauseClient",
	recipe.ActResumeClient: "MResumeClient", recipe.ActDeleteLands: "MDeleteLands",
}

// plainOnly are the wrapped steps only a Plain client takes (PWaits).
var plainOnly = map[uint8]bool{recipe.ActListChildren: true, predlock.ActWatchSecond: true,
	recipe.ActWatchPredecessor: true, recipe.ActPredecessorGone: true, recipe.ActGrantOnHeadGone: true}

// clientNext is MClientNext(c)'s disjuncts in order (PWaits and Waits
// expanded): TLC generates successors in this order.
var clientNext = []uint8{recipe.ActRequestLock, recipe.ActCreateOk, recipe.ActCreateReplyLost, recipe.ActFindOwnNode,
	recipe.ActListChildren, predlock.ActWatchSecond, recipe.ActWatchPredecessor, recipe.ActPredecessorGone,
	recipe.ActGrantOnHeadGone,
	ActMListChildren, ActMWatchPredecessor, ActMarkSeen, ActRearm, ActGrantOnMarkedGone, ActUnmarkedGone,
	recipe.ActIgnoreNotification, recipe.ActGrant, ActMark, ActWatchOwn, predlock.ActWrite,
	recipe.ActRelease, recipe.ActCancel, recipe.ActLearnExpiry}

// progress is MProgress(c): the steps of a request MFairSpec makes weakly
// fair (requesting, writing, cancelling and forging get none).
var progress = map[uint8]bool{recipe.ActCreateOk: true, recipe.ActCreateReplyLost: true,
	recipe.ActFindOwnNode: true, recipe.ActIgnoreNotification: true,
	recipe.ActListChildren: true, predlock.ActWatchSecond: true, recipe.ActWatchPredecessor: true,
	recipe.ActPredecessorGone: true, recipe.ActGrantOnHeadGone: true,
	ActMListChildren: true, ActMWatchPredecessor: true, ActMarkSeen: true, ActRearm: true,
	ActGrantOnMarkedGone: true, ActUnmarkedGone: true,
	recipe.ActGrant: true, ActMark: true, ActWatchOwn: true, recipe.ActRelease: true, recipe.ActLearnExpiry: true}

// ownActions are the module's own client actions, by index from ActMListChildren.
var ownActions = []func(sp *Spec, s *State, c int, t *State) model.Guard{
	(*Spec).MListChildren, (*Spec).MWatchPredecessor, (*Spec).MarkSeen, (*Spec).Rearm,
	(*Spec).GrantOnMarkedGone, (*Spec).UnmarkedGone, (*Spec).Mark, (*Spec).WatchOwn,
}

// ActionName returns the name TLC gives l's action in the module.
func ActionName(l model.Label) string {
	if l.Action >= ActMListChildren && l.Action < numActions {
		return ownNames[l.Action-ActMListChildren]
	}
	if n, ok := wrapped[l.Action]; ok {
		return n
	}
	return "?"
}

// ActionName is the package's ActionName, as a method for the explorer.
func (sp *Spec) ActionName(l model.Label) string { return ActionName(l) }

// LabelString renders l with its parameters, e.g. "MarkSeen(c2)",
// "MExpireSession(<<c1, 2>>)", "ForgeMark(1)".
func (sp *Spec) LabelString(l model.Label) string {
	switch {
	case l.Action == ActForgeMark:
		return fmt.Sprintf("ForgeMark(%d)", l.Arg)
	case l.Action >= ActMListChildren:
		return fmt.Sprintf("%s(%s)", ActionName(l), sp.Clients[l.Client])
	case l.Action == recipe.ActExpireSession:
		return fmt.Sprintf("%s(<<%s, %d>>)", ActionName(l), sp.Clients[l.Client], l.Arg)
	case l.Action == recipe.ActDeleteLands:
		return fmt.Sprintf("%s(uuid <<%s, %d>>)", ActionName(l), sp.Clients[l.Client], l.Arg)
	}
	return fmt.Sprintf("%s(%s)", ActionName(l), sp.Clients[l.Client])
}

// IsProgress reports whether l is a step of MProgress(l.Client).
func (sp *Spec) IsProgress(l model.Label) bool { return progress[l.Action] }

// Step applies the action instance l to s, writing the successor into t.
func (sp *Spec) Step(s *State, l model.Label, t *State) model.Guard {
	if l.Action == ActForgeMark {
		return sp.ForgeMark(s, int(l.Arg), t)
	}
	if int(l.Client) < 0 || int(l.Client) >= sp.N() {
		return "unknown client"
	}
	c := int(l.Client)
	if l.Action >= ActMListChildren && l.Action < ActForgeMark {
		return ownActions[l.Action-ActMListChildren](sp, s, c, t)
	}
	if _, ok := wrapped[l.Action]; !ok {
		return "not an action of " + model.Guard(sp.Module())
	}
	if plainOnly[l.Action] && !sp.Plain[c] {
		return `c \in Plain`
	}
	g := sp.Spec.Step(&s.State, l, &t.State)
	if g != model.Enabled {
		return g
	}
	t.Marks, t.Seen, t.HoldStep = s.Marks, s.Seen, s.HoldStep
	switch l.Action {
	case recipe.ActGrant:
		if sp.Marking(c) {
			t.HoldStep = cow.With(s.HoldStep, c, HoldMark)
		} else if s.HoldStep[c] != HoldNone {
			t.HoldStep = cow.With(s.HoldStep, c, HoldNone)
		}
	case recipe.ActRelease, recipe.ActCancel, recipe.ActLearnExpiry:
		if s.Seen[c] != SeenNone {
			t.Seen = cow.With(s.Seen, c, SeenNone)
		}
		if s.HoldStep[c] != HoldNone {
			t.HoldStep = cow.With(s.HoldStep, c, HoldNone)
		}
	}
	return model.Enabled
}

// Next calls emit with every successor of s in TLC's order: for each
// client, MClientNext's disjuncts in order (clientNext); then
// MExpireSession for each live session; MPauseClient and MResumeClient for
// each client; MDeleteLands for each pending delete; and, in the Forged
// module, ForgeMark(s) for each unmarked node in seq order. The state
// passed to emit is only valid during the call.
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
	EnvLabels(s, sp.N(), try)
	if sp.Forged {
		for _, n := range s.Nodes {
			try(model.Label{Action: ActForgeMark, Client: -1, Arg: int16(n.Seq)})
		}
	}
}

// EnvLabels calls try with the labels of the steps no client program
// takes, in TLC's order: MExpireSession for each live session,
// MPauseClient and MResumeClient for each of the n clients, MDeleteLands
// for each pending delete. Every module built on this one (the adaptive
// marker, with or without an operator) takes them after its clients' steps.
func EnvLabels(s *State, n int, try func(model.Label)) {
	for _, x := range s.Live {
		try(model.Label{Action: recipe.ActExpireSession, Client: int16(x.C), Arg: int16(x.K)})
	}
	for c := range n {
		try(model.Label{Action: recipe.ActPauseClient, Client: int16(c)})
		try(model.Label{Action: recipe.ActResumeClient, Client: int16(c)})
	}
	for _, p := range s.Pending {
		try(model.Label{Action: recipe.ActDeleteLands, Client: int16(p.Uuid.C), Arg: int16(p.Uuid.R)})
	}
}
