package predlock

import (
	"fmt"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/zk"
	"github.com/zklock/zklock/traceevent"
)

// Action indices (model.Label.Action).
const (
	ActRequestLock uint8 = iota
	ActCreateOk
	ActCreateReplyLost
	ActFindOwnNode
	ActListChildren
	ActWatchPredecessor
	ActPredecessorGone
	ActGrantOnHeadGone
	ActIgnoreNotification
	ActGrant
	ActWrite
	ActRelease
	ActCancel
	ActLearnExpiry
	ActExpireSession
	ActPauseClient
	ActResumeClient
	ActListChildrenWatchParent
	ActPredecessorGoneIsGrant
	ActCreateReplyLostRetry
	ActCancelKnown
	ActDeleteLands
	ActDropDelete
	ActGrantSeqToken
	ActRecreateParent
	numActions
)

// ActionNames are the spec's names of the actions, by index. The actions
// a client's trace carries are named by package traceevent's constants,
// the one table of those names; the others no client observes.
var ActionNames = [numActions]traceevent.Action{
	ActRequestLock:             traceevent.RequestLock,
	ActCreateOk:                traceevent.CreateOk,
	ActCreateReplyLost:         traceevent.CreateReplyLost,
	ActFindOwnNode:             traceevent.FindOwnNode,
	ActListChildren:            traceevent.ListChildren,
	ActWatchPredecessor:        traceevent.WatchPredecessor,
	ActPredecessorGone:         traceevent.PredecessorGone,
	ActGrantOnHeadGone:         traceevent.GrantOnHeadGone,
	ActIgnoreNotification:      "IgnoreNotification",
	ActGrant:                   traceevent.Grant,
	ActWrite:                   "Write",
	ActRelease:                 traceevent.Release,
	ActCancel:                  traceevent.Cancel,
	ActLearnExpiry:             traceevent.LearnExpiry,
	ActExpireSession:           "ExpireSession",
	ActPauseClient:             "PauseClient",
	ActResumeClient:            "ResumeClient",
	ActListChildrenWatchParent: "ListChildrenWatchParent",
	ActPredecessorGoneIsGrant:  "PredecessorGoneIsGrant",
	ActCreateReplyLostRetry:    "CreateReplyLostRetry",
	ActCancelKnown:             "CancelKnown",
	ActDeleteLands:             traceevent.DeleteLands,
	ActDropDelete:              "DropDelete",
	ActGrantSeqToken:           "GrantSeqToken",
	ActRecreateParent:          "RecreateParent",
}

// clientAction is the signature of the actions with a client parameter.
type clientAction = func(sp *Spec, s *State, c int, t *State) model.Guard

var clientActions = [numActions]clientAction{
	ActRequestLock:             (*Spec).RequestLock,
	ActCreateOk:                (*Spec).CreateOk,
	ActCreateReplyLost:         (*Spec).CreateReplyLost,
	ActFindOwnNode:             (*Spec).FindOwnNode,
	ActListChildren:            (*Spec).ListChildren,
	ActWatchPredecessor:        kept(recipe.Spec[zk.NoKind].WatchPredecessor),
	ActPredecessorGone:         kept(recipe.Spec[zk.NoKind].PredecessorGone),
	ActGrantOnHeadGone:         (*Spec).GrantOnHeadGone,
	ActIgnoreNotification:      kept(recipe.Spec[zk.NoKind].IgnoreNotification),
	ActGrant:                   (*Spec).Grant,
	ActWrite:                   (*Spec).Write,
	ActRelease:                 idled(recipe.Spec[zk.NoKind].Release),
	ActCancel:                  idled(recipe.Spec[zk.NoKind].Cancel),
	ActLearnExpiry:             idled(recipe.Spec[zk.NoKind].LearnExpiry),
	ActPauseClient:             (*Spec).PauseClient,
	ActResumeClient:            kept(recipe.Spec[zk.NoKind].ResumeClient),
	ActListChildrenWatchParent: (*Spec).ListChildrenWatchParent,
	ActPredecessorGoneIsGrant:  (*Spec).PredecessorGoneIsGrant,
	ActCreateReplyLostRetry:    (*Spec).CreateReplyLostRetry,
	ActCancelKnown:             (*Spec).CancelKnown,
	ActGrantSeqToken:           (*Spec).GrantSeqToken,
}

// ClientNext is the disjunction of the client actions of each module, in
// the order the module lists them (TLC generates successors in that order).
var clientNext = map[Variant][]uint8{
	Base: {ActRequestLock, ActCreateOk, ActCreateReplyLost, ActFindOwnNode, ActListChildren,
		ActWatchPredecessor, ActPredecessorGone, ActGrantOnHeadGone, ActIgnoreNotification, ActGrant,
		ActWrite, ActRelease, ActCancel, ActLearnExpiry},
	HerdParent: {ActRequestLock, ActCreateOk, ActCreateReplyLost, ActFindOwnNode,
		ActListChildrenWatchParent, ActPredecessorGone, ActIgnoreNotification, ActGrant, ActWrite,
		ActRelease, ActCancel, ActLearnExpiry},
	NotifyIsGrant: {ActRequestLock, ActCreateOk, ActCreateReplyLost, ActFindOwnNode, ActListChildren,
		ActWatchPredecessor, ActPredecessorGoneIsGrant, ActIgnoreNotification, ActGrant, ActWrite,
		ActRelease, ActCancel, ActLearnExpiry},
	BlindRetry: {ActRequestLock, ActCreateOk, ActCreateReplyLostRetry, ActListChildren,
		ActWatchPredecessor, ActPredecessorGone, ActIgnoreNotification, ActGrant, ActWrite,
		ActRelease, ActCancelKnown, ActLearnExpiry},
	DropDelete: {ActRequestLock, ActCreateOk, ActCreateReplyLost, ActFindOwnNode, ActListChildren,
		ActWatchPredecessor, ActPredecessorGone, ActGrantOnHeadGone, ActIgnoreNotification, ActGrant,
		ActWrite, ActRelease, ActCancel, ActLearnExpiry},
	SeqToken: {ActRequestLock, ActCreateOk, ActCreateReplyLost, ActFindOwnNode, ActListChildren,
		ActWatchPredecessor, ActPredecessorGone, ActIgnoreNotification, ActGrantSeqToken, ActWrite,
		ActRelease, ActCancel, ActLearnExpiry},
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
	Base: {ActCreateOk, ActCreateReplyLost, ActFindOwnNode, ActListChildren, ActWatchPredecessor,
		ActPredecessorGone, ActGrantOnHeadGone, ActIgnoreNotification, ActGrant, ActRelease,
		ActLearnExpiry},
	BlindRetry: {ActCreateOk, ActCreateReplyLostRetry, ActListChildren, ActWatchPredecessor,
		ActPredecessorGone, ActIgnoreNotification, ActGrant, ActRelease, ActLearnExpiry},
	DropDelete: {ActCreateOk, ActCreateReplyLost, ActFindOwnNode, ActListChildren, ActWatchPredecessor,
		ActPredecessorGone, ActGrantOnHeadGone, ActIgnoreNotification, ActGrant, ActRelease,
		ActLearnExpiry},
}

// relation is the next-state relation as recipe.Relation.Next runs it.
var relation = recipe.Relation[*Spec, State, zk.NoKind]{
	Table: clientActions[:],
	Step:  (*Spec).Step,
	Env:   recipe.Env{ExpireSession: ActExpireSession, PauseClient: ActPauseClient, ResumeClient: ActResumeClient, DeleteLands: ActDeleteLands},
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
	if l.Action == ActExpireSession || l.Action == ActDeleteLands || l.Action == ActDropDelete {
		if l.Client < 0 || int(l.Client) >= sp.N() {
			return "unknown client"
		}
		switch l.Action {
		case ActDeleteLands:
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
func ActionName(l model.Label) string {
	if int(l.Action) < len(ActionNames) {
		return string(ActionNames[l.Action])
	}
	return "?"
}

// LabelString renders l with its parameters, e.g. "ExpireSession(<<c1, 2>>)".
func (sp *Spec) LabelString(l model.Label) string {
	name := ActionName(l)
	if l.Client < 0 || int(l.Client) >= sp.N() {
		return name
	}
	c := sp.Clients[l.Client]
	if l.Action == ActExpireSession {
		return fmt.Sprintf("%s(<<%s, %d>>)", name, c, l.Arg)
	}
	if l.Action == ActDeleteLands || l.Action == ActDropDelete {
		return fmt.Sprintf("%s(uuid <<%s, %d>>)", name, c, l.Arg)
	}
	return fmt.Sprintf("%s(%s)", name, c)
}

// IsProgress reports whether l is a step of Progress(c) (BlindProgress(c)
// in BlindRetry) for its client: the steps FairSpec makes weakly fair.
func (sp *Spec) IsProgress(l model.Label) bool {
	for _, a := range progress[sp.Variant] {
		if a == l.Action {
			return true
		}
	}
	return false
}

// HasFairSpec reports whether the module defines a fair specification
// (FairSpec, BlindFairSpec).
func (sp *Spec) HasFairSpec() bool { return progress[sp.Variant] != nil }
