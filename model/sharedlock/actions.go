package sharedlock

import (
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/internal/cow"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/zk"
)

// Every action is a method named like the spec action; it returns
// model.Enabled and writes the successor into t, or returns the first
// false conjunct of its guard (see model/predlock).

const (
	gNotPaused model.Guard = `~paused[c]`
	gLive      model.Guard = `Live(c)`
	gFault     model.Guard = `Fault (faults < MaxFaults)`
	gNoChoose  model.Guard = `NodeAt(node[c]) is defined`
)

// RequestLock: RWMutex.RLock (k = read) or RWMutex.Lock (k = write): a new
// request with a fresh uuid. Spec: SharedLock!RequestLock (ZooKeeper
// recipes, "Shared Locks" step 1 and "Recoverable Errors and the GUID").
func (sp *Spec) RequestLock(s *State, c int, k Kind, t *State) model.Guard {
	switch {
	case k != KindRead && k != KindWrite:
		return `k \in Kinds`
	case s.Paused[c]:
		return gNotPaused
	case s.PC[c] != recipe.PCIdle:
		return `pc[c] = "idle"`
	case s.ReqNo[c] >= sp.MaxRequests:
		return `reqNo[c] < MaxRequests`
	}
	*t = *s
	t.PC = cow.With(s.PC, c, recipe.PCCreate)
	t.Kind = cow.With(s.Kind, c, k)
	t.ReqNo = cow.With(s.ReqNo, c, s.ReqNo[c]+1)
	return model.Enabled
}

// CreateOk: create(_c_<uuid>-__READ__ or _c_<uuid>-__WRIT__,
// EPHEMERAL_SEQUENTIAL), reply received. Spec: SharedLock!CreateOk
// (ZooKeeper recipes, "Shared Locks" step 1).
func (sp *Spec) CreateOk(s *State, c int, t *State) model.Guard {
	switch {
	case s.Paused[c]:
		return gNotPaused
	case s.PC[c] != recipe.PCCreate:
		return `pc[c] = "create"`
	case !s.LiveC(c):
		return gLive
	case !s.CanCreate(sp.MaxSeq):
		return zk.GSeq
	}
	*t = *s
	s.CreateNode(&t.Server, s.Kind[c], s.SessOf(c), s.UuidOf(c))
	t.PC = cow.With(s.PC, c, recipe.PCList)
	t.Node = cow.With(s.Node, c, s.NextSeq)
	return model.Enabled
}

// CreateReplyLost: the create succeeds, its reply is lost (ConnectionLoss).
// A fault. Spec: SharedLock!CreateReplyLost (ZooKeeper recipes,
// "Recoverable Errors and the GUID").
func (sp *Spec) CreateReplyLost(s *State, c int, t *State) model.Guard {
	switch {
	case !sp.WithReplyLoss:
		return `WithReplyLoss`
	case s.Paused[c]:
		return gNotPaused
	case s.PC[c] != recipe.PCCreate:
		return `pc[c] = "create"`
	case !s.LiveC(c):
		return gLive
	case !s.CanCreate(sp.MaxSeq):
		return zk.GSeq
	case !sp.fault(s):
		return gFault
	}
	*t = *s
	t.Faults = s.Faults + 1
	s.CreateNode(&t.Server, s.Kind[c], s.SessOf(c), s.UuidOf(c))
	t.PC = cow.With(s.PC, c, recipe.PCFind)
	return model.Enabled
}

// FindOwnNode: getChildren, find the node carrying this request's uuid and
// owned by the current session. Spec: SharedLock!FindOwnNode (ZooKeeper
// recipes, "Recoverable Errors and the GUID").
func (sp *Spec) FindOwnNode(s *State, c int, t *State) model.Guard {
	switch {
	case s.Paused[c]:
		return gNotPaused
	case s.PC[c] != recipe.PCFind:
		return `pc[c] = "find"`
	case !s.LiveC(c):
		return gLive
	}
	*t = *s
	for _, n := range s.Nodes {
		if n.Uuid == s.UuidOf(c) && n.Owner == s.SessOf(c) {
			t.PC = cow.With(s.PC, c, recipe.PCList)
			t.Node = cow.With(s.Node, c, n.Seq)
			return model.Enabled
		}
	}
	t.PC = cow.With(s.PC, c, recipe.PCCreate)
	return model.Enabled
}

// ListChildren: getChildren without a watch, sorted by suffix. No blocker:
// go on to Grant. Otherwise a writer chooses its immediate predecessor, a
// reader the last write node before it. Spec: SharedLock!ListChildren
// (ZooKeeper recipes, "Shared Locks" steps 2-4).
func (sp *Spec) ListChildren(s *State, c int, t *State) model.Guard {
	switch {
	case s.Paused[c]:
		return gNotPaused
	case s.PC[c] != recipe.PCList:
		return `pc[c] = "list"`
	case !s.LiveC(c):
		return gLive
	}
	*t = *s
	blockers := s.Blockers(c)
	if len(blockers) == 0 {
		t.PC = cow.With(s.PC, c, recipe.PCGrant)
		return model.Enabled
	}
	t.PC = cow.With(s.PC, c, recipe.PCWatch)
	t.Target = cow.With(s.Target, c, blockers[len(blockers)-1].Name())
	t.SetSoleBlocker(c, len(blockers) == 1)
	return model.Enabled
}

// WatchPredecessor: getData(<chosen node>, watch=true), an atomic read and
// watch-set; it checks that the NAME exists (a downgraded write node is
// gone, its read node is another path). Exists: wait. NoNode: list again.
// Spec: SharedLock!WatchPredecessor (a read sets its watch atomically:
// ZooKeeper Programmer's Guide, "ZooKeeper Watches").
func (sp *Spec) WatchPredecessor(s *State, c int, t *State) model.Guard {
	switch {
	case s.Paused[c]:
		return gNotPaused
	case s.PC[c] != recipe.PCWatch:
		return `pc[c] = "watch"`
	case !s.LiveC(c):
		return gLive
	}
	*t = *s
	if s.HasName(s.Target[c]) {
		s.SetWatch(&t.Server, s.Target[c], s.UuidOf(c))
		t.PC = cow.With(s.PC, c, recipe.PCWait)
		return model.Enabled
	}
	t.PC = cow.With(s.PC, c, recipe.PCList)
	t.Target = cow.With(s.Target, c, NoTarget)
	t.SetSoleBlocker(c, false)
	return model.Enabled
}

// PredecessorGone: consume the notification of the current request's
// watch; list again. Spec: SharedLock!PredecessorGone (ZooKeeper recipes,
// "Shared Locks" step 5).
func (sp *Spec) PredecessorGone(s *State, c int, t *State) model.Guard {
	switch {
	case s.Paused[c]:
		return gNotPaused
	case !s.HasEvent(c):
		return `inbox[c] # <<>>`
	case s.NextEvent(c) != s.UuidOf(c):
		return `Head(inbox[c]) = Uuid(c)`
	case s.PC[c] != recipe.PCWait:
		return `pc[c] = "wait"`
	}
	*t = *s
	s.TakeEvent(&t.Server, c)
	t.PC = cow.With(s.PC, c, recipe.PCList)
	t.Target = cow.With(s.Target, c, NoTarget)
	t.SetSoleBlocker(c, false)
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
	if g := sp.headGone(s, c); g != model.Enabled {
		return g
	}
	if s.Kind[c] != KindRead && s.Target[c].Kind != KindRead {
		return `kind[c] = "read" \/ target[c][2] = "read"`
	}
	sp.takeHeadGone(s, c, t)
	return model.Enabled
}

// headGone is the guard GrantOnHeadGone and its mutant share.
func (sp *Spec) headGone(s *State, c int) model.Guard {
	switch {
	case s.Paused[c]:
		return gNotPaused
	case !s.HasEvent(c):
		return `inbox[c] # <<>>`
	case s.NextEvent(c) != s.UuidOf(c):
		return `Head(inbox[c]) = Uuid(c)`
	case s.PC[c] != recipe.PCWait:
		return `pc[c] = "wait"`
	case !s.SoleBlocker[c]:
		return `soleBlocker[c]`
	}
	return model.Enabled
}

// takeHeadGone is the effect GrantOnHeadGone and its mutant share.
func (sp *Spec) takeHeadGone(s *State, c int, t *State) {
	*t = *s
	s.TakeEvent(&t.Server, c)
	t.PC = cow.With(s.PC, c, recipe.PCGrant)
	t.Target = cow.With(s.Target, c, NoTarget)
	t.SetSoleBlocker(c, false)
}

// IgnoreNotification: internal; drop a notification for a request the
// client no longer waits on. Spec: SharedLock!IgnoreNotification.
func (sp *Spec) IgnoreNotification(s *State, c int, t *State) model.Guard {
	switch {
	case s.Paused[c]:
		return gNotPaused
	case !s.HasEvent(c):
		return `inbox[c] # <<>>`
	case s.NextEvent(c) == s.UuidOf(c) && s.PC[c] == recipe.PCWait:
		return `~(Head(inbox[c]) = Uuid(c) /\ pc[c] = "wait")`
	}
	*t = *s
	s.TakeEvent(&t.Server, c)
	return model.Enabled
}

// Grant: getData(<own node>): token := czxid; the client holds (as a
// reader or a writer). Spec: SharedLock!Grant (ZooKeeper recipes, "Shared
// Locks" step 3).
func (sp *Spec) Grant(s *State, c int, t *State) model.Guard {
	switch {
	case s.Paused[c]:
		return gNotPaused
	case s.PC[c] != recipe.PCGrant:
		return `pc[c] = "grant"`
	case !s.LiveC(c):
		return gLive
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
		return gNotPaused
	case !s.Holding(c, KindWrite):
		return `Holding(c, "write")`
	case !s.LiveC(c):
		return gLive
	}
	own, ok := s.NodeAt(s.Node[c])
	if !ok {
		return gNoChoose
	}
	read := own
	read.Kind, read.Czxid = KindRead, s.Zxid+1
	*t = *s
	s.Multi(&t.Server, []Node{own}, []Node{read})
	t.Kind = cow.With(s.Kind, c, KindRead)
	return model.Enabled
}

// Release: RUnlock / Unlock, delete(<own node>). Spec: SharedLock!Release
// (ZooKeeper recipes, "Locks": the release).
func (sp *Spec) Release(s *State, c int, t *State) model.Guard {
	switch {
	case s.Paused[c]:
		return gNotPaused
	case s.PC[c] != recipe.PCHold:
		return `pc[c] = "hold"`
	case !s.LiveC(c):
		return gLive
	}
	own, ok := s.NodeAt(s.Node[c])
	if !ok {
		return gNoChoose
	}
	*t = *s
	sp.endRequest(s, t, c, []Node{own})
	idle(t, c)
	return model.Enabled
}

// Cancel: the context ends while acquiring: delete every node carrying
// this request's uuid, go idle. Spec: SharedLock!Cancel (docs/DESIGN.md
// "The recipe": a waiter whose context ends deletes its node).
func (sp *Spec) Cancel(s *State, c int, t *State) model.Guard {
	switch {
	case !sp.WithCancel:
		return `WithCancel`
	case s.Paused[c]:
		return gNotPaused
	case !s.PC[c].Acquiring():
		return `pc[c] \in Acquiring`
	case !s.LiveC(c):
		return gLive
	}
	mine := s.NodesOf(s.UuidOf(c))
	*t = *s
	sp.endRequest(s, t, c, mine)
	idle(t, c)
	return model.Enabled
}

// endRequest is EndRequest(c, mine): without AsyncDelete the nodes mine
// are deleted in this step; with it their delete is left pending (unless
// there is nothing to delete) until DeleteLands or the session's expiry.
func (sp *Spec) endRequest(s, t *State, c int, mine []Node) {
	if !sp.AsyncDelete {
		s.DeleteNodes(&t.Server, mine)
		return
	}
	s.QueueDelete(&t.Server, s.SessOf(c), s.UuidOf(c), mine)
}

// DeleteLands: the pending delete of request u reaches the server; one
// transaction deletes the request's nodes and watches on them fire. The
// session is live (ExpireSession drops the pending deletes of the session
// it expires). Spec: SharedLock!DeleteLands.
func (sp *Spec) DeleteLands(s *State, u Uuid, t *State) model.Guard {
	if g := s.DeleteLandsGuard(u); g != model.Enabled {
		return g
	}
	*t = *s
	s.Server.DeleteLands(&t.Server, u)
	return model.Enabled
}

// LearnExpiry: the client learns its session is lost (StateExpired, free;
// or its loss timer, a fault) and drops every belief; later requests use
// session k+1. Spec: SharedLock!LearnExpiry (docs/DESIGN.md
// "Unrecoverable errors: sessions, loss and fencing").
func (sp *Spec) LearnExpiry(s *State, c int, t *State) model.Guard {
	if s.Paused[c] {
		return gNotPaused
	}
	live := s.LiveC(c)
	if live {
		switch {
		case !sp.WithExpiry:
			return `Live(c) => WithExpiry`
		case s.PC[c] == recipe.PCIdle:
			return `Live(c) => pc[c] # "idle"`
		case !sp.fault(s):
			return `Live(c) => Fault`
		}
	}
	*t = *s
	if live {
		t.Faults = s.Faults + 1
	}
	t.Sess = cow.With(s.Sess, c, s.Sess[c]+1)
	s.NewSession(&t.Server, Session{C: c, K: s.Sess[c] + 1})
	idle(t, c)
	return model.Enabled
}

// ExpireSession: the server expires session x: a fault for a session in
// use, enabled only while its client does not hold or is paused; free for
// an abandoned session. Spec: SharedLock!ExpireSession (ZooKeeper
// Programmer's Guide, "ZooKeeper Sessions").
func (sp *Spec) ExpireSession(s *State, x Session, t *State) model.Guard {
	if !s.IsLive(x) {
		return `s \in live`
	}
	c := x.C
	current := x == s.SessOf(c)
	if current {
		switch {
		case !sp.WithExpiry:
			return `s = Sess(c) => WithExpiry`
		case s.PC[c] == recipe.PCHold && !s.Paused[c]:
			return `s = Sess(c) => (pc[c] # "hold" \/ paused[c])`
		case !sp.fault(s):
			return `s = Sess(c) => Fault`
		}
	}
	*t = *s
	if current {
		t.Faults = s.Faults + 1
	}
	s.Server.ExpireSession(&t.Server, x, current)
	return model.Enabled
}

// PauseClient: a holder's process pauses; a fault. Spec:
// SharedLock!PauseClient.
func (sp *Spec) PauseClient(s *State, c int, t *State) model.Guard {
	switch {
	case !sp.WithPause:
		return `WithPause`
	case s.Paused[c]:
		return gNotPaused
	case s.PC[c] != recipe.PCHold:
		return `pc[c] = "hold"`
	case !sp.fault(s):
		return gFault
	}
	*t = *s
	t.Faults = s.Faults + 1
	t.Paused = cow.With(s.Paused, c, true)
	return model.Enabled
}

// ResumeClient: the pause ends. Spec: SharedLock!ResumeClient.
func (sp *Spec) ResumeClient(s *State, c int, t *State) model.Guard {
	if !s.Paused[c] {
		return `paused[c]`
	}
	*t = *s
	t.Paused = cow.With(s.Paused, c, false)
	return model.Enabled
}
