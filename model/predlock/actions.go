package predlock

import (
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/internal/cow"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/zk"
)

// Every action is a method named like the spec action. It evaluates the
// action's guard in s and, if every conjunct holds, writes the successor
// into t and returns model.Enabled; otherwise it returns the first false
// conjunct and leaves t alone. The successor shares unchanged slices with s.

// Guards shared by the client actions.
const (
	gNotPaused model.Guard = `~paused[c]`
	gLive      model.Guard = `Live(c)`
	gFault     model.Guard = `Fault (faults < MaxFaults)`
	gNoChoose  model.Guard = `NodeAt(node[c]) is defined`
)

// RequestLock: Mutex.Lock is called; a new request with a fresh uuid
// <<c, reqNo+1>>, chosen before the create so the node can be recognised
// after a lost reply. Spec: PredecessorLock!RequestLock (ZooKeeper
// recipes, "Locks" step 1 and "Recoverable Errors and the GUID").
func (sp *Spec) RequestLock(s *State, c int, t *State) model.Guard {
	switch {
	case s.Paused[c]:
		return gNotPaused
	case s.PC[c] != recipe.PCIdle:
		return `pc[c] = "idle"`
	case s.ReqNo[c] >= sp.MaxRequests:
		return `reqNo[c] < MaxRequests`
	}
	*t = *s
	t.PC = cow.With(s.PC, c, recipe.PCCreate)
	t.ReqNo = cow.With(s.ReqNo, c, s.ReqNo[c]+1)
	return model.Enabled
}

// CreateOk: create(<lock>/_c_<uuid>-lock-, EPHEMERAL_SEQUENTIAL) with its
// reply received: the server appends the next sequence number (firing
// child watches on the parent) and the client knows its node.
// Spec: PredecessorLock!CreateOk (ZooKeeper recipes, "Locks" step 1).
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
	s.CreateNode(&t.Server, zk.NoKind{}, s.SessOf(c), s.UuidOf(c))
	t.PC = cow.With(s.PC, c, recipe.PCList)
	t.Node = cow.With(s.Node, c, s.NextSeq)
	t.Token = sp.knownToken(s, c, s.Zxid+1)
	return model.Enabled
}

// CreateReplyLost: the same create succeeds on the server, but the
// connection drops before the reply (ConnectionLoss): the node exists and
// the client does not know its name. A fault. Spec:
// PredecessorLock!CreateReplyLost (ZooKeeper recipes, "Recoverable Errors
// and the GUID").
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
	s.CreateNode(&t.Server, zk.NoKind{}, s.SessOf(c), s.UuidOf(c))
	t.PC = cow.With(s.PC, c, recipe.PCFind)
	return model.Enabled
}

// FindOwnNode: after reconnecting, getChildren and look for a node whose
// name carries this request's uuid and that the current session owns.
// Found: continue with it. Not found: create again (unreachable here: a
// request never outlives its session; kept to mirror the implementation).
// Spec: PredecessorLock!FindOwnNode (ZooKeeper recipes, "Recoverable
// Errors and the GUID": look for the guid among the children).
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
	for _, n := range s.Nodes { // CHOOSE n \in mine: mine has at most one node
		if n.Uuid == s.UuidOf(c) && n.Owner == s.SessOf(c) {
			t.PC = cow.With(s.PC, c, recipe.PCList)
			t.Node = cow.With(s.Node, c, n.Seq)
			t.Token = sp.knownToken(s, c, n.Czxid)
			return model.Enabled
		}
	}
	t.PC = cow.With(s.PC, c, recipe.PCCreate)
	return model.Enabled
}

// ListChildren: getChildren(<lock>) without a watch, sorted by suffix. No
// node before ours: the lock is ours (go on to Grant). Otherwise choose the
// node immediately before ours. Spec: PredecessorLock!ListChildren
// (ZooKeeper recipes, "Locks" steps 2-4: no watch on the listing, so no
// herd effect).
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
	before, count := NoNode, 0
	for _, n := range s.Nodes {
		if n.Seq < s.Node[c] {
			count++
			if n.Seq > before {
				before = n.Seq
			}
		}
	}
	if before == NoNode {
		t.PC = cow.With(s.PC, c, recipe.PCGrant)
		return model.Enabled
	}
	t.PC = cow.With(s.PC, c, recipe.PCWatch)
	t.Target = cow.With(s.Target, c, name(before))
	t.SetSoleBlocker(c, count == 1)
	return model.Enabled
}

// WatchPredecessor: getData(<target>, watch=true), an atomic read and
// watch-set. The node exists: the watch is armed and the client waits.
// NoNode: no watch is left behind (unlike exists); list again. Spec:
// PredecessorLock!WatchPredecessor (a read sets its watch atomically,
// ZooKeeper Programmer's Guide "ZooKeeper Watches"; NoNode lists again as
// Curator's LockInternals.internalLockLoop does).
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
	if s.NodeExists(s.Target[c]) {
		s.SetWatch(&t.Server, s.Target[c], s.UuidOf(c))
		t.PC = cow.With(s.PC, c, recipe.PCWait)
		return model.Enabled
	}
	t.PC = cow.With(s.PC, c, recipe.PCList)
	t.Target = cow.With(s.Target, c, NoTarget)
	t.SetSoleBlocker(c, false)
	return model.Enabled
}

// PredecessorGone: the client consumes the head of its inbox, a NodeDeleted
// event for the watch of its current request, and lists again (it does not
// conclude that it holds). Spec: PredecessorLock!PredecessorGone
// (ZooKeeper recipes, "Locks" step 5).
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

// GrantOnHeadGone: the hand-off in one notification. The client consumes
// the NodeDeleted event of its current request's watch on a node that was
// the only one before ours at the listing that chose it (soleBlocker), and
// goes straight to Grant without listing again: sequence numbers only grow,
// so nothing created since sorts before ours, and the node that was alone
// before ours is gone. Grant then takes the token known since the node
// became known and checks what the GrantRule checks (impl/zklock: the
// loss deadline). Spec: PredecessorLock!GrantOnHeadGone.
func (sp *Spec) GrantOnHeadGone(s *State, c int, t *State) model.Guard {
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
	*t = *s
	s.TakeEvent(&t.Server, c)
	t.PC = cow.With(s.PC, c, recipe.PCGrant)
	t.Target = cow.With(s.Target, c, NoTarget)
	t.SetSoleBlocker(c, false)
	return model.Enabled
}

// IgnoreNotification: internal; the head of the inbox is for a request the
// client no longer waits on (a watch a cancelled request left behind:
// go-zookeeper v1.0.4 cannot remove watches). It is dropped. Spec:
// PredecessorLock!IgnoreNotification.
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

// Grant: the client holds; the czxid of its node is the fencing token.
// By GrantRule: "reread" is getData(<own node>) on a live session, taking
// the czxid read then; "local" is no ZooKeeper call, the token known since
// the node became known, nothing checked; "checked" is "local" refused once
// the loss deadline has passed (~Overdue(c); impl/zklock's grant calls
// Session.checkDeadline). Spec: PredecessorLock!Grant (ZooKeeper
// recipes, "Locks" step 3).
func (sp *Spec) Grant(s *State, c int, t *State) model.Guard {
	switch {
	case s.Paused[c]:
		return gNotPaused
	case s.PC[c] != recipe.PCGrant:
		return `pc[c] = "grant"`
	}
	token := s.Token[c]
	switch sp.GrantRule {
	case GrantReread:
		switch {
		case !s.LiveC(c):
			return gLive
		case !s.OwnNodeExists(c):
			return `OwnNodeExists(c)`
		}
		own, _ := s.NodeAt(s.Node[c])
		token = own.Czxid
	case GrantChecked:
		if s.Overdue(c) {
			return `~Overdue(c)`
		}
	}
	*t = *s
	if token != s.Token[c] {
		t.Token = cow.With(s.Token, c, token)
	}
	t.LastToken = token
	t.Grants = s.Grants + 1
	t.Tenure = cow.With(s.Tenure, c, s.Grants+1)
	t.PC = cow.With(s.PC, c, recipe.PCHold)
	return model.Enabled
}

// Write: the critical section writes to an outside resource with the
// lease's token (not a ZooKeeper call: no live session needed). With
// Fencing the resource accepts only a token >= the highest it has seen; a
// rejected write changes nothing (a stuttering step). Spec:
// PredecessorLock!Write (docs/DESIGN.md "Unrecoverable errors: sessions,
// loss and fencing").
func (sp *Spec) Write(s *State, c int, t *State) model.Guard {
	switch {
	case s.Paused[c]:
		return gNotPaused
	case s.PC[c] != recipe.PCHold:
		return `pc[c] = "hold"`
	}
	*t = *s
	if sp.Fencing && s.Token[c] < s.ResHigh {
		return model.Enabled
	}
	if s.Token[c] > s.ResHigh {
		t.ResHigh = s.Token[c]
	}
	t.ResTenure = s.Tenure[c]
	return model.Enabled
}

// Release: Mutex.Unlock, delete(<own node>); watches on it fire. Spec:
// PredecessorLock!Release (ZooKeeper recipes, "Locks": the release).
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

// Cancel: the request's context ends while acquiring: delete every node
// carrying this request's uuid (found by listing, so it works while the
// node is unknown after a lost reply) and go idle. A watch the request
// armed stays behind. Spec: PredecessorLock!Cancel (docs/DESIGN.md "The
// recipe": a waiter whose context ends deletes its node).
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

// LearnExpiry: the client learns that its session is lost and drops every
// belief: the server expired it (StateExpired, or a call failing with
// SESSIONEXPIRED; free), or its own loss timer fired while the server may
// still have it (a fault). Later requests use session k+1; the abandoned
// session stays live with its nodes until ExpireSession; its watches and
// queued events are dropped. Spec: PredecessorLock!LearnExpiry
// (docs/DESIGN.md "Unrecoverable errors: sessions, loss and fencing").
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
