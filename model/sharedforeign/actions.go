package sharedforeign

import (
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/internal/cow"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/sharedlock"
	"github.com/zklock/zklock/model/zk"
)

// ownEvent is OwnEvent(c): the event of the watch on c's own node (the
// name of its request's kind), of its current request.
func ownEvent(s *sharedlock.State, c int) sharedlock.Watch {
	return sharedlock.Watch{Node: sharedlock.Name{Seq: s.Node[c], Kind: s.Kind[c]}, Req: s.UuidOf(c)}
}

// Notified is Notified(c): the own node's event is delivered, not taken.
func Notified(s *sharedlock.State, c int) bool {
	e := ownEvent(s, c)
	for _, w := range s.Inbox[c] {
		if w == e {
			return true
		}
	}
	return false
}

// Armed is Armed(c): the own watch is set, or has fired and its event waits.
func Armed(s *sharedlock.State, c int) bool {
	e := ownEvent(s, c)
	for _, w := range s.Watches {
		if w == e {
			return true
		}
	}
	return Notified(s, c)
}

// Stale is Stale(c): Notified(c) \/ ArmingPending(c).
func (sp *Spec) Stale(s *sharedlock.State, c int) bool {
	return Notified(s, c) || (sp.WatchOwn && s.PC[c] == recipe.PCHold && !Armed(s, c))
}

// touchable is Touchable(n): no request is acquiring with n.
func touchable(s *sharedlock.State, n sharedlock.Node) bool {
	for c := range s.PC {
		if s.PC[c].Acquiring() && n.Uuid == s.UuidOf(c) && n.Owner == s.SessOf(c) {
			return false
		}
	}
	return true
}

// ArmOwnWatch: the reply to the getData with a watch on c's own node (after
// the grant, or after a Downgrade), still its own: the watch is set
// (impl/zklock Lease.watchOwnNode, keepOwnWatch, armOwn). Spec:
// SharedLockForeign!ArmOwnWatch.
func (sp *Spec) ArmOwnWatch(s *sharedlock.State, c int, t *sharedlock.State) model.Guard {
	switch {
	case !sp.WatchOwn:
		return `WatchOwn`
	case s.Paused[c]:
		return recipe.GNotPaused
	case s.PC[c] != recipe.PCHold:
		return `pc[c] = "hold"`
	case Armed(s, c):
		return `~Armed(c)`
	case !s.LiveC(c):
		return recipe.GLive
	case !s.OwnNodeExists(c):
		return `OwnNodeExists(c)`
	}
	*t = *s
	s.SetWatch(&t.Server, ownEvent(s, c).Node, s.UuidOf(c))
	return model.Enabled
}

// LearnNodeGone: the lease ends because its node is gone or not its own
// (impl/zklock Lease.ownNodeGone: ErrNodeDeleted, ErrNodeReplaced): the
// own watch's event is the next c takes, or the arming getData's reply
// found no node of c's. Spec: SharedLockForeign!LearnNodeGone.
func (sp *Spec) LearnNodeGone(s *sharedlock.State, c int, t *sharedlock.State) model.Guard {
	switch {
	case !sp.WatchOwn:
		return `WatchOwn`
	case s.Paused[c]:
		return recipe.GNotPaused
	case s.PC[c] != recipe.PCHold:
		return `pc[c] = "hold"`
	}
	*t = *s
	switch {
	case len(s.Inbox[c]) > 0 && s.Inbox[c][0] == ownEvent(s, c):
		s.TakeEvent(&t.Server, c)
	case !Armed(s, c) && s.LiveC(c) && !s.OwnNodeExists(c):
	default:
		return `ZK!NextEvent(c) = OwnEvent(c) \/ ~Armed(c) /\ Live(c) /\ ~OwnNodeExists(c)`
	}
	t.State.Idle(c)
	t.Kind = cow.With(t.Kind, c, sharedlock.KindNone)
	return model.Enabled
}

// foreign checks the guards the outsider's steps share and returns the
// node of sequence number q.
func (sp *Spec) foreign(s *sharedlock.State, q int) (sharedlock.Node, model.Guard) {
	n, ok := s.NodeAt(q)
	switch {
	case !ok || !touchable(s, n):
		return n, `\E n \in nodes : n.seq = s /\ Touchable(n)`
	case !sp.Fault(s.Faults):
		return n, `faults < MaxFaults`
	}
	return n, model.Enabled
}

// ForeignDelete is ForeignDelete(q): an outsider deletes the node of
// seq q (ZooKeeper.tla's ForeignDelete); a fault.
func (sp *Spec) ForeignDelete(s *sharedlock.State, q int, t *sharedlock.State) model.Guard {
	n, g := sp.foreign(s, q)
	if g != model.Enabled {
		return g
	}
	*t = *s
	s.DeleteNodes(&t.Server, []sharedlock.Node{n})
	t.Faults = s.Faults + 1
	return model.Enabled
}

// ForeignReplace is ForeignReplace(q): the outsider deletes the node and
// makes one of the same name (seq and kind, so the same uuid), owned by
// Outsider, of czxid zxid + 2 (ZooKeeper.tla's ForeignReplace); a fault.
func (sp *Spec) ForeignReplace(s *sharedlock.State, q int, t *sharedlock.State) model.Guard {
	n, g := sp.foreign(s, q)
	if g != model.Enabled {
		return g
	}
	*t = *s
	repl := sharedlock.Node{Seq: q, Kind: n.Kind, Owner: Outsider, Uuid: n.Uuid, Czxid: s.Zxid + 2}
	s.Txn(&t.Server, []sharedlock.Node{n}, []sharedlock.Node{repl}, s.Watches)
	t.Zxid = s.Zxid + 2
	t.Faults = s.Faults + 1
	return model.Enabled
}

// The module's properties.

// FTypeOK is SharedLock's TypeOK with a node's owner in Sessions \cup
// {Outsider}.
func (sp *Spec) FTypeOK(s *sharedlock.State) bool {
	u := *s
	u.Nodes = make([]sharedlock.Node, len(s.Nodes))
	for i, n := range s.Nodes {
		if n.Owner == Outsider {
			n.Owner = zk.Session{C: 0, K: 1} // a session of Sessions, in its place
		}
		u.Nodes[i] = n
	}
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
