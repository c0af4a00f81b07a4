package sharedlock

import (
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/internal/cow"
	"github.com/zklock/zklock/model/recipe"
)

// Every action is a method named like the spec action; it returns
// model.Enabled and writes the successor into t, or returns the first
// false conjunct of its guard. The actions PredecessorLock writes alike
// are recipe.Spec's (RequestLock, CreateOk, CreateReplyLost, FindOwnNode,
// WatchPredecessor, PredecessorGone, IgnoreNotification, Release, Cancel,
// LearnExpiry, ExpireSession, DeleteLands, PauseClient, ResumeClient);
// the action table runs them on this package's State (on).

// shared is an action of recipe.Spec, on the variables both lock specs have.
type shared = func(recipe.Spec[Kind], *recipe.State[Kind], int, *recipe.State[Kind]) model.Guard

// kindKept completes a step an action of recipe.Spec took: the kinds
// are unchanged.
func kindKept(s, t *State, g model.Guard) model.Guard {
	if g == model.Enabled {
		t.Kind = s.Kind
	}
	return g
}

// on runs the shared action f on SharedLock's state; if f ends in
// Idle(c), Idle(c) resets c's kind too.
func on(f shared, idles bool) clientAction {
	return func(sp *Spec, s *State, c int, t *State) model.Guard {
		g := kindKept(s, t, f(sp.r, &s.State, c, &t.State))
		if g == model.Enabled && idles {
			resetKind(t, c)
		}
		return g
	}
}

// WatchPredecessorLost: recipe.Spec.WatchPredecessorLost, the getData on
// the node waited for lost with the connection: nothing armed, list again.
// Not an action of SharedLock's own variants: SharedLockConnLoss takes it
// with its budget (model/connloss), and model/trace matches
// WatchPredecessor "lost" with it, as SharedLockTrace does.
func (sp *Spec) WatchPredecessorLost(s *State, c int, t *State) model.Guard {
	return on(recipe.Spec[Kind].WatchPredecessorLost, false)(sp, s, c, t)
}

// RequestLock: RWMutex.RLock (k = read) or RWMutex.Lock (k = write): a new
// request of kind k with a fresh uuid (recipe.Spec.RequestLock). Spec:
// SharedLock!RequestLock (ZooKeeper recipes, "Shared Locks" step 1).
func (sp *Spec) RequestLock(s *State, c int, k Kind, t *State) model.Guard {
	if k != KindRead && k != KindWrite {
		return `k \in Kinds`
	}
	g := kindKept(s, t, sp.r.RequestLock(&s.State, c, &t.State))
	if g == model.Enabled {
		t.Kind = cow.With(s.Kind, c, k)
	}
	return g
}

// CreateOk: create(_c_<uuid>-__READ__ or _c_<uuid>-__WRIT__,
// EPHEMERAL_SEQUENTIAL), reply received (recipe.Spec.CreateOk, of a node
// of the request's kind). Spec: SharedLock!CreateOk.
func (sp *Spec) CreateOk(s *State, c int, t *State) model.Guard {
	return kindKept(s, t, sp.r.CreateOk(&s.State, c, s.Kind[c], &t.State))
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
		s.Listed(c, &t.State, NoTarget, 0, NoNode)
		return kindKept(s, t, model.Enabled)
	}
	s.Listed(c, &t.State, blockers[len(blockers)-1].Name(), len(blockers), NoNode)
	return kindKept(s, t, model.Enabled)
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
	return kindKept(s, t, s.ConsumeIf(c, &t.State, model.Enabled, recipe.PCGrant))
}

// Grant: getData(<own node>): token := czxid; the client holds (as a
// reader or a writer). Spec: SharedLock!Grant (ZooKeeper recipes, "Shared
// Locks" step 3).
func (sp *Spec) Grant(s *State, c int, t *State) model.Guard {
	if g := s.Reread(c, s.Kind); g != model.Enabled {
		return g
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

// DowngradeReplyLost: Downgrade's reply is lost and its context ends before
// the client learns the outcome; the multi was applied. The lease is a read
// lease from then on, whatever the outcome (the rule the spec checks and
// impl/zklock follows; keeping the write lease is mutant DowngradeLost). A
// fault.
// Spec: SharedLock!DowngradeReplyLost.
func (sp *Spec) DowngradeReplyLost(s *State, c int, t *State) model.Guard {
	return sp.downgradeLost(s, c, t, true)
}

// downgradeLost is DowngradeReplyLost, and with toRead false its mutant
// DowngradeReplyLostKeepsWrite: the multi applied, a fault spent, and the
// client's kind read (or left as it was).
func (sp *Spec) downgradeLost(s *State, c int, t *State, toRead bool) model.Guard {
	switch {
	case !sp.WithDowngrade:
		return `WithDowngrade`
	case !sp.WithReplyLoss:
		return `WithReplyLoss`
	case !sp.Fault(s.Faults):
		return recipe.GFault
	}
	if g := sp.Downgrade(s, c, t); g != model.Enabled {
		return g
	}
	t.Faults = s.Faults + 1
	if !toRead {
		t.Kind = s.Kind
	}
	return model.Enabled
}

// PauseClient: a holder's process pauses; a fault. Spec:
// SharedLock!PauseClient.
func (sp *Spec) PauseClient(s *State, c int, t *State) model.Guard {
	where := model.Enabled
	if s.PC[c] != recipe.PCHold {
		where = `pc[c] = "hold"`
	}
	return kindKept(s, t, sp.r.PauseClient(&s.State, c, where, &t.State))
}

// CreateReplyLost: the create succeeds, its reply is lost
// (recipe.Spec.CreateReplyLost, of a node of the request's kind). A fault.
// Spec: SharedLock!CreateReplyLost.
func (sp *Spec) CreateReplyLost(s *State, c int, t *State) model.Guard {
	return kindKept(s, t, sp.r.CreateReplyLost(&s.State, c, s.Kind[c], &t.State))
}
