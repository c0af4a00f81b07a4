package semforeign

import (
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/internal/cow"
	"github.com/zklock/zklock/model/internal/foreign"
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
	return foreign.Notified(&s.Server, c, ownEvent(s, c))
}

// Armed is Armed(c): the own watch is set, or has fired and its event waits.
func Armed(s *semaphore.State, c int) bool { return foreign.Armed(&s.Server, c, ownEvent(s, c)) }

// Stale is Stale(c): Notified(c) \/ ArmingPending(c).
func (sp *Spec) Stale(s *semaphore.State, c int) bool {
	return Notified(s, c) || (sp.WatchOwn && s.PC[c].HoldsLease() && !Armed(s, c))
}

// own is the holder's own watch in s.
func (sp *Spec) own(s *semaphore.State) *foreign.Own[zk.NoKind, semaphore.PC] {
	return &foreign.Own[zk.NoKind, semaphore.PC]{WatchOwn: sp.WatchOwn, Hold: semaphore.PCHold,
		Event:   func(c int) semaphore.Watch { return ownEvent(s, c) },
		Exists:  s.OwnLeaseExists,
		ExistsG: `OwnLeaseExists(c)`,
		LearnG:  `ZK!NextEvent(c) = OwnEvent(c) \/ ~Armed(c) /\ Live(c) /\ ~OwnLeaseExists(c)`}
}

// copyTo returns the function that copies s into t and returns t's
// clients, for the foreign package's steps.
func copyTo(s, t *semaphore.State) func() *recipe.Clients[zk.NoKind, semaphore.PC] {
	return func() *recipe.Clients[zk.NoKind, semaphore.PC] {
		*t = *s
		return &t.Clients
	}
}

// nameExists is NameExists(c): a lease node of the seq c's node has.
func nameExists(s *semaphore.State, c int) bool {
	_, ok := s.NodeAt(s.Node[c])
	return ok
}

// creating is the pc of a request Touchable(n) excludes: one creating n
// or looking for it.
func creating(p semaphore.PC) bool { return p == semaphore.PCCreate || p == semaphore.PCFind }

// ArmOwnWatch: the reply to the getData with a watch on c's own lease node
// (Semaphore.grant: Lease.watchOwnNode, keepOwnWatch, armOwn), still its
// own: the watch is set. Spec: SemaphoreForeign!ArmOwnWatch.
func (sp *Spec) ArmOwnWatch(s *semaphore.State, c int, t *semaphore.State) model.Guard {
	return sp.own(s).ArmOwnWatch(&s.Clients, c, copyTo(s, t))
}

// LearnNodeGone: the lease ends because its node is gone or not its own
// (impl/zklock Lease.ownNodeGone: ErrNodeDeleted, ErrNodeReplaced): the
// own watch's event is the next c takes, or the arming getData's reply
// found no node of c's. Spec: SemaphoreForeign!LearnNodeGone.
func (sp *Spec) LearnNodeGone(s *semaphore.State, c int, t *semaphore.State) model.Guard {
	if g := sp.own(s).LearnNodeGone(&s.Clients, c, copyTo(s, t)); g != model.Enabled {
		return g
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

// outsider is the module's Outsider; Touchable(n): no request is creating n or looking for it.
func (sp *Spec) outsider() *foreign.Outsider[zk.NoKind, semaphore.PC] {
	return &foreign.Outsider[zk.NoKind, semaphore.PC]{Session: Outsider, Busy: creating, Fault: sp.Fault}
}

// ForeignDelete is ForeignDelete(q): an outsider deletes the lease node of
// seq q (ZooKeeper.tla's ForeignDelete); a fault.
func (sp *Spec) ForeignDelete(s *semaphore.State, q int, t *semaphore.State) model.Guard {
	return sp.outsider().ForeignDelete(&s.Clients, q, copyTo(s, t))
}

// ForeignReplace is ForeignReplace(q): the outsider deletes the lease node
// and makes one of the same name (its seq, so the same uuid), owned by
// Outsider, of czxid zxid + 2 (ZooKeeper.tla's ForeignReplace); a fault.
func (sp *Spec) ForeignReplace(s *semaphore.State, q int, t *semaphore.State) model.Guard {
	return sp.outsider().ForeignReplace(&s.Clients, q, copyTo(s, t))
}

// The module's properties.

// FTypeOK is Semaphore's TypeOK with a node's owner in Sessions \cup
// {Outsider}.
func (sp *Spec) FTypeOK(s *semaphore.State) bool {
	u := *s
	u.Nodes = foreign.InSessions(s.Nodes, Outsider)
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
