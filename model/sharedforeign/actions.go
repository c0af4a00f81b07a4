package sharedforeign

import (
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/internal/cow"
	"github.com/zklock/zklock/model/internal/foreign"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/sharedlock"
)

// ownEvent is OwnEvent(c): the event of the watch on c's own node (the
// name of its request's kind), of its current request.
func ownEvent(s *sharedlock.State, c int) sharedlock.Watch {
	return sharedlock.Watch{Node: sharedlock.Name{Seq: s.Node[c], Kind: s.Kind[c]}, Req: s.UuidOf(c)}
}

// Notified is Notified(c): the own node's event is delivered, not taken.
func Notified(s *sharedlock.State, c int) bool {
	return foreign.Notified(&s.Server, c, ownEvent(s, c))
}

// Armed is Armed(c): the own watch is set, or has fired and its event waits.
func Armed(s *sharedlock.State, c int) bool { return foreign.Armed(&s.Server, c, ownEvent(s, c)) }

// Stale is Stale(c): Notified(c) \/ ArmingPending(c).
func (sp *Spec) Stale(s *sharedlock.State, c int) bool {
	return Notified(s, c) || (sp.WatchOwn && s.PC[c] == recipe.PCHold && !Armed(s, c))
}

// own is the holder's own watch in s.
func (sp *Spec) own(s *sharedlock.State) *foreign.Own[sharedlock.Kind, recipe.PC] {
	return &foreign.Own[sharedlock.Kind, recipe.PC]{WatchOwn: sp.WatchOwn, Hold: recipe.PCHold,
		Event:   func(c int) sharedlock.Watch { return ownEvent(s, c) },
		Exists:  s.OwnNodeExists,
		ExistsG: `OwnNodeExists(c)`,
		LearnG:  `ZK!NextEvent(c) = OwnEvent(c) \/ ~Armed(c) /\ Live(c) /\ ~OwnNodeExists(c)`}
}

// copyTo returns the function that copies s into t and returns t's
// clients, for the foreign package's steps.
func copyTo(s, t *sharedlock.State) func() *recipe.Clients[sharedlock.Kind, recipe.PC] {
	return func() *recipe.Clients[sharedlock.Kind, recipe.PC] {
		*t = *s
		return &t.Clients
	}
}

// ArmOwnWatch: the reply to the getData with a watch on c's own node (after
// the grant, or after a Downgrade), still its own: the watch is set
// (impl/zklock Lease.watchOwnNode, keepOwnWatch, armOwn). Spec:
// SharedLockForeign!ArmOwnWatch.
func (sp *Spec) ArmOwnWatch(s *sharedlock.State, c int, t *sharedlock.State) model.Guard {
	return sp.own(s).ArmOwnWatch(&s.Clients, c, copyTo(s, t))
}

// LearnNodeGone: the lease ends because its node is gone or not its own
// (impl/zklock Lease.ownNodeGone: ErrNodeDeleted, ErrNodeReplaced): the
// own watch's event is the next c takes, or the arming getData's reply
// found no node of c's. Spec: SharedLockForeign!LearnNodeGone.
func (sp *Spec) LearnNodeGone(s *sharedlock.State, c int, t *sharedlock.State) model.Guard {
	g := sp.own(s).LearnNodeGone(&s.Clients, c, copyTo(s, t))
	if g != model.Enabled {
		return g
	}
	t.State.Idle(c)
	t.Kind = cow.With(t.Kind, c, sharedlock.KindNone)
	return model.Enabled
}

// outsider is the module's Outsider; Touchable(n): no request is acquiring with n.
func (sp *Spec) outsider() *foreign.Outsider[sharedlock.Kind, recipe.PC] {
	return &foreign.Outsider[sharedlock.Kind, recipe.PC]{Session: Outsider, Busy: recipe.PC.Acquiring, Fault: sp.Fault}
}

// ForeignDelete is ForeignDelete(q): an outsider deletes the node of
// seq q (ZooKeeper.tla's ForeignDelete); a fault.
func (sp *Spec) ForeignDelete(s *sharedlock.State, q int, t *sharedlock.State) model.Guard {
	return sp.outsider().ForeignDelete(&s.Clients, q, copyTo(s, t))
}

// ForeignReplace is ForeignReplace(q): the outsider deletes the node and
// makes one of the same name (seq and kind, so the same uuid), owned by
// Outsider, of czxid zxid + 2 (ZooKeeper.tla's ForeignReplace); a fault.
func (sp *Spec) ForeignReplace(s *sharedlock.State, q int, t *sharedlock.State) model.Guard {
	return sp.outsider().ForeignReplace(&s.Clients, q, copyTo(s, t))
}

// The module's properties.

// FTypeOK is SharedLock's TypeOK with a node's owner in Sessions \cup
// {Outsider}.
func (sp *Spec) FTypeOK(s *sharedlock.State) bool {
	u := *s
	u.Nodes = foreign.InSessions(s.Nodes, Outsider)
	return sp.TypeOK(&u)
}

// BelievesOnlyWhileNotified: a holder on a live session believes in a node
// that is gone (or not its own) only while Stale.
func (sp *Spec) BelievesOnlyWhileNotified(s *sharedlock.State) bool {
	for c := range s.PC {
		if s.PC[c] == recipe.PCHold && s.LiveC(c) && !s.OwnNodeExists(c) && !sp.Stale(s, c) {
			return false
		}
	}
	return true
}

// WriterBeliefExclusion: a client that believes it holds as a writer and
// another that believes it holds do so only while one of them is Stale.
func (sp *Spec) WriterBeliefExclusion(s *sharedlock.State) bool {
	for c := range s.PC {
		if !s.Holding(c, sharedlock.KindWrite) {
			continue
		}
		for d := range s.PC {
			if c != d && s.PC[d] == recipe.PCHold && !sp.Stale(s, c) && !sp.Stale(s, d) {
				return false
			}
		}
	}
	return true
}
