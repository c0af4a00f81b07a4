package predlock

import (
	"slices"

	"github.com/zklock/zklock/traceevent"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/zk"
)

// Action indices (model.Label.Action): recipe.ActRequestLock ...
// recipe.ActDeleteLands for the actions both lock specs have, and this
// module's own from recipe.NumShared on.
const (
	ActWrite = recipe.NumShared + iota
	ActListChildrenWatchParent
	ActPredecessorGoneIsGrant
	ActCreateReplyLostRetry
	ActCancelKnown
	ActDropDelete
	ActGrantSeqToken
	ActRecreateParent
	ActWatchSecond
	ActGrantOnAnyEvent
	numActions
)

// ActionNames are the spec's names of the actions, by index.
var ActionNames = recipe.Names("Write", "ListChildrenWatchParent", "PredecessorGoneIsGrant", "CreateReplyLostRetry", "CancelKnown", "DropDelete", "GrantSeqToken", "RecreateParent", traceevent.WatchSecond, "GrantOnAnyEvent")

// clientAction is the signature of the actions with a client parameter.
type clientAction = func(sp *Spec, s *State, c int, t *State) model.Guard

var clientActions = [numActions]clientAction{
	recipe.ActRequestLock:        (*Spec).RequestLock,
	recipe.ActCreateOk:           (*Spec).CreateOk,
	recipe.ActCreateReplyLost:    (*Spec).CreateReplyLost,
	recipe.ActFindOwnNode:        (*Spec).FindOwnNode,
	recipe.ActListChildren:       (*Spec).ListChildren,
	recipe.ActWatchPredecessor:   kept(recipe.Spec[zk.NoKind].WatchPredecessor),
	recipe.ActPredecessorGone:    kept(recipe.Spec[zk.NoKind].PredecessorGone),
	recipe.ActGrantOnHeadGone:    (*Spec).GrantOnHeadGone,
	recipe.ActIgnoreNotification: kept(recipe.Spec[zk.NoKind].IgnoreNotification),
	recipe.ActGrant:              (*Spec).Grant,
	ActWrite:                     (*Spec).Write,
	recipe.ActRelease:            idled(recipe.Spec[zk.NoKind].Release),
	recipe.ActCancel:             idled(recipe.Spec[zk.NoKind].Cancel),
	recipe.ActLearnExpiry:        idled(recipe.Spec[zk.NoKind].LearnExpiry),
	recipe.ActPauseClient:        (*Spec).PauseClient,
	recipe.ActResumeClient:       kept(recipe.Spec[zk.NoKind].ResumeClient),
	ActListChildrenWatchParent:   (*Spec).ListChildrenWatchParent,
	ActPredecessorGoneIsGrant:    (*Spec).PredecessorGoneIsGrant,
	ActCreateReplyLostRetry:      (*Spec).CreateReplyLostRetry,
	ActCancelKnown:               (*Spec).CancelKnown,
	ActGrantSeqToken:             (*Spec).GrantSeqToken,
	ActWatchSecond:               (*Spec).WatchSecond,
	ActGrantOnAnyEvent:           (*Spec).GrantOnAnyEvent,
}

// ClientNext is the disjunction of the client actions of each module, in
// the order the module lists them (TLC generates successors in that order).
var clientNext = map[Variant][]uint8{
	Base: {recipe.ActRequestLock, recipe.ActCreateOk, recipe.ActCreateReplyLost, recipe.ActFindOwnNode, recipe.ActListChildren,
		ActWatchSecond, recipe.ActWatchPredecessor, recipe.ActPredecessorGone, recipe.ActGrantOnHeadGone, recipe.ActIgnoreNotification, recipe.ActGrant,
		ActWrite, recipe.ActRelease, recipe.ActCancel, recipe.ActLearnExpiry},
	HerdParent: {recipe.ActRequestLock, recipe.ActCreateOk, recipe.ActCreateReplyLost, recipe.ActFindOwnNode,
		ActListChildrenWatchParent, recipe.ActPredecessorGone, recipe.ActIgnoreNotification, recipe.ActGrant, ActWrite,
		recipe.ActRelease, recipe.ActCancel, recipe.ActLearnExpiry},
	NotifyIsGrant: {recipe.ActRequestLock, recipe.ActCreateOk, recipe.ActCreateReplyLost, recipe.ActFindOwnNode, recipe.ActListChildren,
		ActWatchSecond, recipe.ActWatchPredecessor, ActPredecessorGoneIsGrant, recipe.ActIgnoreNotification, recipe.ActGrant, ActWrite,
		recipe.ActRelease, recipe.ActCancel, recipe.ActLearnExpiry},
	BlindRetry: {recipe.ActRequestLock, recipe.ActCreateOk, ActCreateReplyLostRetry, recipe.ActListChildren,
		ActWatchSecond, recipe.ActWatchPredecessor, recipe.ActPredecessorGone, recipe.ActIgnoreNotification, recipe.ActGrant, ActWrite,
		recipe.ActRelease, ActCancelKnown, recipe.ActLearnExpiry},
	DropDelete: {recipe.ActRequestLock, recipe.ActCreateOk, recipe.ActCreateReplyLost, recipe.ActFindOwnNode, recipe.ActListChildren,
		ActWatchSecond, recipe.ActWatchPredecessor, recipe.ActPredecessorGone, recipe.ActGrantOnHeadGone, recipe.ActIgnoreNotification, recipe.ActGrant,
		ActWrite, recipe.ActRelease, recipe.ActCancel, recipe.ActLearnExpiry},
	SeqToken: {recipe.ActRequestLock, recipe.ActCreateOk, recipe.ActCreateReplyLost, recipe.ActFindOwnNode, recipe.ActListChildren,
		ActWatchSecond, recipe.ActWatchPredecessor, recipe.ActPredecessorGone, recipe.ActIgnoreNotification, ActGrantSeqToken, ActWrite,
		recipe.ActRelease, recipe.ActCancel, recipe.ActLearnExpiry},
	StaleEvent: {recipe.ActRequestLock, recipe.ActCreateOk, recipe.ActCreateReplyLost, recipe.ActFindOwnNode, recipe.ActListChildren,
		ActWatchSecond, recipe.ActWatchPredecessor, recipe.ActPredecessorGone, ActGrantOnAnyEvent, recipe.ActIgnoreNotification,
		recipe.ActGrant, ActWrite, recipe.ActRelease, recipe.ActCancel, recipe.ActLearnExpiry},
}

// ParentReset adds an environment action to the base client steps;
// SeqTokenNoReset is SeqToken's client steps without it.
func init() {
	clientNext[ParentReset] = clientNext[Base]
	clientNext[SeqTokenNoReset] = clientNext[SeqToken]
}

// progress is Progress(c) (BlindProgress(c) for BlindRetry): the steps of a
// request that FairSpec makes weakly fair. Requesting, cancelling and
// writing are the user's choice.
var progress = map[Variant][]uint8{
	Base: {recipe.ActCreateOk, recipe.ActCreateReplyLost, recipe.ActFindOwnNode, recipe.ActListChildren, ActWatchSecond, recipe.ActWatchPredecessor,
		recipe.ActPredecessorGone, recipe.ActGrantOnHeadGone, recipe.ActIgnoreNotification, recipe.ActGrant, recipe.ActRelease,
		recipe.ActLearnExpiry},
	BlindRetry: {recipe.ActCreateOk, ActCreateReplyLostRetry, recipe.ActListChildren, ActWatchSecond, recipe.ActWatchPredecessor,
		recipe.ActPredecessorGone, recipe.ActIgnoreNotification, recipe.ActGrant, recipe.ActRelease, recipe.ActLearnExpiry},
	DropDelete: {recipe.ActCreateOk, recipe.ActCreateReplyLost, recipe.ActFindOwnNode, recipe.ActListChildren, ActWatchSecond, recipe.ActWatchPredecessor,
		recipe.ActPredecessorGone, recipe.ActGrantOnHeadGone, recipe.ActIgnoreNotification, recipe.ActGrant, recipe.ActRelease,
		recipe.ActLearnExpiry},
}

// relation is the next-state relation as recipe.Relation.Next runs it.
var relation = recipe.Relation[*Spec, State, zk.NoKind]{
	Table: clientActions[:],
	Step:  (*Spec).Step,
	ExpireSession: func(sp *Spec, s *State, x Session, t *State) model.Guard {
		return keep(s, t, sp.r.ExpireSession(&s.State, x, &t.State))
	},
	DeleteLands: func(sp *Spec, s *State, u Uuid, t *State) model.Guard {
		return keep(s, t, sp.r.DeleteLands(&s.State, u, &t.State))
	},
}

// ClientNext returns the client actions of the spec's module, in order.
func (sp *Spec) ClientNext() []uint8 { return clientNext[sp.Variant] }

// Step applies the action instance l to s, writing the successor into t.
func (sp *Spec) Step(s *State, l model.Label, t *State) model.Guard {
	if int(l.Action) >= int(numActions) {
		return "unknown action"
	}
	if l.Action == ActRecreateParent {
		if !sp.Variant.resets() {
			return "RecreateParent is not an action of " + model.Guard(sp.Variant.Module())
		}
		return sp.RecreateParent(s, t)
	}
	if l.Action == recipe.ActExpireSession || l.Action == recipe.ActDeleteLands || l.Action == ActDropDelete {
		if l.Client < 0 || int(l.Client) >= sp.N() {
			return "unknown client"
		}
		switch l.Action {
		case recipe.ActDeleteLands:
			return keep(s, t, sp.r.DeleteLands(&s.State, Uuid{C: int(l.Client), R: int(l.Arg)}, &t.State))
		case ActDropDelete:
			if sp.Variant != DropDelete {
				return "not an action of " + model.Guard(sp.Variant.Module())
			}
			return sp.DropDelete(s, Uuid{C: int(l.Client), R: int(l.Arg)}, t)
		}
		return keep(s, t, sp.r.ExpireSession(&s.State, Session{C: int(l.Client), K: int(l.Arg)}, &t.State))
	}
	if clientActions[l.Action] == nil {
		return "not a client action"
	}
	if l.Client < 0 || int(l.Client) >= sp.N() {
		return "unknown client"
	}
	return clientActions[l.Action](sp, s, int(l.Client), t)
}

// Next calls emit with every successor of s under the module's next-state
// relation, in TLC's order: for each client c, the client actions in the
// order of ClientNext(c); then ExpireSession(s) for each session in
// Sessions order; then PauseClient(c) and ResumeClient(c) for each client;
// then, in the variants that have it, RecreateParent. The state passed to
// emit is only valid during the call.
func (sp *Spec) Next(s *State, emit func(model.Label, *State)) {
	var t State
	relation.Next(sp, s, &s.State, &t, sp.ClientNext(), emit)
	// then the mutant's DropDelete(p) for each pending p
	pend := s.Pending
	if sp.Variant == DropDelete {
		for _, p := range pend {
			if sp.DropDelete(s, p.Uuid, &t) == model.Enabled {
				emit(model.Label{Action: ActDropDelete, Client: int16(p.Uuid.C), Arg: int16(p.Uuid.R)}, &t)
			}
		}
	}
	if sp.Variant.resets() && sp.RecreateParent(s, &t) == model.Enabled {
		emit(model.Label{Action: ActRecreateParent, Client: -1}, &t)
	}
}

// ActionName returns the spec name of l's action.
func ActionName(l model.Label) string { return recipe.ActionName(ActionNames, l.Action) }

// LabelString renders l with its parameters, e.g. "ExpireSession(<<c1, 2>>)"
// (DropDelete's is a uuid, as DeleteLands').
func (sp *Spec) LabelString(l model.Label) string {
	return recipe.LabelString(ActionNames, sp.Clients, l, ActDropDelete)
}

// IsProgress reports whether l is a step of Progress(c) (BlindProgress(c)
// in BlindRetry) for its client: the steps FairSpec makes weakly fair.
func (sp *Spec) IsProgress(l model.Label) bool {
	return slices.Contains(progress[sp.Variant], l.Action)
}

// HasFairSpec reports whether the module defines a fair specification
// (FairSpec, BlindFairSpec).
func (sp *Spec) HasFairSpec() bool { return progress[sp.Variant] != nil }
