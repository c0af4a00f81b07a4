package recipe

import (
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/internal/cow"
	"github.com/zklock/zklock/model/zk"
)

// Every action is a method named like the spec action. It evaluates the
// action's guard in s and, if every conjunct holds, writes the successor
// into t and returns model.Enabled; otherwise it returns the first false
// conjunct and leaves t alone. The successor shares unchanged slices with
// s. The actions here are those PredecessorLock and SharedLock write alike
// (the comments cite PredecessorLock's text; SharedLock's is the same);
// a module's own variables are its package's to copy (model/predlock's
// tenure and history: SharedLock has none).

// Guards shared by the client actions.
const (
	GNotPaused model.Guard = `~paused[c]`
	GLive      model.Guard = `Live(c)`
	GFault     model.Guard = `Fault (faults < MaxFaults)`
	GNoChoose  model.Guard = `NodeAt(node[c]) is defined`
	GHasEvent  model.Guard = `inbox[c] # <<>>`
	GHeadIsOwn model.Guard = `NextEvent(c).req = Uuid(c)`
)

var pcIs = [...]model.Guard{`pc[c] = "idle"`, `pc[c] = "create"`, `pc[c] = "find"`, `pc[c] = "list"`,
	`pc[c] = "second"`, `pc[c] = "watch"`, `pc[c] = "wait"`, `pc[c] = "grant"`, `pc[c] = "hold"`}

// PCIs is the guard pc[c] = p.
func PCIs(p PC) model.Guard { return pcIs[p] }

// Spec holds what the shared actions read: the constants, and the one
// conjunct the modules write differently.
type Spec[K zk.Kind] struct {
	*Constants
	// ExpireHeld is ExpireSession's conjunct that the current session of
	// a holder expires only while it is paused, as the module writes it.
	ExpireHeld model.Guard
}

// Ready is the guard of a call c makes in control state pc: ~paused[c],
// pc[c] = pc and Live(c), in this order.
func (s *State[K]) Ready(c int, pc PC) model.Guard {
	switch {
	case s.Paused[c]:
		return GNotPaused
	case s.PC[c] != pc:
		return pcIs[pc]
	case !s.LiveC(c):
		return GLive
	}
	return model.Enabled
}

// Reread is the guard of a grant that reads the own node
// (getData(<own node>)): Ready(c, PCGrant) and OwnNodeExists(c), the
// node of kind kinds[c] (kinds nil: names carry no kind).
func (s *State[K]) Reread(c int, kinds []K) model.Guard {
	if g := s.Ready(c, PCGrant); g != model.Enabled {
		return g
	}
	if !s.OwnNodeOf(c, kinds) {
		return `OwnNodeExists(c)`
	}
	return model.Enabled
}

// RequestLock: Mutex.Lock / RWMutex.RLock or Lock is called: a new request
// with a fresh uuid <<c, reqNo+1>>, chosen before the create so the node
// can be recognised after a lost reply (ZooKeeper recipes, "Locks" step 1
// and "Recoverable Errors and the GUID"). SharedLock sets its kind.
func (sp Spec[K]) RequestLock(s *State[K], c int, t *State[K]) model.Guard {
	switch {
	case s.Paused[c]:
		return GNotPaused
	case s.PC[c] != PCIdle:
		return pcIs[PCIdle]
	case s.ReqNo[c] >= sp.MaxRequests:
		return `reqNo[c] < MaxRequests`
	}
	*t = *s
	t.PC = cow.With(s.PC, c, PCCreate)
	t.ReqNo = cow.With(s.ReqNo, c, s.ReqNo[c]+1)
	return model.Enabled
}

// CreateOk: create(<lock>/_c_<uuid>-lock- (or -__READ__, -__WRIT__),
// EPHEMERAL_SEQUENTIAL) with its reply received: the server appends the
// next sequence number (ZK!CreateNode) and the client knows its node
// (ZooKeeper recipes, "Locks" step 1). k is the kind of c's request.
func (sp Spec[K]) CreateOk(s *State[K], c int, k K, t *State[K]) model.Guard {
	if g := s.Ready(c, PCCreate); g != model.Enabled {
		return g
	}
	if !s.CanCreate(sp.MaxSeq) {
		return zk.GSeq
	}
	*t = *s
	s.CreateNode(&t.Server, k, s.SessOf(c), s.UuidOf(c))
	t.PC = cow.With(s.PC, c, PCList)
	t.Node = cow.With(s.Node, c, s.NextSeq)
	return model.Enabled
}

// CreateReplyLost: the same create succeeds on the server, but the
// connection drops before the reply (ConnectionLoss): the node exists and
// the client does not know its name. A fault (ZooKeeper recipes,
// "Recoverable Errors and the GUID"). k is the kind of c's request.
func (sp Spec[K]) CreateReplyLost(s *State[K], c int, k K, t *State[K]) model.Guard {
	if !sp.WithReplyLoss {
		return `WithReplyLoss`
	}
	if g := s.Ready(c, PCCreate); g != model.Enabled {
		return g
	}
	switch {
	case !s.CanCreate(sp.MaxSeq):
		return zk.GSeq
	case !sp.Fault(s.Faults):
		return GFault
	}
	*t = *s
	t.Faults = s.Faults + 1
	s.CreateNode(&t.Server, k, s.SessOf(c), s.UuidOf(c))
	t.PC = cow.With(s.PC, c, PCFind)
	return model.Enabled
}

// FindOwnNode: after reconnecting, getChildren and look for a node whose
// name carries this request's uuid and that the current session owns.
// Found: continue with it. Not found: create again (unreachable here: a
// request never outlives its session; kept to mirror the implementation)
// (ZooKeeper recipes, "Recoverable Errors and the GUID").
func (sp Spec[K]) FindOwnNode(s *State[K], c int, t *State[K]) model.Guard {
	if g := s.Ready(c, PCFind); g != model.Enabled {
		return g
	}
	*t = *s
	for _, n := range s.Nodes { // CHOOSE n \in mine: mine has at most one node
		if n.Uuid == s.UuidOf(c) && n.Owner == s.SessOf(c) {
			t.PC = cow.With(s.PC, c, PCList)
			t.Node = cow.With(s.Node, c, n.Seq)
			return model.Enabled
		}
	}
	t.PC = cow.With(s.PC, c, PCCreate)
	return model.Enabled
}

// Listed is the effect of ListChildren once c has listed (the guard is
// Ready(c, PCList)): no blocker (count 0): go on to Grant; otherwise
// watch last, the blocker chosen, which was the only one if count is 1,
// and, when second is not NoNode (PredecessorLock with two or more
// nodes before ours), first the node two ahead (WatchSecond).
func (s *State[K]) Listed(c int, t *State[K], last zk.Name[K], count int, second int) {
	*t = *s
	if count == 0 {
		t.PC = cow.With(s.PC, c, PCGrant)
		return
	}
	if second != zk.NoNode {
		t.PC = cow.With(s.PC, c, PCSecond)
		t.SetSecond(c, second)
	} else {
		t.PC = cow.With(s.PC, c, PCWatch)
	}
	t.Target = cow.With(s.Target, c, last)
	t.SetSoleBlocker(c, count == 1)
}

// WatchPredecessor: getData(<target>, watch=true), an atomic read and
// watch-set (ZK!SetWatch). The node exists: the watch is armed and the
// client waits. NoNode: no watch is left behind (unlike exists); list
// again (a read sets its watch atomically, ZooKeeper Programmer's Guide
// "ZooKeeper Watches"; NoNode lists again as Curator's
// LockInternals.internalLockLoop does).
func (sp Spec[K]) WatchPredecessor(s *State[K], c int, t *State[K]) model.Guard {
	if g := s.Ready(c, PCWatch); g != model.Enabled {
		return g
	}
	*t = *s
	if s.NodeExists(s.Target[c]) {
		s.SetWatch(&t.Server, s.Target[c], s.UuidOf(c))
		t.PC = cow.With(s.PC, c, PCWait)
		return model.Enabled
	}
	t.PC = cow.With(s.PC, c, PCList)
	t.Target = cow.With(s.Target, c, NoTarget[K]())
	t.SetSecond(c, zk.NoNode)
	t.SetSoleBlocker(c, false)
	return model.Enabled
}

// WatchSecondLost: the getData(<second>, watch=true) fails with a lost
// connection: whatever watch the server armed went with the connection,
// and the client, which does not retry it, goes on to its predecessor
// with no watch on its second (impl/zklock watchBoth; the trace says
// WatchSecond "lost"). No budget here: it is
// PredecessorLockConnLoss!WatchSecondLostStep; the module's action spends
// its budget around it.
func (sp Spec[K]) WatchSecondLost(s *State[K], c int, t *State[K]) model.Guard {
	if g := s.Ready(c, PCSecond); g != model.Enabled {
		return g
	}
	*t = *s
	t.PC = cow.With(s.PC, c, PCWatch)
	return model.Enabled
}

// WatchPredecessorLost: the getData(<target>, watch=true) fails with a
// lost connection (its request or its reply): the server dropped whatever
// watch it armed with the connection and go-zookeeper, which registers a
// watch only with its reply, does not set it again, so the client lists
// again, the node there or not (impl/zklock watchBoth; the trace says
// WatchPredecessor "lost"). Watches armed before stay. No budget here: it is
// PredecessorLockConnLoss!WatchPredecessorLostStep (and the trace specs'
// match of "lost"); the module's action spends its budget around it.
func (sp Spec[K]) WatchPredecessorLost(s *State[K], c int, t *State[K]) model.Guard {
	if g := s.Ready(c, PCWatch); g != model.Enabled {
		return g
	}
	*t = *s
	t.PC = cow.With(s.PC, c, PCList)
	t.Target = cow.With(s.Target, c, NoTarget[K]())
	t.SetSecond(c, zk.NoNode)
	t.SetSoleBlocker(c, false)
	return model.Enabled
}

// Notified is the guard of the steps that consume a NodeDeleted event of
// one of the current request's watches: ~paused[c], an event is queued,
// it is for Uuid(c), and c waits.
func (s *State[K]) Notified(c int) model.Guard {
	switch {
	case s.Paused[c]:
		return GNotPaused
	case !s.HasEvent(c):
		return GHasEvent
	case s.NextEvent(c).Req != s.UuidOf(c):
		return GHeadIsOwn
	case s.PC[c] != PCWait:
		return pcIs[PCWait]
	}
	return model.Enabled
}

// HeadGone is the guard of GrantOnHeadGone as far as both specs write it:
// Notified(c), the event is for the target itself (not for an older
// watch of the request, such as its second), and soleBlocker[c].
func (s *State[K]) HeadGone(c int) model.Guard {
	if g := s.Notified(c); g != model.Enabled {
		return g
	}
	if s.NextEvent(c).Node != s.Target[c] {
		return `NextEvent(c).node = target[c]`
	}
	if !s.SoleBlocker[c] {
		return `soleBlocker[c]`
	}
	return model.Enabled
}

// AnyHeadGone is HeadGone without the check of which node the event is
// for (the mutant PredecessorLockStaleEvent).
func (s *State[K]) AnyHeadGone(c int) model.Guard {
	if g := s.Notified(c); g != model.Enabled {
		return g
	}
	if !s.SoleBlocker[c] {
		return `soleBlocker[c]`
	}
	return model.Enabled
}

// Consume is the effect of a consumed notification: the event taken,
// the target forgotten, and c goes on in control state pc ("list": list
// again, PredecessorGone; "grant": the hand-off, GrantOnHeadGone).
func (s *State[K]) Consume(c int, t *State[K], pc PC) {
	*t = *s
	s.Server.TakeEvent(&t.Server, c)
	t.PC = cow.With(s.PC, c, pc)
	t.Target = cow.With(s.Target, c, NoTarget[K]())
	t.SetSecond(c, zk.NoNode)
	t.SetSoleBlocker(c, false)
}

// ConsumeIf is Consume(c, t, pc) where the event's guard g (Notified(c),
// HeadGone(c), ...) holds, and returns g: the steps that take a
// notification (PredecessorGone, GrantOnHeadGone and their mutants).
func (s *State[K]) ConsumeIf(c int, t *State[K], g model.Guard, pc PC) model.Guard {
	if g == model.Enabled {
		s.Consume(c, t, pc)
	}
	return g
}

// PredecessorGone: the client consumes the head of its inbox, a NodeDeleted
// event for the watch of its current request, and lists again (it does not
// conclude that it holds) (ZooKeeper recipes, "Locks" step 5).
func (sp Spec[K]) PredecessorGone(s *State[K], c int, t *State[K]) model.Guard {
	return s.ConsumeIf(c, t, s.Notified(c), PCList)
}

// IgnoreNotification: internal; the head of the inbox is for a request the
// client no longer waits on (a watch a cancelled request left behind:
// go-zookeeper v1.0.4 cannot remove watches). It is dropped.
func (sp Spec[K]) IgnoreNotification(s *State[K], c int, t *State[K]) model.Guard {
	switch {
	case s.Paused[c]:
		return GNotPaused
	case !s.HasEvent(c):
		return GHasEvent
	case s.NextEvent(c).Req == s.UuidOf(c) && s.PC[c] == PCWait:
		return `~(NextEvent(c).req = Uuid(c) /\ pc[c] = "wait")`
	}
	*t = *s
	s.Server.TakeEvent(&t.Server, c)
	return model.Enabled
}

// Release: Mutex.Unlock / RUnlock / Unlock, delete(<own node>); watches on
// it fire (ZooKeeper recipes, "Locks": the release). t is Idle(c) but for
// the module's own variables.
func (sp Spec[K]) Release(s *State[K], c int, t *State[K]) model.Guard {
	if g := s.Ready(c, PCHold); g != model.Enabled {
		return g
	}
	own, ok := s.NodeAt(s.Node[c])
	if !ok {
		return GNoChoose
	}
	*t = *s
	sp.EndRequest(s, t, c, []zk.Node[K]{own})
	t.Idle(c)
	return model.Enabled
}

// Cancel: the request's context ends while acquiring: delete every node
// carrying this request's uuid (found by listing, so it works while the
// node is unknown after a lost reply) and go idle. A watch the request
// armed stays behind (docs/DESIGN.md "The recipe": a waiter whose context
// ends deletes its node). t is Idle(c) but for the module's own variables.
func (sp Spec[K]) Cancel(s *State[K], c int, t *State[K]) model.Guard {
	if g := s.Cancellable(sp.Constants, c); g != model.Enabled {
		return g
	}
	mine := s.NodesOf(s.UuidOf(c))
	*t = *s
	sp.EndRequest(s, t, c, mine)
	t.Idle(c)
	return model.Enabled
}

// EndRequest is EndRequest(c, mine): without AsyncDelete the nodes mine
// are deleted in this step (ZK!DeleteNodes); with it their delete is left
// pending (ZK!QueueDelete) until DeleteLands or the session's expiry.
func (sp Spec[K]) EndRequest(s, t *State[K], c int, mine []zk.Node[K]) {
	if !sp.AsyncDelete {
		s.DeleteNodes(&t.Server, mine)
		return
	}
	s.QueueDelete(&t.Server, s.SessOf(c), s.UuidOf(c), mine)
}

// LearnExpiry: the client learns that its session is lost and drops every
// belief: the server expired it (StateExpired, or a call failing with
// SESSIONEXPIRED; free), or its own loss timer fired while the server may
// still have it (a fault). Later requests use session k+1
// (ZK!NewSession); the abandoned session stays live with its nodes until
// ExpireSession; its watches and queued events are dropped
// (docs/DESIGN.md "Unrecoverable errors: sessions, loss and fencing"). t
// is Idle(c) but for the module's own variables.
func (sp Spec[K]) LearnExpiry(s *State[K], c int, t *State[K]) model.Guard {
	return LearnExpiry(sp.Constants, s, c, t, clientsOf[K], (*State[K]).Idle)
}

// clientsOf is the recipe's Clients in s.
func clientsOf[K zk.Kind](s *State[K]) *Clients[K, PC] { return &s.Clients }

// ExpireSession: the server expires session x (ZK!ExpireSession, one
// transaction: its ephemeral nodes are deleted, watches on them fire, and
// the session's own watches are dropped). For the session a client uses
// this is a fault, enabled only while the client does not believe it
// holds, unless it is paused (the loss timer fires before the server may
// expire the session); an abandoned session may always expire, at no cost
// (ZooKeeper Programmer's Guide "ZooKeeper Sessions"; docs/DESIGN.md
// "Unrecoverable errors: sessions, loss and fencing").
func (sp Spec[K]) ExpireSession(s *State[K], x zk.Session, t *State[K]) model.Guard {
	if !s.IsLive(x) {
		return `s \in live`
	}
	c := x.C
	current := x == s.SessOf(c)
	if current {
		switch {
		case !sp.WithExpiry:
			return `s = Sess(c) => WithExpiry`
		case s.PC[c] == PCHold && !s.Paused[c]:
			return sp.ExpireHeld
		case !sp.Fault(s.Faults):
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

// DeleteLands: the pending delete of request u reaches the server
// (ZK!DeleteLands): one transaction deletes the request's nodes and
// watches on them fire. A step of the network and the server: a paused
// client's delete lands too.
func (sp Spec[K]) DeleteLands(s *State[K], u zk.Uuid, t *State[K]) model.Guard {
	if g := s.DeleteLandsGuard(u); g != model.Enabled {
		return g
	}
	*t = *s
	s.Server.DeleteLands(&t.Server, u)
	return model.Enabled
}

// PauseClient: a process pause (GC, VM stall, SIGSTOP); a fault. where is
// the module's guard on c's control state (Enabled where c may pause).
func (sp Spec[K]) PauseClient(s *State[K], c int, where model.Guard, t *State[K]) model.Guard {
	return PauseClient(sp.Constants, s, c, where, t, clientsOf[K])
}

// ResumeClient: the pause ends; the client still believes whatever it
// believed.
func (sp Spec[K]) ResumeClient(s *State[K], c int, t *State[K]) model.Guard {
	return ResumeClient(s, c, t, clientsOf[K])
}
