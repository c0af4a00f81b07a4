package trace

import (
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/semaphore"
	"github.com/zklock/zklock/model/semforeign"
	"github.com/zklock/zklock/traceevent"
)

// semForeignAdapter adapts model/semforeign (SemaphoreForeign): a
// Semaphore's leases with an outsider, whose steps are the events of the
// trace client traceevent.EnvClient, and the holder's LearnNodeGone, as
// foreignAdapter does for a Mutex's lock. A ReleaseInternal (acquire
// returns: the lease is held) is matched with the arming of the own-node
// watch that follows it (ArmOwnWatch; the code sends it at the grant, and
// a node gone before the watch is set ends the lease by LearnNodeGone all
// the same); a ReleaseLease whose node no longer stands is LearnNodeGone;
// the CancelAcquire after a listing that missed the acquirer's node (its
// Acquire failed with ErrLockLost) is AcquireNodeGone.
type semForeignAdapter struct {
	semAdapter
	fs *semforeign.Spec
}

func newSemForeignAdapter(fs *semforeign.Spec) semForeignAdapter {
	return semForeignAdapter{semAdapter: semAdapter{fs.Spec}, fs: fs}
}

func (a semForeignAdapter) specName() string { return "SemaphoreForeign" }

// client reports whether c is a client of the model (not the outsider).
func (a semForeignAdapter) client(c int) bool { return c >= 0 && c < a.fs.N() }

func (a semForeignAdapter) step(s *semaphore.State, action traceevent.Action, c, arg int, t *semaphore.State) model.Guard {
	switch action {
	case traceevent.ForeignDelete:
		return a.fs.Step(s, model.Label{Action: semforeign.ActForeignDelete, Client: -1, Arg: int16(arg)}, t)
	case traceevent.ForeignReplace:
		return a.fs.Step(s, model.Label{Action: semforeign.ActForeignReplace, Client: -1, Arg: int16(arg)}, t)
	}
	if !a.client(c) {
		return model.Guard("the outsider takes no step " + action)
	}
	if action == traceevent.LearnNodeGone {
		return a.fs.LearnNodeGone(s, c, t)
	}
	idx, ok := semActions[action]
	if !ok {
		return model.Guard("no action " + action + " in SemaphoreForeign")
	}
	if idx == semaphore.ActCancelAcquire && a.fs.AcquireNodeGone(s, c, t) == model.Enabled {
		// The acquisition failed on a listing without its node (the
		// outsider deleted it): the code's clean-up after ErrLockLost,
		// which finds no node of ours to delete.
		return model.Enabled
	}
	g := a.fs.Step(s, model.Label{Action: idx, Client: int16(c), Arg: int16(arg)}, t)
	if g != model.Enabled && idx == semaphore.ActReleaseLease {
		// Unlock does not wait for its own watch (foreignAdapter.step).
		if _, named := s.NodeAt(s.Node[c]); !named && a.fs.LearnNodeGone(s, c, t) == model.Enabled {
			return model.Enabled
		}
	}
	if g == model.Enabled && idx == semaphore.ActReleaseInternal {
		var u semaphore.State
		if a.fs.ArmOwnWatch(t, c, &u) == model.Enabled {
			*t = u
		}
	}
	return g
}

func (a semForeignAdapter) pc(s *semaphore.State, c int) string {
	if !a.client(c) {
		return "outsider"
	}
	return a.semAdapter.pc(s, c)
}
func (a semForeignAdapter) live(s *semaphore.State, c int) bool {
	return a.client(c) && a.semAdapter.live(s, c)
}
func (a semForeignAdapter) ownNodeExists(s *semaphore.State, c int) bool {
	return a.client(c) && a.semAdapter.ownNodeExists(s, c)
}
func (a semForeignAdapter) holding(s *semaphore.State, c int) bool {
	return a.client(c) && a.semAdapter.holding(s, c)
}
