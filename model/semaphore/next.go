package semaphore

import (
	"fmt"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/zk"
)

// Action indices (model.Label.Action), in the order of ClientNext(c), then
// ExpireSession.
const (
	ActAcquireInternal uint8 = iota
	ActCreateLease
	ActCreateLeaseReplyLost
	ActFindOwnLease
	ActListLeases
	ActLeasesChanged
	ActIgnoreNotification
	ActReleaseInternal
	ActReleaseLease
	ActCancelAcquire
	ActLearnExpiry
	ActExpireSession
	ActPauseClient
	ActResumeClient
	NumActions
)

// ActionNames are the spec's action names by index, the names of the
// implementation's trace events for the client steps.
var ActionNames = [NumActions]string{
	ActAcquireInternal:      "AcquireInternal",
	ActCreateLease:          "CreateLease",
	ActCreateLeaseReplyLost: "CreateLeaseReplyLost",
	ActFindOwnLease:         "FindOwnLease",
	ActListLeases:           "ListLeases",
	ActLeasesChanged:        "LeasesChanged",
	ActIgnoreNotification:   "IgnoreNotification",
	ActReleaseInternal:      "ReleaseInternal",
	ActReleaseLease:         "ReleaseLease",
	ActCancelAcquire:        "CancelAcquire",
	ActLearnExpiry:          "LearnExpiry",
	ActExpireSession:        "ExpireSession",
	ActPauseClient:          "PauseClient",
	ActResumeClient:         "ResumeClient",
}

type clientAction = func(*Spec, *State, int, *State) model.Guard

var table = [ActExpireSession]clientAction{
	ActAcquireInternal:      (*Spec).AcquireInternal,
	ActCreateLease:          (*Spec).CreateLease,
	ActCreateLeaseReplyLost: (*Spec).CreateLeaseReplyLost,
	ActFindOwnLease:         (*Spec).FindOwnLease,
	ActListLeases:           (*Spec).ListLeases,
	ActLeasesChanged:        (*Spec).LeasesChanged,
	ActIgnoreNotification:   (*Spec).IgnoreNotification,
	ActReleaseInternal:      (*Spec).ReleaseInternal,
	ActReleaseLease:         (*Spec).ReleaseLease,
	ActCancelAcquire:        (*Spec).CancelAcquire,
	ActLearnExpiry:          (*Spec).LearnExpiry,
}

// Step applies the action instance l to s, writing the successor into t
// (ExpireSession's session is <<Client, Arg>>).
func (sp *Spec) Step(s *State, l model.Label, t *State) model.Guard {
	c := int(l.Client)
	if c < 0 || c >= sp.N() {
		return `c \in Clients`
	}
	switch {
	case l.Action == ActExpireSession:
		return sp.ExpireSession(s, zk.Session{C: c, K: int(l.Arg)}, t)
	case l.Action < ActExpireSession:
		return table[l.Action](sp, s, c, t)
	case l.Action == ActPauseClient:
		return sp.PauseClient(s, c, t)
	case l.Action == ActResumeClient:
		return sp.ResumeClient(s, c, t)
	}
	return "unknown action"
}

// Next calls emit with every successor of s in TLC's order: for each
// client, the disjuncts of ClientNext(c) in order; then ExpireSession(x)
// for each live x (Sessions in lexicographic order, as live is sorted);
// then PauseClient(c) and ResumeClient(c) for each client.
func (sp *Spec) Next(s *State, emit func(model.Label, *State)) {
	var t State
	for c := range sp.N() {
		for a := range ActExpireSession {
			if table[a](sp, s, c, &t) == model.Enabled {
				emit(model.Label{Action: a, Client: int16(c)}, &t)
			}
		}
	}
	for _, x := range s.Live {
		if sp.ExpireSession(s, x, &t) == model.Enabled {
			emit(model.Label{Action: ActExpireSession, Client: int16(x.C), Arg: int16(x.K)}, &t)
		}
	}
	for c := range sp.N() {
		if sp.PauseClient(s, c, &t) == model.Enabled {
			emit(model.Label{Action: ActPauseClient, Client: int16(c)}, &t)
		}
		if sp.ResumeClient(s, c, &t) == model.Enabled {
			emit(model.Label{Action: ActResumeClient, Client: int16(c)}, &t)
		}
	}
}

// ActionName returns the spec name of l's action.
func ActionName(l model.Label) string {
	if l.Action < NumActions {
		return ActionNames[l.Action]
	}
	return "?"
}

// LabelString renders l with its parameters, e.g. "ListLeases(c1)",
// "ExpireSession(<<c1, 2>>)".
func (sp *Spec) LabelString(l model.Label) string {
	if l.Client < 0 || int(l.Client) >= sp.N() {
		return ActionName(l)
	}
	if l.Action == ActExpireSession {
		return fmt.Sprintf("%s(<<%s, %d>>)", ActionName(l), sp.Clients[l.Client], l.Arg)
	}
	return fmt.Sprintf("%s(%s)", ActionName(l), sp.Clients[l.Client])
}

// IsProgress reports whether l is a step of Progress(c) for its client
// (the steps FairSpec makes weakly fair).
func IsProgress(l model.Label) bool {
	switch l.Action {
	case ActCreateLease, ActCreateLeaseReplyLost, ActFindOwnLease, ActListLeases, ActLeasesChanged,
		ActIgnoreNotification, ActReleaseInternal, ActReleaseLease, ActLearnExpiry:
		return true
	}
	return false
}
