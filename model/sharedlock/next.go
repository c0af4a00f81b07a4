package sharedlock

import (
	"fmt"
	"slices"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/traceevent"
)

// Action indices (model.Label.Action): recipe.ActRequestLock ...
// recipe.ActDeleteLands for the actions both lock specs have, and this
// module's own from recipe.NumShared on.
const (
	ActDowngrade = recipe.NumShared + iota
	ActDowngradeByReleaseAcquire
	ActListChildrenPredecessor
	ActGrantOnAnyHeadGone
	ActDowngradeReplyLost
	ActDowngradeReplyLostKeepsWrite
	numActions
)

// ActionNames are the spec's names of the actions, by index.
var ActionNames = recipe.Names(traceevent.Downgrade, "DowngradeByReleaseAcquire", "ListChildrenPredecessor", "GrantOnAnyHeadGone",
	"DowngradeReplyLost", "DowngradeReplyLostKeepsWrite")

// clientAction is the signature of the actions with a client parameter.
type clientAction = func(sp *Spec, s *State, c int, t *State) model.Guard

var clientActions = [numActions]clientAction{
	recipe.ActCreateOk:              (*Spec).CreateOk,
	recipe.ActCreateReplyLost:       (*Spec).CreateReplyLost,
	recipe.ActFindOwnNode:           on(recipe.Spec[Kind].FindOwnNode, false),
	recipe.ActListChildren:          (*Spec).ListChildren,
	recipe.ActWatchPredecessor:      on(recipe.Spec[Kind].WatchPredecessor, false),
	recipe.ActPredecessorGone:       on(recipe.Spec[Kind].PredecessorGone, false),
	recipe.ActGrantOnHeadGone:       (*Spec).GrantOnHeadGone,
	recipe.ActIgnoreNotification:    on(recipe.Spec[Kind].IgnoreNotification, false),
	recipe.ActGrant:                 (*Spec).Grant,
	ActDowngrade:                    (*Spec).Downgrade,
	recipe.ActRelease:               on(recipe.Spec[Kind].Release, true),
	recipe.ActCancel:                on(recipe.Spec[Kind].Cancel, true),
	recipe.ActLearnExpiry:           on(recipe.Spec[Kind].LearnExpiry, true),
	recipe.ActPauseClient:           (*Spec).PauseClient,
	recipe.ActResumeClient:          on(recipe.Spec[Kind].ResumeClient, false),
	ActDowngradeByReleaseAcquire:    (*Spec).DowngradeByReleaseAcquire,
	ActListChildrenPredecessor:      (*Spec).ListChildrenPredecessor,
	ActGrantOnAnyHeadGone:           (*Spec).GrantOnAnyHeadGone,
	ActDowngradeReplyLost:           (*Spec).DowngradeReplyLost,
	ActDowngradeReplyLostKeepsWrite: (*Spec).DowngradeReplyLostKeepsWrite,
}

// clientNext is ClientNext(c) of each module, in the order it lists the
// actions (RequestLock(c, k) for k in Kinds first).
var clientNext = map[Variant][]uint8{
	Base: {recipe.ActRequestLock, recipe.ActCreateOk, recipe.ActCreateReplyLost, recipe.ActFindOwnNode, recipe.ActListChildren,
		recipe.ActWatchPredecessor, recipe.ActPredecessorGone, recipe.ActGrantOnHeadGone, recipe.ActIgnoreNotification, recipe.ActGrant,
		ActDowngrade, ActDowngradeReplyLost, recipe.ActRelease, recipe.ActCancel, recipe.ActLearnExpiry},
	DowngradeLost: {recipe.ActRequestLock, recipe.ActCreateOk, recipe.ActCreateReplyLost, recipe.ActFindOwnNode, recipe.ActListChildren,
		recipe.ActWatchPredecessor, recipe.ActPredecessorGone, recipe.ActGrantOnHeadGone, recipe.ActIgnoreNotification, recipe.ActGrant,
		ActDowngrade, ActDowngradeReplyLostKeepsWrite, recipe.ActRelease, recipe.ActCancel, recipe.ActLearnExpiry},
	DowngradeReleaseAcquire: {recipe.ActRequestLock, recipe.ActCreateOk, recipe.ActCreateReplyLost, recipe.ActFindOwnNode,
		recipe.ActListChildren, recipe.ActWatchPredecessor, recipe.ActPredecessorGone, recipe.ActIgnoreNotification, recipe.ActGrant,
		ActDowngradeByReleaseAcquire, recipe.ActRelease, recipe.ActCancel, recipe.ActLearnExpiry},
	ReaderWatchesPredecessor: {recipe.ActRequestLock, recipe.ActCreateOk, recipe.ActCreateReplyLost, recipe.ActFindOwnNode,
		ActListChildrenPredecessor, recipe.ActWatchPredecessor, recipe.ActPredecessorGone, recipe.ActIgnoreNotification,
		recipe.ActGrant, ActDowngrade, recipe.ActRelease, recipe.ActCancel, recipe.ActLearnExpiry},
	WriterShortcut: {recipe.ActRequestLock, recipe.ActCreateOk, recipe.ActCreateReplyLost, recipe.ActFindOwnNode, recipe.ActListChildren,
		recipe.ActWatchPredecessor, recipe.ActPredecessorGone, ActGrantOnAnyHeadGone, recipe.ActIgnoreNotification, recipe.ActGrant,
		ActDowngrade, recipe.ActRelease, recipe.ActCancel, recipe.ActLearnExpiry},
}

// progress is Progress(c): the steps FairSpec makes weakly fair.
var progress = map[Variant][]uint8{
	Base: {recipe.ActCreateOk, recipe.ActCreateReplyLost, recipe.ActFindOwnNode, recipe.ActListChildren, recipe.ActWatchPredecessor,
		recipe.ActPredecessorGone, recipe.ActGrantOnHeadGone, recipe.ActIgnoreNotification, recipe.ActGrant, recipe.ActRelease,
		recipe.ActLearnExpiry},
}

// relation is the next-state relation as recipe.Relation.Next runs it:
// RequestLock, without a table entry, is taken through Step for each kind.
var relation = recipe.Relation[*Spec, State, Kind]{
	Table: clientActions[:],
	Args:  int16(len(Kinds)),
	Step:  (*Spec).Step,
	ExpireSession: func(sp *Spec, s *State, x Session, t *State) model.Guard {
		return kindKept(s, t, sp.r.ExpireSession(&s.State, x, &t.State))
	},
	DeleteLands: func(sp *Spec, s *State, u Uuid, t *State) model.Guard {
		return kindKept(s, t, sp.r.DeleteLands(&s.State, u, &t.State))
	},
}

// ClientNext returns the client actions of the spec's module, in order.
func (sp *Spec) ClientNext() []uint8 { return clientNext[sp.Variant] }

// Step applies the action instance l to s, writing the successor into t.
// RequestLock's kind is Arg (0 read, 1 write), ExpireSession's session
// <<Client, Arg>>.
func (sp *Spec) Step(s *State, l model.Label, t *State) model.Guard {
	if int(l.Action) >= int(numActions) {
		return "unknown action"
	}
	if l.Client < 0 || int(l.Client) >= sp.N() {
		return "unknown client"
	}
	switch l.Action {
	case recipe.ActExpireSession:
		return kindKept(s, t, sp.r.ExpireSession(&s.State, Session{C: int(l.Client), K: int(l.Arg)}, &t.State))
	case recipe.ActDeleteLands:
		return kindKept(s, t, sp.r.DeleteLands(&s.State, Uuid{C: int(l.Client), R: int(l.Arg)}, &t.State))
	case recipe.ActRequestLock:
		if l.Arg < 0 || int(l.Arg) >= len(Kinds) {
			return "unknown kind"
		}
		return sp.RequestLock(s, int(l.Client), Kinds[l.Arg], t)
	}
	return clientActions[l.Action](sp, s, int(l.Client), t)
}

// Next calls emit with every successor of s in TLC's order: for each
// client, ClientNext(c) in order (RequestLock(c, "read") before
// RequestLock(c, "write")); then ExpireSession for each live session in
// Sessions order; then PauseClient and ResumeClient for each client.
func (sp *Spec) Next(s *State, emit func(model.Label, *State)) {
	var t State
	relation.Next(sp, s, &s.State, &t, sp.ClientNext(), emit)
}

// ActionName returns the spec name of l's action.
func ActionName(l model.Label) string { return recipe.ActionName(ActionNames, l.Action) }

// LabelString renders l with its parameters; RequestLock's with its kind.
func (sp *Spec) LabelString(l model.Label) string {
	if l.Action == recipe.ActRequestLock && l.Client >= 0 && int(l.Client) < sp.N() && l.Arg >= 0 && int(l.Arg) < len(Kinds) {
		return fmt.Sprintf("%s(%s, %q)", ActionName(l), sp.Clients[l.Client], Kinds[l.Arg].String())
	}
	return recipe.LabelString(ActionNames, sp.Clients, l)
}

// IsProgress reports whether l is a step of Progress(c) for its client.
func (sp *Spec) IsProgress(l model.Label) bool {
	return slices.Contains(progress[sp.Variant], l.Action)
}

// HasFairSpec reports whether the module defines FairSpec for its own
// next-state relation.
func (sp *Spec) HasFairSpec() bool { return progress[sp.Variant] != nil }
