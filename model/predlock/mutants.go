package predlock

import (
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/internal/cow"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/zk"
)

// ListChildrenWatchParent (mutant HerdParent): getChildren(<lock>,
// watch=true), listing and arming a child watch on the parent in one step.
// First: the lock is ours; otherwise wait for any child change. Replaces
// ListChildren and WatchPredecessor. Spec:
// PredecessorLockHerdParent!ListChildrenWatchParent (ZooKeeper recipes,
// "Locks" step 2, with the watch flag the recipe says not to set).
func (sp *Spec) ListChildrenWatchParent(s *State, c int, t *State) model.Guard {
	if g := s.Ready(c, recipe.PCList); g != model.Enabled {
		return g
	}
	*t = *s
	for _, n := range s.Nodes {
		if n.Seq < s.Node[c] {
			t.PC = cow.With(s.PC, c, recipe.PCWait)
			s.SetWatch(&t.Server, zk.Parent[zk.NoKind](), s.UuidOf(c))
			return model.Enabled
		}
	}
	t.PC = cow.With(s.PC, c, recipe.PCGrant)
	return model.Enabled
}

// PredecessorGoneIsGrant (mutant NotifyIsGrant): the watch notification is
// consumed as "the lock is ours", straight to Grant: GrantOnHeadGone
// without its soleBlocker guard. Replaces PredecessorGone. Spec: PredecessorLockNotifyIsGrant!PredecessorGoneIsGrant
// (skips ZooKeeper recipes, "Locks" step 5's return to step 2).
func (sp *Spec) PredecessorGoneIsGrant(s *State, c int, t *State) model.Guard {
	return keep(s, t, s.ConsumeIf(c, &t.State, s.Notified(c), recipe.PCGrant))
}

// GrantOnAnyEvent (mutant StaleEvent): GrantOnHeadGone without the check
// that the event is for the target: any event of the current request,
// taken while the last listing showed one node before ours, is the grant.
// Replaces GrantOnHeadGone. Spec: PredecessorLockStaleEvent!GrantOnAnyEvent.
func (sp *Spec) GrantOnAnyEvent(s *State, c int, t *State) model.Guard {
	return keep(s, t, s.ConsumeIf(c, &t.State, s.AnyHeadGone(c), recipe.PCGrant))
}

// CreateReplyLostRetry (mutant BlindRetry): the create succeeds, its reply
// is lost, and the client simply creates again (pc stays "create").
// Replaces CreateReplyLost and FindOwnNode. Spec:
// PredecessorLockBlindRetry!CreateReplyLostRetry (the mistake ZooKeeper
// recipes, "Recoverable Errors and the GUID", warns about).
func (sp *Spec) CreateReplyLostRetry(s *State, c int, t *State) model.Guard {
	g := sp.CreateReplyLost(s, c, t)
	if g == model.Enabled {
		t.PC = s.PC
	}
	return g
}

// CancelKnown (mutant BlindRetry): cancel without the uuid search: delete
// the node the client knows, if any. Replaces Cancel. Spec:
// PredecessorLockBlindRetry!CancelKnown.
func (sp *Spec) CancelKnown(s *State, c int, t *State) model.Guard {
	if g := s.Cancellable(&sp.Constants.Constants, c); g != model.Enabled {
		return g
	}
	var mine []Node
	if n, ok := s.NodeAt(s.Node[c]); ok {
		mine = append(mine, n)
	}
	*t = *s
	s.DeleteNodes(&t.Server, mine)
	idle(t, c)
	return model.Enabled
}
