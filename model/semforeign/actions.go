package semforeign

import (
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/internal/cow"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/semaphore"
	"github.com/zklock/zklock/model/zk"
)

// ownEvent is OwnEvent(c): the event of the watch on c's own lease node
// (its name is its seq), of its current acquisition.
func ownEvent(s *semaphore.State, c int) semaphore.Watch {
	return semaphore.Watch{Node: zk.Name[zk.NoKind]{Seq: s.Node[c]}, Req: s.UuidOf(c)}
}

// Notified is Notified(c): the own node's event is delivered, not taken.
func Notified(s *semaphore.State, c int) bool {
	e := ownEvent(s, c)
	for _, w := range s.Inbox[c] {
		if w == e {
			return true
		}
	}
	return false
}

// Armed is Armed(c): the own watch is set, or has fired and its event waits.
func Armed(s *semaphore.State, c int) bool {
	e := ownEvent(s, c)
	for _, w := range s.Watches {
		if w == e {
			return true
		}
	}
	return Notified(s, c)
}

// Stale is Stale(c): Notified(c) \/ ArmingPending(c).
func (sp *Spec) Stale(s *semaphore.State, c int) bool {
	return Notified(s, c) || (sp.WatchOwn && s.PC[c].HoldsLease() && !Armed(s, c))
}

// nameExists is NameExists(c): a lease node of the seq c's node has.
func nameExists(s *semaphore.State, c int) bool {
	_, ok := s.NodeAt(s.Node[c])
	return ok
}

// touchable is Touchable(n): no request is creating n or looking for it.
func touchable(s *semaphore.State, n semaphore.Node) bool {
	for c := range s.PC {
		if (s.PC[c] == semaphore.PCCreate || s.PC[c] == semaphore.PCFind) && n.Uuid == s.UuidOf(c) && n.Owner == s.SessOf(c) {
			return false
		}
	}
	return true
}

// ArmOwnWatch: the reply to the getData with a watch on c's own lease node
// (Semaphore.grant: Lease.watchOwnNode, keepOwnWatch, armOwn), still its
// own: the watch is set. Spec: SemaphoreForeign!ArmOwnWatch.
func (sp *Spec) ArmOwnWatch(s *semaphore.State, c int, t *semaphore.State) model.Guard {
	switch {
	case !sp.WatchOwn:
		return `WatchOwn`
	case s.Paused[c]:
		return recipe.GNotPaused
	case s.PC[c] != semaphore.PCHold:
		return `pc[c] = "hold"`
	case Armed(s, c):
		return `~Armed(c)`
	case !s.LiveC(c):
		return recipe.GLive
	case !s.OwnLeaseExists(c):
		return `OwnLeaseExists(c)`
	}
	*t = *s
	s.SetWatch(&t.Server, ownEvent(s, c).Node, s.UuidOf(c))
	return model.Enabled
}

// LearnNodeGone: the lease ends because its node is gone or not its own
// (impl/zklock Lease.ownNodeGone: ErrNodeDeleted, ErrNodeReplaced): the
// own watch's event is the next c takes, or the arming getData's reply
// found no node of c's. Spec: SemaphoreForeign!LearnNodeGone.
func (sp *Spec) LearnNodeGone(s *semaphore.State, c int, t *semaphore.State) model.Guard {
	switch {
	case !sp.WatchOwn:
		return `WatchOwn`
	case s.Paused[c]:
		return recipe.GNotPaused
	case s.PC[c] != semaphore.PCHold:
		return `pc[c] = "hold"`
	}
	*t = *s
	switch {
	case len(s.Inbox[c]) > 0 && s.Inbox[c][0] == ownEvent(s, c):
		s.TakeEvent(&t.Server, c)
	case !Armed(s, c) && s.LiveC(c) && !s.OwnLeaseExists(c):
	default:
		return `ZK!NextEvent(c) = OwnEvent(c) \/ ~Armed(c) /\ Live(c) /\ ~OwnLeaseExists(c)`
	}
	t.PC = cow.With(s.PC, c, semaphore.PCIdle)
	t.Node = cow.With(s.Node, c, semaphore.NoNode)
	return model.Enabled
}

// AcquireNodeGone: the listing does not show c's node's name
// (Semaphore.take: ErrLockLost): the acquisition fails and releases the
// internal mutex, deleting nothing. Spec: SemaphoreForeign!AcquireNodeGone.
func (sp *Spec) AcquireNodeGone(s *semaphore.State, c int, t *semaphore.State) model.Guard {
	switch {
	case s.Paused[c]:
		return recipe.GNotPaused
	case s.PC[c] != semaphore.PCList:
		return `pc[c] = "list"`
	case !s.LiveC(c):
		return recipe.GLive
	case nameExists(s, c):
		return `~NameExists(c)`
	}
	*t = *s
	if s.Mutex == s.SessOf(c) {
		t.Mutex = semaphore.NoSession
	}
	t.PC = cow.With(s.PC, c, semaphore.PCIdle)
	t.Node = cow.With(s.Node, c, semaphore.NoNode)
	return model.Enabled
}

// foreign checks the guards the outsider's steps share and returns the
// node of sequence number q.
func (sp *Spec) foreign(s *semaphore.State, q int) (semaphore.Node, model.Guard) {
	n, ok := s.NodeAt(q)
	switch {
	case !ok || !touchable(s, n):
		return n, `\E n \in nodes : n.seq = s /\ Touchable(n)`
	case !sp.Fault(s.Faults):
		return n, `faults < MaxFaults`
	}
	return n, model.Enabled
}

// ForeignDelete is ForeignDelete(q): an outsider deletes the lease node of
// seq q (ZooKeeper.tla's ForeignDelete); a fault.
func (sp *Spec) ForeignDelete(s *semaphore.State, q int, t *semaphore.State) model.Guard {
	n, g := sp.foreign(s, q)
	if g != model.Enabled {
		return g
	}
	*t = *s
	s.DeleteNodes(&t.Server, []semaphore.Node{n})
	t.Faults = s.Faults + 1
	return model.Enabled
}

// ForeignReplace is ForeignReplace(q): the outsider deletes the lease node
// and makes one of the same name (its seq, so the same uuid), owned by
// Outsider, of czxid zxid + 2 (ZooKeeper.tla's ForeignReplace); a fault.
func (sp *Spec) ForeignReplace(s *semaphore.State, q int, t *semaphore.State) model.Guard {
	n, g := sp.foreign(s, q)
	if g != model.Enabled {
		return g
	}
	*t = *s
	repl := semaphore.Node{Seq: q, Owner: Outsider, Uuid: n.Uuid, Czxid: s.Zxid + 2}
	s.Txn(&t.Server, []semaphore.Node{n}, []semaphore.Node{repl}, s.Watches)
	t.Zxid = s.Zxid + 2
	t.Faults = s.Faults + 1
	return model.Enabled
}

// The module's properties.

// FTypeOK is Semaphore's TypeOK with a node's owner in Sessions \cup
// {Outsider}.
func (sp *Spec) FTypeOK(s *semaphore.State) bool {
	u := *s
	u.Nodes = make([]semaphore.Node, len(s.Nodes))
	for i, n := range s.Nodes {
		if n.Owner == Outsider {
			n.Owner = zk.Session{C: 0, K: 1} // a session of Sessions, in its place
		}
		u.Nodes[i] = n
	}
	return sp.TypeOK(&u)
}

// BelievesOnlyWhileNotified: a holder on a live session believes in a
// lease node that is gone (or not its own) only while Stale.
func (sp *Spec) BelievesOnlyWhileNotified(s *semaphore.State) bool {
	for c := range s.PC {
		if s.PC[c].HoldsLease() && s.LiveC(c) && !s.OwnLeaseExists(c) && !sp.Stale(s, c) {
			return false
		}
	}
	return true
}

// BeliefWithinMax: at most MaxLeases clients believe they hold a lease
// with no news pending that would end their belief.
func (sp *Spec) BeliefWithinMax(s *semaphore.State) bool {
	n := 0
	for c := range s.PC {
		if s.PC[c].HoldsLease() && !sp.Stale(s, c) {
			n++
		}
	}
	return n <= sp.MaxLeases
}
