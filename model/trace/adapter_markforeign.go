package trace

import (
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/predmarked"
	"github.com/zklock/zklock/model/predmarkedforeign"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/traceevent"
)

// foreignReplaceUnmarked names, to the adapter, the ForeignReplace whose
// replacement carries no mark (the outsider read the node before its
// mark): a second successor of a ForeignReplace event, no trace action.
const foreignReplaceUnmarked traceevent.Action = "ForeignReplace (unmarked)"

// markForeignAdapter adapts model/predmarkedforeign
// (PredecessorLockMarkedForeign): a Mutex's lock with marker steps and an
// outsider's, whose events are those of the trace client
// traceevent.EnvClient (the last client, none of the model's). The
// marker's steps are markAdapter's; the outsider's and LearnNodeGone the
// module's. A Release is ReleaseByName, or ReleaseGone when the delete
// found no node (an outsider deleted it first). A Release the model refuses only because the holder's
// own-node watch is not armed yet (~Stale(c) with the arming pending) is
// matched with the WatchOwn before it: Unlock waits for the own watch,
// and the code traces WatchOwn only when its getData read the mark back
// (a watch the waiter armed on its own node, fired by the mark, is armed
// again after Unlock may have sent its delete).
type markForeignAdapter struct {
	markAdapter
	mf *predmarkedforeign.Spec
}

func newMarkForeignAdapter(mf *predmarkedforeign.Spec) markForeignAdapter {
	return markForeignAdapter{markAdapter: markAdapter{sp: mf.Spec, pred: predAdapter{mf.Spec.Spec}}, mf: mf}
}

func (a markForeignAdapter) specName() string { return "PredecessorLockMarkedForeign" }

// client reports whether c is a client of the model (not the outsider).
func (a markForeignAdapter) client(c int) bool { return c >= 0 && c < a.mf.N() }

func (a markForeignAdapter) step(s *predmarked.State, action traceevent.Action, c, arg int, t *predmarked.State) model.Guard {
	switch action {
	case traceevent.ForeignDelete:
		return a.mf.ForeignDelete(s, arg, t)
	case traceevent.ForeignReplace:
		return a.mf.ForeignReplace(s, arg, t)
	case foreignReplaceUnmarked:
		return a.mf.ForeignReplaceUnmarked(s, arg, t)
	}
	if !a.client(c) {
		return model.Guard("the outsider takes no step " + action)
	}
	switch action {
	case traceevent.LearnNodeGone:
		return a.mf.LearnNodeGone(s, c, t)
	case traceevent.Release:
		return a.release(s, c, arg, t)
	}
	idx, ok := markerActions[action]
	switch {
	case ok:
	case action == traceevent.ListChildren && a.sp.Marking(c):
		idx = predmarked.ActMListChildren
	case action == traceevent.WatchPredecessor && a.sp.Marking(c):
		idx = predmarked.ActMWatchPredecessor
	default:
		if idx, ok = predActions[action]; !ok {
			return model.Guard("no action " + action + " in PredecessorLockMarkedForeign")
		}
	}
	// The module's Step: IgnoreOtherNotification, never the holder's own event.
	return a.mf.Step(s, model.Label{Action: idx, Client: int16(c), Arg: int16(arg)}, t)
}

// release matches a Release event: ReleaseByName, or ReleaseGone (the
// delete found no node), or either after the WatchOwn the code did not
// trace (see markForeignAdapter).
func (a markForeignAdapter) release(s *predmarked.State, c, arg int, t *predmarked.State) model.Guard {
	try := func(s *predmarked.State) model.Guard {
		g := a.mf.Step(s, model.Label{Action: recipe.ActRelease, Client: int16(c), Arg: int16(arg)}, t)
		if g == model.Enabled {
			return g
		}
		if _, ok := s.NodeAt(s.Node[c]); ok {
			return g
		}
		return a.mf.ReleaseGone(s, c, t) // no node of the name: its guard says why not
	}
	g := try(s)
	if g != model.Enabled && s.PC[c] == recipe.PCHold && s.HoldStep[c] == predmarked.HoldOwn {
		var u predmarked.State
		if a.mf.Step(s, model.Label{Action: predmarked.ActWatchOwn, Client: int16(c)}, &u) == model.Enabled {
			if h := try(&u); h == model.Enabled {
				return h
			}
		}
	}
	return g
}

func (a markForeignAdapter) pc(s *predmarked.State, c int) string {
	if !a.client(c) {
		return "outsider"
	}
	return a.markAdapter.pc(s, c)
}
func (a markForeignAdapter) live(s *predmarked.State, c int) bool {
	return a.client(c) && a.markAdapter.live(s, c)
}
func (a markForeignAdapter) ownNodeExists(s *predmarked.State, c int) bool {
	return a.client(c) && a.markAdapter.ownNodeExists(s, c)
}
func (a markForeignAdapter) holding(s *predmarked.State, c int) bool {
	return a.client(c) && a.markAdapter.holding(s, c)
}
func (a markForeignAdapter) target(s *predmarked.State, c int) (obsNode, bool) {
	if !a.client(c) {
		return obsNode{}, false
	}
	return a.markAdapter.target(s, c)
}
func (a markForeignAdapter) second(s *predmarked.State, c int) (obsNode, bool) {
	if !a.client(c) {
		return obsNode{}, false
	}
	return a.markAdapter.second(s, c)
}

// markedForeignSpec is the model of lt: markedSpec's constants (Plain
// the clients whose events show PredecessorLock's waiting rule), the
// holder's own watch acted on (the code), the outsider traceevent.EnvClient.
func markedForeignSpec(lt *lockTrace) (*predmarkedforeign.Spec, error) {
	m, err := markedSpec(lt)
	if err != nil {
		return nil, err
	}
	k := predmarkedforeign.Constants{OwnWatch: true, Stranger: traceevent.EnvClient,
		Constants: predmarked.Constants{Constants: predlock.Constants{Constants: unbounded(lt), Fencing: true}}}
	for c, p := range m.Plain {
		if p {
			k.Plain = append(k.Plain, c)
		}
	}
	return predmarkedforeign.New(k)
}
