package trace

import (
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/sharedforeign"
	"github.com/zklock/zklock/model/sharedlock"
	"github.com/zklock/zklock/traceevent"
)

// sharedForeignAdapter adapts model/sharedforeign (SharedLockForeign): an
// RWMutex's lock with an outsider, whose steps are the events of the trace
// client traceevent.EnvClient, and the holder's LearnNodeGone, as
// foreignAdapter does for a Mutex's. A Grant, and a Downgrade (the
// lease's watcher arms again on the read node), are matched with the
// arming of the own-node watch that follows them (ArmOwnWatch); a Release
// whose node no longer stands is LearnNodeGone.
type sharedForeignAdapter struct {
	sharedAdapter
	fs *sharedforeign.Spec
}

func newSharedForeignAdapter(fs *sharedforeign.Spec) sharedForeignAdapter {
	return sharedForeignAdapter{sharedAdapter: sharedAdapter{fs.Spec}, fs: fs}
}

func (a sharedForeignAdapter) specName() string { return "SharedLockForeign" }

// client reports whether c is a client of the model (not the outsider).
func (a sharedForeignAdapter) client(c int) bool { return c >= 0 && c < a.fs.N() }

func (a sharedForeignAdapter) step(s *sharedlock.State, action traceevent.Action, c, arg int, t *sharedlock.State) model.Guard {
	switch action {
	case traceevent.ForeignDelete:
		return a.fs.Step(s, model.Label{Action: sharedforeign.ActForeignDelete, Client: -1, Arg: int16(arg)}, t)
	case traceevent.ForeignReplace:
		return a.fs.Step(s, model.Label{Action: sharedforeign.ActForeignReplace, Client: -1, Arg: int16(arg)}, t)
	}
	if !a.client(c) {
		return model.Guard("the outsider takes no step " + action)
	}
	switch action {
	case traceevent.LearnNodeGone:
		return a.fs.LearnNodeGone(s, c, t)
	case watchPredecessorLost:
		return a.sharedAdapter.step(s, action, c, arg, t)
	}
	idx, ok := sharedActions[action]
	if !ok {
		return model.Guard("no action " + action + " in SharedLockForeign")
	}
	g := a.fs.Step(s, model.Label{Action: idx, Client: int16(c), Arg: int16(arg)}, t)
	if g != model.Enabled && idx == recipe.ActRelease {
		// Unlock does not wait for its own watch (foreignAdapter.step).
		if _, named := s.NodeAt(s.Node[c]); !named && a.fs.LearnNodeGone(s, c, t) == model.Enabled {
			return model.Enabled
		}
	}
	if g == model.Enabled && (idx == recipe.ActGrant || idx == sharedlock.ActDowngrade || idx == sharedlock.ActDowngradeReplyLost) {
		var u sharedlock.State
		if a.fs.ArmOwnWatch(t, c, &u) == model.Enabled {
			*t = u
		}
	}
	return g
}

func (a sharedForeignAdapter) pc(s *sharedlock.State, c int) string {
	if !a.client(c) {
		return "outsider"
	}
	return a.sharedAdapter.pc(s, c)
}
func (a sharedForeignAdapter) live(s *sharedlock.State, c int) bool {
	return a.client(c) && a.sharedAdapter.live(s, c)
}
func (a sharedForeignAdapter) ownNodeExists(s *sharedlock.State, c int) bool {
	return a.client(c) && a.sharedAdapter.ownNodeExists(s, c)
}
func (a sharedForeignAdapter) holding(s *sharedlock.State, c int) bool {
	return a.client(c) && a.sharedAdapter.holding(s, c)
}
func (a sharedForeignAdapter) target(s *sharedlock.State, c int) (obsNode, bool) {
	if !a.client(c) {
		return obsNode{}, false
	}
	return a.sharedAdapter.target(s, c)
}
