package election

import (
	"fmt"
	"slices"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/recipe"
)

// Action indices (model.Label.Action) of the module's own actions: after
// PredecessorLock's. An observer action's Label.Client is the observer's
// index.
var (
	ActProclaim        = uint8(len(predlock.ActionNames))
	ActResignKeepNode  = ActProclaim + 1
	ActObserveList     = ActProclaim + 2
	ActObserveWatch    = ActProclaim + 3
	ActObserveNotified = ActProclaim + 4
	ActDataChanged     = ActProclaim + 5
	ActIgnoreData      = ActProclaim + 6
	ActHandOffOnData   = ActProclaim + 7
	ActObserverLost    = ActProclaim + 8
	ActObserveNext     = ActProclaim + 9
	ActObserveRefresh  = ActProclaim + 10
	// NumActions is the number of action indices.
	NumActions = int(ActObserveRefresh) + 1
	ownNames   = []string{"Proclaim", "ResignKeepNode", "ObserveList", "ObserveWatch", "ObserveNotified",
		"DataChanged", "IgnoreDataChange", "HandOffOnDataChange", "ObserverSessionLost", "ObserveNext", "ObserveRefresh"}
)

// candidateOwn are the module's own candidate steps, in the order Next
// emits them.
var candidateOwn = []uint8{ActDataChanged, ActHandOffOnData, ActIgnoreData, ActProclaim, ActResignKeepNode}

// IsObserverAction reports whether a is an observer's step of Observe(o)
// (its fairness): ObserverSessionLost, a fault, is not one.
func IsObserverAction(a uint8) bool {
	return a >= ActObserveList && a <= ActObserveNotified || a == ActObserveNext || a == ActObserveRefresh
}

// isObserverLabel reports whether a's Label.Client is an observer's index.
func isObserverLabel(a uint8) bool { return IsObserverAction(a) || a == ActObserverLost }

// envActions are PredecessorLock's steps without a client's choice in
// ClientNext: EnvNext's.
var envActions = []uint8{recipe.ActExpireSession, recipe.ActPauseClient, recipe.ActResumeClient, recipe.ActDeleteLands}

// isStep reports whether PredecessorLock's action a is a step of the
// module's next-state relation (CandidateNext, NotifyCandidateNext or
// KeepCandidateNext, and EnvNext).
func (sp *Spec) isStep(a uint8) bool {
	if sp.Module == Keep && a == recipe.ActRelease {
		return false
	}
	return slices.Contains(envActions, a) || slices.Contains(sp.Spec.ClientNext(), a)
}

// Next calls emit with every successor of s in TLC's order: the candidate
// steps and EnvNext (PredecessorLock's, this module's variables unchanged;
// in KeepSpec without Release), then Proclaim(c) (and ResignKeepNode(c) in
// KeepSpec) for each candidate, then each observer's ObserveList,
// ObserveWatch, ObserveNotified, ObserveNext and ObserveRefresh, and
// ObserverSessionLost (OwnNext's
// Observe(o) \/ ObserverSessionLost(o)). KeepSpec lists ResignKeepNode in
// Release's place; it has only liveness configs, whose counts do not
// depend on the order.
func (sp *Spec) Next(s *State, emit func(model.Label, *State)) {
	var t State
	sp.Spec.Next(&s.State, func(l model.Label, u *predlock.State) {
		if sp.Module == Keep && l.Action == recipe.ActRelease {
			return
		}
		t = *s
		t.State = *u
		emit(l, &t)
	})
	for c := range sp.Clients {
		for _, a := range candidateOwn {
			l := model.Label{Action: a, Client: int16(c)}
			if sp.Step(s, l, &t) == model.Enabled {
				emit(l, &t)
			}
		}
	}
	for o := range sp.Observers {
		for a := ActObserveList; a <= ActObserveNotified; a++ {
			if a == ActObserveList && !sp.HeadBySeq && len(s.Nodes) > 0 {
				for _, n := range s.Nodes { // the mutant: any listed node
					l := model.Label{Action: a, Client: int16(o), Arg: int16(n.Seq)}
					if sp.Step(s, l, &t) == model.Enabled {
						emit(l, &t)
					}
				}
				continue
			}
			l := model.Label{Action: a, Client: int16(o)}
			if sp.Step(s, l, &t) == model.Enabled {
				emit(l, &t)
			}
		}
		for _, a := range []uint8{ActObserveNext, ActObserveRefresh, ActObserverLost} {
			l := model.Label{Action: a, Client: int16(o)}
			if sp.Step(s, l, &t) == model.Enabled {
				emit(l, &t)
			}
		}
	}
}

// Step applies the action instance l to s, writing the successor into t.
func (sp *Spec) Step(s *State, l model.Label, t *State) model.Guard {
	if l.Action < ActProclaim {
		if !sp.isStep(l.Action) {
			return "not a step of " + model.Guard(sp.specName())
		}
		var u predlock.State
		g := sp.Spec.Step(&s.State, l, &u)
		if g == model.Enabled {
			*t = *s
			t.State = u
		}
		return g
	}
	i := int(l.Client)
	if isObserverLabel(l.Action) {
		if i < 0 || i >= len(sp.Observers) {
			return "unknown observer"
		}
	} else if i < 0 || i >= sp.N() {
		return "unknown client"
	}
	switch l.Action {
	case ActProclaim:
		return sp.Proclaim(s, i, t)
	case ActResignKeepNode:
		if sp.Module != Keep {
			return "not a step of " + model.Guard(sp.specName())
		}
		return sp.ResignKeepNode(s, i, t)
	case ActDataChanged:
		if sp.Module == HandOff {
			return "not a step of " + model.Guard(sp.specName())
		}
		return sp.DataChanged(s, i, t)
	case ActHandOffOnData:
		if sp.Module != HandOff {
			return "not a step of " + model.Guard(sp.specName())
		}
		return sp.HandOffOnDataChange(s, i, t)
	case ActIgnoreData:
		return sp.IgnoreDataChange(s, i, t)
	case ActObserveList:
		return sp.ObserveList(s, i, int(l.Arg), t)
	case ActObserveWatch:
		return sp.ObserveWatch(s, i, t)
	case ActObserveNotified:
		return sp.ObserveNotified(s, i, t)
	case ActObserveNext:
		return sp.ObserveNext(s, i, t)
	case ActObserveRefresh:
		return sp.ObserveRefresh(s, i, t)
	case ActObserverLost:
		return sp.ObserverSessionLost(s, i, t)
	}
	return "unknown action"
}

func (sp *Spec) specName() string {
	return [...]string{"Election!Spec", "Election!NotifySpec", "Election!KeepSpec", "Election!HandOffSpec"}[sp.Module]
}

// ActionName returns the spec's name of l's action: PredecessorLock's
// names for the candidate steps, which Election defines under the same
// names.
func ActionName(l model.Label) string {
	if l.Action >= ActProclaim {
		if int(l.Action-ActProclaim) < len(ownNames) {
			return ownNames[l.Action-ActProclaim]
		}
		return "?"
	}
	return predlock.ActionName(l)
}

// LabelString renders l with its parameters, e.g. "ObserveList(o1)".
func (sp *Spec) LabelString(l model.Label) string {
	if l.Action < ActProclaim {
		return sp.Spec.LabelString(l)
	}
	names := sp.Clients
	if isObserverLabel(l.Action) {
		names = sp.Observers
	}
	if l.Client < 0 || int(l.Client) >= len(names) {
		return ActionName(l)
	}
	return fmt.Sprintf("%s(%s)", ActionName(l), names[l.Client])
}

// IsProgress reports whether l is a step of Progress(c) (KeepProgress(c)
// in KeepSpec) for its client: PredecessorLock's Progress, with
// ResignKeepNode for Release in KeepSpec, and Release (or ResignKeepNode)
// only with LeadersResign.
func (sp *Spec) IsProgress(l model.Label) bool {
	switch {
	case l.Action == recipe.ActExpireSession:
		return false
	case l.Action == recipe.ActRelease:
		return sp.Module != Keep && sp.LeadersResign
	case l.Action == ActResignKeepNode:
		return sp.Module == Keep && sp.LeadersResign
	case l.Action == ActDataChanged || l.Action == ActIgnoreData || l.Action == ActHandOffOnData:
		return true
	case l.Action >= ActProclaim:
		return false
	}
	return sp.Spec.IsProgress(l)
}
