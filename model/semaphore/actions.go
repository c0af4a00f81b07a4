package semaphore

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

var pcIs = [...]model.Guard{`pc[c] = "idle"`, `pc[c] = "create"`, `pc[c] = "find"`, `pc[c] = "list"`,
	`pc[c] = "wait"`, `pc[c] = "release"`, `pc[c] = "hold"`}

// ready is the guard of a call c makes in control state pc: ~paused[c],
// pc[c] = pc and Live(c).
func (s *State) ready(c int, pc PC) model.Guard {
	switch {
	case s.Paused[c]:
		return recipe.GNotPaused
	case s.PC[c] != pc:
		return pcIs[pc]
	case !s.LiveC(c):
		return recipe.GLive
	}
	return model.Enabled
}

// held is where a client goes once the count says its lease is held
// (spec: Held): it releases the internal mutex first, if it took one.
func (sp *Spec) held() PC {
	if sp.InternalLock {
		return PCRelease
	}
	return PCHold
}

// afterCreate is where a client goes once its lease node is known (spec:
// AfterCreate): list the leases, or in kazoo's order the lease is held.
func (sp *Spec) afterCreate() PC {
	if sp.CountFirst {
		return sp.held()
	}
	return PCList
}

// freed is the internal mutex once session x no longer holds it (spec: Freed(s)).
func (s *State) freed(x zk.Session) zk.Session {
	if s.Mutex == x {
		return NoSession
	}
	return s.Mutex
}

// idle is Idle(c): pc and node reset.
func (t *State) idle(c int) {
	t.PC = cow.With(t.PC, c, PCIdle)
	t.Node = cow.With(t.Node, c, NoNode)
}

// AcquireInternal: Semaphore.Acquire is called, a new acquisition, and the
// internal mutex (the lock recipe under P/locks) is granted to c's session
// in one step; without InternalLock the step only starts the acquisition
// (Curator: lock.acquire in internalAcquire1Lease).
func (sp *Spec) AcquireInternal(s *State, c int, t *State) model.Guard {
	switch {
	case s.Paused[c]:
		return recipe.GNotPaused
	case s.PC[c] != PCIdle:
		return pcIs[PCIdle]
	case s.ReqNo[c] >= sp.MaxRequests:
		return `reqNo[c] < MaxRequests`
	case !s.LiveC(c):
		return recipe.GLive
	case sp.InternalLock && s.Mutex != NoSession:
		return `InternalLock => mutex = NoSession`
	}
	*t = *s
	if sp.InternalLock {
		t.Mutex = s.SessOf(c)
	}
	next := PCCreate
	if sp.CountFirst {
		next = PCList
	}
	t.PC = cow.With(s.PC, c, next)
	t.ReqNo = cow.With(s.ReqNo, c, s.ReqNo[c]+1)
	return model.Enabled
}

// CreateLease: create(P/leases/_c_<uuid>-lease-, EPHEMERAL_SEQUENTIAL),
// reply received (ZK!CreateNode): the client knows its lease node.
func (sp *Spec) CreateLease(s *State, c int, t *State) model.Guard {
	if g := s.ready(c, PCCreate); g != model.Enabled {
		return g
	}
	if !s.CanCreate(sp.MaxSeq) {
		return zk.GSeq
	}
	*t = *s
	s.CreateNode(&t.Server, zk.NoKind{}, s.SessOf(c), s.UuidOf(c))
	t.PC = cow.With(s.PC, c, sp.afterCreate())
	t.Node = cow.With(s.Node, c, s.NextSeq)
	return model.Enabled
}

// CreateLeaseReplyLost: the create succeeds, its reply is lost
// (ConnectionLoss); a fault. The client looks for its node by uuid, or,
// in the mutant BlindRetry, creates again.
func (sp *Spec) CreateLeaseReplyLost(s *State, c int, t *State) model.Guard {
	if !sp.WithReplyLoss {
		return `WithReplyLoss`
	}
	if g := s.ready(c, PCCreate); g != model.Enabled {
		return g
	}
	switch {
	case !sp.Fault(s.Faults):
		return recipe.GFault
	case !s.CanCreate(sp.MaxSeq):
		return zk.GSeq
	}
	*t = *s
	t.Faults = s.Faults + 1
	s.CreateNode(&t.Server, zk.NoKind{}, s.SessOf(c), s.UuidOf(c))
	next := PCFind
	if sp.BlindRetry {
		next = PCCreate
	}
	t.PC = cow.With(s.PC, c, next)
	return model.Enabled
}

// FindOwnLease: getChildren(P/leases), and the node of the current session
// carrying this acquisition's uuid is ours (Curator's protection). Not
// found: create again (unreachable; the implementation's branch).
func (sp *Spec) FindOwnLease(s *State, c int, t *State) model.Guard {
	if g := s.ready(c, PCFind); g != model.Enabled {
		return g
	}
	*t = *s
	for _, n := range s.Nodes { // CHOOSE n \in mine: mine has at most one node
		if n.Uuid == s.UuidOf(c) && n.Owner == s.SessOf(c) {
			t.PC = cow.With(s.PC, c, sp.afterCreate())
			t.Node = cow.With(s.Node, c, n.Seq)
			return model.Enabled
		}
	}
	t.PC = cow.With(s.PC, c, PCCreate)
	return model.Enabled
}

// ListLeases: getChildren(P/leases, watch), the listing and the child watch
// in one server step (ZK!SetWatch(Parent, Uuid(c))). At most MaxLeases
// nodes: held; more: wait. In kazoo's order: fewer than MaxLeases: create,
// else wait.
func (sp *Spec) ListLeases(s *State, c int, t *State) model.Guard {
	if g := s.ready(c, PCList); g != model.Enabled {
		return g
	}
	*t = *s
	s.SetWatch(&t.Server, zk.Parent[zk.NoKind](), s.UuidOf(c))
	n := len(s.Nodes)
	next := PCWait
	switch {
	case sp.CountFirst && n < sp.MaxLeases:
		next = PCCreate
	case !sp.CountFirst && n <= sp.MaxLeases:
		next = sp.held()
	}
	t.PC = cow.With(s.PC, c, next)
	return model.Enabled
}

// LeasesChanged: the child watch of the current acquisition fired
// (NodeChildrenChanged, ZK!TakeEvent): list again.
func (sp *Spec) LeasesChanged(s *State, c int, t *State) model.Guard {
	switch {
	case s.Paused[c]:
		return recipe.GNotPaused
	case !s.HasEvent(c):
		return `HasEvent(c)`
	case s.NextEvent(c).Req != s.UuidOf(c):
		return `NextEvent(c).req = Uuid(c)`
	case s.PC[c] != PCWait:
		return pcIs[PCWait]
	}
	*t = *s
	s.TakeEvent(&t.Server, c)
	t.PC = cow.With(s.PC, c, PCList)
	return model.Enabled
}

// IgnoreNotification: the head of the inbox is for an acquisition that
// does not wait (a holder's leftover watch, a cancelled request's): dropped.
func (sp *Spec) IgnoreNotification(s *State, c int, t *State) model.Guard {
	switch {
	case s.Paused[c]:
		return recipe.GNotPaused
	case !s.HasEvent(c):
		return `HasEvent(c)`
	case s.NextEvent(c).Req == s.UuidOf(c) && s.PC[c] == PCWait:
		return `~(NextEvent(c).req = Uuid(c) /\ pc[c] = "wait")`
	}
	*t = *s
	s.TakeEvent(&t.Server, c)
	return model.Enabled
}

// ReleaseInternal: the lease is held; the client deletes its internal
// mutex node (Curator: lock.release()) and acquire returns.
func (sp *Spec) ReleaseInternal(s *State, c int, t *State) model.Guard {
	if g := s.ready(c, PCRelease); g != model.Enabled {
		return g
	}
	*t = *s
	t.Mutex = s.freed(s.SessOf(c))
	t.PC = cow.With(s.PC, c, PCHold)
	return model.Enabled
}

// ReleaseLease: Lease.Close, delete(<own lease node>) (ZK!DeleteNodes);
// the waiter's child watch fires.
func (sp *Spec) ReleaseLease(s *State, c int, t *State) model.Guard {
	if g := s.ready(c, PCHold); g != model.Enabled {
		return g
	}
	n, ok := s.NodeAt(s.Node[c])
	if !ok {
		return `NodeAt(node[c]) is defined`
	}
	*t = *s
	s.DeleteNodes(&t.Server, []Node{n})
	t.idle(c)
	return model.Enabled
}

// CancelAcquire: the acquisition's context ends: every lease node carrying
// its uuid is deleted (ZK!DeleteNodes), the internal mutex released.
func (sp *Spec) CancelAcquire(s *State, c int, t *State) model.Guard {
	if g := s.Cancellable(&sp.Constants.Constants, c); g != model.Enabled {
		return g
	}
	*t = *s
	s.DeleteNodes(&t.Server, s.NodesOf(s.UuidOf(c)))
	t.Mutex = s.freed(s.SessOf(c))
	t.idle(c)
	return model.Enabled
}

// LearnExpiry: the client learns its session is lost (the server expired
// it, or its loss timer fired: a fault) and moves to <<c, k+1>>
// (ZK!NewSession); the abandoned session keeps its lease node and the
// internal mutex until the server expires it.
func (sp *Spec) LearnExpiry(s *State, c int, t *State) model.Guard {
	return recipe.LearnExpiry(&sp.Constants.Constants, s, c, t, clientsOf, (*State).idle)
}

// clientsOf is the Clients in s.
func clientsOf(s *State) *recipe.Clients[zk.NoKind, PC] { return &s.Clients }

// ExpireSession: the server expires session x (ZK!ExpireSession): its
// lease node goes, the child watches fire, and the internal mutex is freed
// if x held it. The session a client uses expires only while the client
// holds neither a lease nor the internal mutex (its loss timer fires
// first), or is a paused holder, as a fault; an abandoned one at no cost.
func (sp *Spec) ExpireSession(s *State, x zk.Session, t *State) model.Guard {
	if !s.IsLive(x) {
		return `s \in live`
	}
	c := x.C
	current := x == s.SessOf(c)
	if current {
		switch {
		case !sp.WithExpiry:
			return `s = Sess(c) => WithExpiry`
		case s.PC[c].HoldsLease() && !s.Paused[c]:
			return `s = Sess(c) => (HoldsLease(c) => paused[c])`
		case s.Mutex == x:
			return `s = Sess(c) => mutex # s`
		case !sp.Fault(s.Faults):
			return `s = Sess(c) => Fault`
		}
	}
	*t = *s
	if current {
		t.Faults = s.Faults + 1
	}
	s.Server.ExpireSession(&t.Server, x, current)
	t.Mutex = s.freed(x)
	return model.Enabled
}

// PauseClient: a holder's process pauses (GC, VM stall, SIGSTOP), a fault.
func (sp *Spec) PauseClient(s *State, c int, t *State) model.Guard {
	where := model.Enabled
	if s.PC[c] != PCHold {
		where = pcIs[PCHold]
	}
	return recipe.PauseClient(&sp.Constants.Constants, s, c, where, t, clientsOf)
}

// ResumeClient: the pause ends; the client still believes it holds.
func (sp *Spec) ResumeClient(s *State, c int, t *State) model.Guard {
	return recipe.ResumeClient(s, c, t, clientsOf)
}
