package lockall

import (
	"fmt"

	"github.com/zklock/zklock/model"
)

// Step applies the action instance l to s, writing the successor into t.
func (sp *Spec) Step(s *State, l model.Label, t *State) model.Guard {
	c := int(l.Client)
	if l.Action != ActTerminated && (c < 0 || c >= sp.N()) {
		return "c \\in Clients"
	}
	switch l.Action {
	case ActStart:
		return sp.Start(s, c, t)
	case ActEnqueue:
		return sp.Enqueue(s, c, t)
	case ActGrant:
		return sp.Grant(s, c, t)
	case ActAbandon:
		return sp.Abandon(s, c, t)
	case ActPartFails:
		return sp.PartFails(s, c, t)
	case ActLoseSession:
		if l.Arg < 1 || l.Arg > NumLocks {
			return "l \\in Locks"
		}
		return sp.LoseSession(s, c, int(l.Arg), t)
	case ActUnlock:
		return sp.Unlock(s, c, t)
	case ActReleasePart:
		return sp.ReleasePart(s, c, t)
	case ActReturn:
		return sp.Return(s, c, t)
	case ActTerminated:
		return sp.Terminated(s, t)
	}
	return "unknown action"
}

// Next calls emit with every successor of s in TLC's order: for each
// client in 1..N, the disjuncts of ClientNext(c) in order (LoseSession(c,
// l) for l in 1, 2: TLC splits \E over a constant set into one action per
// element), then Terminated.
func (sp *Spec) Next(s *State, emit func(model.Label, *State)) {
	var t State
	try := func(l model.Label) {
		if sp.Step(s, l, &t) == model.Enabled {
			emit(l, &t)
		}
	}
	for c := 0; c < sp.N(); c++ {
		for a := ActStart; a < ActTerminated; a++ {
			if a == ActLoseSession {
				for l := 1; l <= NumLocks; l++ {
					try(model.Label{Action: a, Client: int16(c), Arg: int16(l)})
				}
				continue
			}
			try(model.Label{Action: a, Client: int16(c)})
		}
	}
	try(model.Label{Action: ActTerminated, Client: -1})
}

// ActionName returns the spec name of l's action.
func ActionName(l model.Label) string {
	if int(l.Action) < len(ActionNames) {
		return ActionNames[l.Action]
	}
	return "?"
}

// LabelString renders l with its parameters, e.g. "Grant(2)",
// "LoseSession(1, 2)".
func (sp *Spec) LabelString(l model.Label) string {
	switch l.Action {
	case ActTerminated:
		return ActionName(l)
	case ActLoseSession:
		return fmt.Sprintf("%s(%d, %d)", ActionName(l), l.Client+1, l.Arg)
	}
	return fmt.Sprintf("%s(%d)", ActionName(l), l.Client+1)
}

// IsProgress reports whether l is an action of Progress(c) for its client
// (the steps FairSpec makes weakly fair).
func IsProgress(l model.Label) bool {
	switch l.Action {
	case ActEnqueue, ActGrant, ActAbandon, ActUnlock, ActReleasePart, ActReturn:
		return true
	}
	return false
}
