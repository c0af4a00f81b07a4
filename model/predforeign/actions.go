package predforeign

import (
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/internal/cow"
	"github.com/zklock/zklock/model/internal/foreign"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/zk"
)

// ownEvent is OwnEvent(c): the event of the watch on c's own node, of its
// current request.
func ownEvent(s *predlock.State, c int) zk.Watch[zk.NoKind] {
	return zk.Watch[zk.NoKind]{Node: zk.Name[zk.NoKind]{Seq: s.Node[c]}, Req: s.UuidOf(c)}
}

// Notified is Notified(c): the own node's event is delivered, not taken.
func Notified(s *predlock.State, c int) bool {
	return foreign.Notified(&s.Server, c, ownEvent(s, c))
}

// Armed is Armed(c): the own watch is set, or has fired and its event waits.
func Armed(s *predlock.State, c int) bool { return foreign.Armed(&s.Server, c, ownEvent(s, c)) }

// Stale is Stale(c): Notified(c) \/ ArmingPending(c).
func (sp *Spec) Stale(s *predlock.State, c int) bool {
	return Notified(s, c) || (sp.WatchOwn && s.PC[c] == recipe.PCHold && !Armed(s, c))
}

// own is the holder's own watch in s.
func (sp *Spec) own(s *predlock.State) *foreign.Own[zk.NoKind, recipe.PC] {
	return &foreign.Own[zk.NoKind, recipe.PC]{WatchOwn: sp.WatchOwn, Hold: recipe.PCHold,
		Event:   func(c int) zk.Watch[zk.NoKind] { return ownEvent(s, c) },
		Exists:  s.OwnNodeExists,
		ExistsG: `OwnNodeExists(c)`,
		LearnG:  `ZK!NextEvent(c) = OwnEvent(c) \/ ~Armed(c) /\ Live(c) /\ ~OwnNodeExists(c)`}
}

// copyTo returns the function that copies s into t and returns t's
// clients, for the foreign package's steps.
func copyTo(s, t *predlock.State) func() *recipe.Clients[zk.NoKind, recipe.PC] {
	return func() *recipe.Clients[zk.NoKind, recipe.PC] {
		*t = *s
		return &t.Clients
	}
}

// ArmOwnWatch: the reply to the grant's getData with a watch on c's own
// node, still its own: the watch is set (impl/zklock Lease.watchOwnNode,
// armOwn). Spec: PredecessorLockForeign!ArmOwnWatch.
func (sp *Spec) ArmOwnWatch(s *predlock.State, c int, t *predlock.State) model.Guard {
	return sp.own(s).ArmOwnWatch(&s.Clients, c, copyTo(s, t))
}

// LearnNodeGone: the lease ends because its node is gone or not its own
// (impl/zklock Lease.ownNodeGone: ErrNodeDeleted, ErrNodeReplaced): the
// own watch's event is the next c takes, or the arming getData's reply
// found no node of c's. Spec: PredecessorLockForeign!LearnNodeGone.
func (sp *Spec) LearnNodeGone(s *predlock.State, c int, t *predlock.State) model.Guard {
	g := sp.own(s).LearnNodeGone(&s.Clients, c, copyTo(s, t))
	if g != model.Enabled {
		return g
	}
	t.Idle(c)
	t.Tenure = cow.With(t.Tenure, c, 0)
	return model.Enabled
}

// outsider is the module's Outsider; Touchable(n): no request is acquiring with n.
func (sp *Spec) outsider() *foreign.Outsider[zk.NoKind, recipe.PC] {
	return &foreign.Outsider[zk.NoKind, recipe.PC]{Session: Outsider, Busy: recipe.PC.Acquiring, Fault: sp.Fault}
}

// ForeignDelete is ForeignDelete(q): an outsider deletes the node of
// seq q (ZooKeeper.tla's ForeignDelete); a fault.
func (sp *Spec) ForeignDelete(s *predlock.State, q int, t *predlock.State) model.Guard {
	return sp.outsider().ForeignDelete(&s.Clients, q, copyTo(s, t))
}

// ForeignReplace is ForeignReplace(q): the outsider deletes the node and
// makes one of the same name (so the same uuid), owned by Outsider, of
// czxid zxid + 2 (ZooKeeper.tla's ForeignReplace); a fault.
func (sp *Spec) ForeignReplace(s *predlock.State, q int, t *predlock.State) model.Guard {
	return sp.outsider().ForeignReplace(&s.Clients, q, copyTo(s, t))
}

// The module's properties.

// FTypeOK is PredecessorLock's TypeOK with a node's owner in Sessions \cup
// {Outsider}.
func (sp *Spec) FTypeOK(s *predlock.State) bool {
	u := *s
	u.Nodes = foreign.InSessions(s.Nodes, Outsider)
	return sp.TypeOK(&u)
}

// BelievesOnlyWhileNotified: a holder on a live session believes in a node
// that is gone (or not its own) only while Stale.
func (sp *Spec) BelievesOnlyWhileNotified(s *predlock.State) bool {
	for c := range s.PC {
		if s.PC[c] == recipe.PCHold && s.LiveC(c) && !s.OwnNodeExists(c) && !sp.Stale(s, c) {
			return false
		}
	}
	return true
}

// BeliefExclusion: two clients believe they hold only while one of them
// is Stale.
func (sp *Spec) BeliefExclusion(s *predlock.State) bool {
	for c := range s.PC {
		for d := range s.PC {
			if c != d && s.PC[c] == recipe.PCHold && s.PC[d] == recipe.PCHold && !sp.Stale(s, c) && !sp.Stale(s, d) {
				return false
			}
		}
	}
	return true
}
