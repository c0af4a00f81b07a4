package trace

import (
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/election"
	"github.com/zklock/zklock/model/elforeign"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/traceevent"
)

// elForeignAdapter adapts model/elforeign (ElectionForeign): an election
// with an outsider, whose steps are the events of the trace client
// traceevent.EnvClient (the last client, after the observers), and the
// leader's LearnNodeGone, as foreignAdapter does for a Mutex's lock. A
// Grant, and a Proclaim (its setData fires the leader's own watch, which
// the lease's watcher arms again), are matched with the arming of the
// own-node watch that follows them (ArmOwnWatch); a Release (Resign)
// whose node no longer stands is LearnNodeGone.
type elForeignAdapter struct {
	elecAdapter
	fs *elforeign.Spec
}

func newElForeignAdapter(fs *elforeign.Spec, candidates int) elForeignAdapter {
	return elForeignAdapter{elecAdapter: elecAdapter{sp: fs.Spec, pred: predAdapter{fs.Spec.Spec}, candidates: candidates}, fs: fs}
}

func (a elForeignAdapter) specName() string { return "ElectionForeign" }

// outsider reports whether trace client c is the outsider: the one after
// the candidates and the observers.
func (a elForeignAdapter) outsider(c int) bool { return c >= a.candidates+len(a.fs.Observers) }

func (a elForeignAdapter) step(s *election.State, action traceevent.Action, c, arg int, t *election.State) model.Guard {
	switch action {
	case traceevent.ForeignDelete:
		return a.fs.Step(s, model.Label{Action: elforeign.ActForeignDelete, Client: -1, Arg: int16(arg)}, t)
	case traceevent.ForeignReplace:
		return a.fs.Step(s, model.Label{Action: elforeign.ActForeignReplace, Client: -1, Arg: int16(arg)}, t)
	}
	if a.outsider(c) {
		return model.Guard("the outsider takes no step " + action)
	}
	if _, obs := a.observer(c); obs {
		return a.elecAdapter.step(s, action, c, arg, t)
	}
	var g model.Guard
	switch idx, lock := predActions[action]; {
	case action == traceevent.LearnNodeGone:
		return a.fs.Step(s, model.Label{Action: elforeign.ActLearnNodeGone, Client: int16(c)}, t)
	case lock && action != watchPredecessorLost && action != watchSecondLost:
		g = a.fs.Step(s, model.Label{Action: idx, Client: int16(c), Arg: int16(arg)}, t)
		if g != model.Enabled && idx == recipe.ActIgnoreNotification {
			return a.elecAdapter.step(s, ignoreDataChange, c, 0, t)
		}
		if g != model.Enabled && idx == recipe.ActRelease {
			// Resign does not wait for its own watch (foreignAdapter.step).
			if _, named := s.NodeAt(s.Node[c]); !named {
				return a.fs.Step(s, model.Label{Action: elforeign.ActLearnNodeGone, Client: int16(c)}, t)
			}
		}
	default:
		g = a.elecAdapter.step(s, action, c, arg, t)
	}
	if g == model.Enabled && (action == traceevent.Grant || action == traceevent.Proclaim) {
		var u election.State
		if a.fs.Step(t, model.Label{Action: elforeign.ActArmOwnWatch, Client: int16(c)}, &u) == model.Enabled {
			*t = u
		}
	}
	return g
}

func (a elForeignAdapter) pc(s *election.State, c int) string {
	if a.outsider(c) {
		return "outsider"
	}
	return a.elecAdapter.pc(s, c)
}
func (a elForeignAdapter) live(s *election.State, c int) bool {
	return !a.outsider(c) && a.elecAdapter.live(s, c)
}
func (a elForeignAdapter) ownNodeExists(s *election.State, c int) bool {
	return !a.outsider(c) && a.elecAdapter.ownNodeExists(s, c)
}
func (a elForeignAdapter) holding(s *election.State, c int) bool {
	return !a.outsider(c) && a.elecAdapter.holding(s, c)
}
func (a elForeignAdapter) target(s *election.State, c int) (obsNode, bool) {
	if a.outsider(c) {
		return obsNode{}, false
	}
	return a.elecAdapter.target(s, c)
}
func (a elForeignAdapter) second(s *election.State, c int) (obsNode, bool) {
	if a.outsider(c) {
		return obsNode{}, false
	}
	return a.elecAdapter.second(s, c)
}
func (a elForeignAdapter) pendingDelete(s *election.State, c, r int) bool {
	return !a.outsider(c) && a.elecAdapter.pendingDelete(s, c, r)
}
func (a elForeignAdapter) reportsNewer(s, t *election.State, c int) bool {
	return !a.outsider(c) && a.elecAdapter.reportsNewer(s, t, c)
}
func (a elForeignAdapter) dataVersion(s *election.State, c int) (int, bool) {
	if a.outsider(c) {
		return 0, false
	}
	return a.elecAdapter.dataVersion(s, c)
}

// elForeignSpec is ElectionForeign under electionSpec's bounds, the
// observers those before the outsider, with the code's own-node watch.
func elForeignSpec(lt *lockTrace) (*elforeign.Spec, error) {
	el, err := electionSpec(lt)
	if err != nil {
		return nil, err
	}
	e := el.Constants
	if lt.outsider {
		e.Observers = e.Observers[:len(e.Observers)-1]
	}
	k := unbounded(lt)
	k.MaxSeq = el.MaxSeq
	return elforeign.New(predlock.Constants{Constants: k, Fencing: true, GrantRule: predlock.GrantReread},
		e, elforeign.Constants{WatchOwn: true, Stranger: traceevent.EnvClient})
}
