package sharedlock

import (
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/internal/cow"
	"github.com/zklock/zklock/model/recipe"
)

// Every action is a method named like the spec action; it returns
// model.Enabled and writes the successor into t, or returns the first
// false conjunct of its guard. The actions PredecessorLock writes alike
// are recipe.Spec's (CreateOk, CreateReplyLost, FindOwnNode,
// WatchPredecessor, PredecessorGone, IgnoreNotification, Release, Cancel,
// LearnExpiry, ExpireSession, DeleteLands, ResumeClient): SharedLock has
// no variable of its own besides them, so the action table runs them on
// the embedded recipe.State (on).

// on runs the shared action f on SharedLock's state.
func on(f func(recipe.Spec[Kind], *recipe.State[Kind], int, *recipe.State[Kind]) model.Guard) clientAction {
	return func(sp *Spec, s *State, c int, t *State) model.Guard { return f(sp.r, &s.State, c, &t.State) }
}

// RequestLock: RWMutex.RLock (k = read) or RWMutex.Lock (k = write): a new
// request of kind k with a fresh uuid (recipe.Spec.RequestLock). Spec:
// SharedLock!RequestLock (ZooKeeper recipes, "Shared Locks" step 1).
func (sp *Spec) RequestLock(s *State, c int, k Kind, t *State) model.Guard {
	if k != KindRead && k != KindWrite {
		return `k \in Kinds`
	}
	return sp.r.RequestLock(&s.State, c, k, &t.State)
}

// ListChildren: getChildren without a watch, sorted by suffix. No blocker:
// go on to Grant. Otherwise a writer chooses its immediate predecessor, a
// reader the last write node before it. Spec: SharedLock!ListChildren
// (ZooKeeper recipes, "Shared Locks" steps 2-4).
func (sp *Spec) ListChildren(s *State, c int, t *State) model.Guard {
	if g := s.Ready(c, recipe.PCList); g != model.Enabled {
		return g
	}
	blockers := s.Blockers(c)
	if len(blockers) == 0 {
		s.Listed(c, &t.State, NoTarget, 0)
		return model.Enabled
	}
	s.Listed(c, &t.State, blockers[len(blockers)-1].Name(), len(blockers))
	return model.Enabled
}

// GrantOnHeadGone: the hand-off in one notification. The current request's
// watch fired on a node that was the only blocker of ours at the listing
// that chose it (soleBlocker), and the client goes straight to Grant
// without listing again, if it is a reader or its blocker was a read node.
// A writer whose only blocker was a write node lists again: Downgrade
// deletes that node and puts a read node at the same sequence number in
// the same transaction, so its deletion does not mean nothing is ahead.
// Spec: SharedLock!GrantOnHeadGone.
func (sp *Spec) GrantOnHeadGone(s *State, c int, t *State) model.Guard {
	if g := s.HeadGone(c); g != model.Enabled {
		return g
	}
	if s.Kind[c] != KindRead && s.Target[c].Kind != KindRead {
		return `kind[c] = "read" \/ target[c][2] = "read"`
	}
	s.Consume(c, &t.State, recipe.PCGrant)
	return model.Enabled
}

// Grant: getData(<own node>): token := czxid; the client holds (as a
// reader or a writer). Spec: SharedLock!Grant (ZooKeeper recipes, "Shared
// Locks" step 3).
func (sp *Spec) Grant(s *State, c int, t *State) model.Guard {
	switch {
	case s.Paused[c]:
		return recipe.GNotPaused
	case s.PC[c] != recipe.PCGrant:
		return `pc[c] = "grant"`
	case !s.LiveC(c):
		return recipe.GLive
	case !s.OwnNodeExists(c):
		return `OwnNodeExists(c)`
	}
	own, _ := s.NodeAt(s.Node[c])
	*t = *s
	t.Token = cow.With(s.Token, c, own.Czxid)
	t.PC = cow.With(s.PC, c, recipe.PCHold)
	return model.Enabled
}

// Downgrade: a holding writer downgrades with one multi {create
// _c_<uuid>-__READ__<seq> (EPHEMERAL, non-sequential, the write node's
// suffix), delete(write node)}: one transaction, one zxid. The read node
// keeps the queue position; watches on the write node fire; the lease
// keeps its token. Spec: SharedLock!Downgrade (Curator ReadWriteLock,
// CURATOR-621).
func (sp *Spec) Downgrade(s *State, c int, t *State) model.Guard {
	switch {
	case !sp.WithDowngrade:
		return `WithDowngrade`
	case s.Paused[c]:
		return recipe.GNotPaused
	case !s.Holding(c, KindWrite):
		return `Holding(c, "write")`
	case !s.LiveC(c):
		return recipe.GLive
	}
	own, ok := s.NodeAt(s.Node[c])
	if !ok {
		return recipe.GNoChoose
	}
	read := own
	read.Kind, read.Czxid = KindRead, s.Zxid+1
	*t = *s
	s.Multi(&t.Server, []Node{own}, []Node{read})
	t.Kind = cow.With(s.Kind, c, KindRead)
	return model.Enabled
}

// PauseClient: a holder's process pauses; a fault. Spec:
// SharedLock!PauseClient.
func (sp *Spec) PauseClient(s *State, c int, t *State) model.Guard {
	where := model.Enabled
	if s.PC[c] != recipe.PCHold {
		where = `pc[c] = "hold"`
	}
	return sp.r.PauseClient(&s.State, c, where, &t.State)
}
