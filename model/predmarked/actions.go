package predmarked

import (
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/internal/cow"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/zk"
)

// Every action is a method named like the spec action: it evaluates the
// guard in s and, if every conjunct holds, writes the successor into t and
// returns model.Enabled; otherwise it returns the first false conjunct.

// gMarking is the guard c \in Marking.
const gMarking model.Guard = `c \in Marking`

// name is the zk name of seq.
func name(seq int) predlock.Name { return predlock.Name{Seq: seq} }

// event is the event record [node |-> n, req |-> u].
func event(n int, u zk.Uuid) predlock.Watch { return predlock.Watch{Node: name(n), Req: u} }

// SetData is setData on the existing node of seq (one write transaction,
// spec: SetData(s)): its data now carries a mark, and every watch on it
// fires with NodeDataChanged, queued for each client in request order
// (ZK!SortWatches). It writes t's marks, watches, inbox and zxid; t is a
// copy of s.
func SetData(s *State, seq int, t *State) {
	t.Marks = cow.Insert(s.Marks, seq, func(a, b int) bool { return a < b })
	fired := func(w predlock.Watch) bool { return w.Node.Seq == seq }
	t.Watches = cow.Filter(s.Watches, func(w predlock.Watch) bool { return !fired(w) })
	if len(t.Watches) != len(s.Watches) {
		inbox := make([][]predlock.Watch, len(s.Inbox))
		copy(inbox, s.Inbox)
		for _, w := range s.Watches { // sorted by name, then uuid: request order
			if fired(w) {
				c := w.Req.C
				inbox[c] = cow.Append(inbox[c], event(Changed(seq), w.Req))
			}
		}
		t.Inbox = inbox
	}
	t.Zxid = s.Zxid + 1
}

// MListChildren: getChildren(<lock>), no watch. No node before ours: the
// lock is ours. Otherwise the node immediately before ours is the target;
// a marking client watches no second. Spec:
// PredecessorLockMarked!MListChildren.
func (sp *Spec) MListChildren(s *State, c int, t *State) model.Guard {
	if !sp.Marking(c) {
		return gMarking
	}
	if g := s.Ready(c, recipe.PCList); g != model.Enabled {
		return g
	}
	before := predlock.NoNode
	for _, n := range s.Nodes { // sorted by seq
		if n.Seq < s.Node[c] {
			before = n.Seq
		}
	}
	*t = *s
	if before == predlock.NoNode {
		t.PC = cow.With(s.PC, c, recipe.PCGrant)
		return model.Enabled
	}
	t.PC = cow.With(s.PC, c, recipe.PCWatch)
	t.Target = cow.With(s.Target, c, name(before))
	return model.Enabled
}

// armed is the effect of a getData(<target>, watch=true) that found the
// target: the watch armed, c waits, knowing whether the target is marked.
func armed(s *State, c int, t *State) {
	*t = *s
	s.SetWatch(&t.Server, s.Target[c], s.UuidOf(c))
	t.PC = cow.With(s.PC, c, recipe.PCWait)
	seen := SeenNone
	if s.Marked(s.Target[c].Seq) {
		seen = SeenMark
	}
	t.Seen = cow.With(s.Seen, c, seen)
}

// watching is the guard of MWatchPredecessor and Rearm: c marks, is not
// paused, is about to watch its target knowing v of it, and is live.
func (sp *Spec) watching(s *State, c int, v Seen) model.Guard {
	switch {
	case !sp.Marking(c):
		return gMarking
	case s.Paused[c]:
		return recipe.GNotPaused
	case s.PC[c] != recipe.PCWatch:
		return recipe.PCIs(recipe.PCWatch)
	case s.Seen[c] != v:
		return model.Guard(`seen[c] = "` + v.String() + `"`)
	case !s.LiveC(c):
		return recipe.GLive
	}
	return model.Enabled
}

// MWatchPredecessor: getData(<target>, watch=true), which reads the data
// and arms a data watch in one server step. The target exists: wait,
// knowing whether it is marked. NoNode: no watch, list again. Spec:
// PredecessorLockMarked!MWatchPredecessor.
func (sp *Spec) MWatchPredecessor(s *State, c int, t *State) model.Guard {
	if g := sp.watching(s, c, SeenNone); g != model.Enabled {
		return g
	}
	if s.NodeExists(s.Target[c]) {
		armed(s, c, t)
		return model.Enabled
	}
	*t = *s
	t.PC = cow.With(s.PC, c, recipe.PCList)
	t.Target = cow.With(s.Target, c, predlock.NoTarget)
	return model.Enabled
}

// myEvent is MyEvent(c): c marks, is not paused, the head of its inbox is
// an event of its current request, and it waits.
func (sp *Spec) myEvent(s *State, c int) model.Guard {
	if !sp.Marking(c) {
		return gMarking
	}
	return s.Notified(c)
}

// consumed takes c's event into t, with c's next control state pc, its
// target and seen.
func consumed(s *State, c int, t *State, pc recipe.PC, target predlock.Name, seen Seen) {
	*t = *s
	s.TakeEvent(&t.Server, c)
	if pc != s.PC[c] {
		t.PC = cow.With(s.PC, c, pc)
	}
	if target != s.Target[c] {
		t.Target = cow.With(s.Target, c, target)
	}
	if seen != s.Seen[c] {
		t.Seen = cow.With(s.Seen, c, seen)
	}
}

// MarkSeen: NodeDataChanged on the target: it marked, so it holds. Sound:
// re-arm next (Rearm). MarkIsGrant: the event taken as the grant. NoRearm:
// back to waiting on the spent watch. Spec: PredecessorLockMarked!MarkSeen.
func (sp *Spec) MarkSeen(s *State, c int, t *State) model.Guard {
	if g := sp.myEvent(s, c); g != model.Enabled {
		return g
	}
	if s.NextEvent(c) != event(Changed(s.Target[c].Seq), s.UuidOf(c)) {
		return `NextEvent(c) = [node |-> Changed(target[c]), req |-> Uuid(c)]`
	}
	switch sp.MarkRule {
	case MarkIsGrant:
		consumed(s, c, t, recipe.PCGrant, predlock.NoTarget, SeenNone)
	case NoRearm:
		consumed(s, c, t, s.PC[c], s.Target[c], SeenMark)
	default:
		consumed(s, c, t, recipe.PCWatch, s.Target[c], SeenChanged)
	}
	return model.Enabled
}

// Rearm: getData(<target>, watch=true) again after its NodeDataChanged.
// The target exists: wait on the re-armed watch, knowing the mark. NoNode:
// the target marked (only a holder writes its node) and is gone since: the
// grant. Spec: PredecessorLockMarked!Rearm.
func (sp *Spec) Rearm(s *State, c int, t *State) model.Guard {
	if g := sp.watching(s, c, SeenChanged); g != model.Enabled {
		return g
	}
	if s.NodeExists(s.Target[c]) {
		armed(s, c, t)
		return model.Enabled
	}
	*t = *s
	t.PC = cow.With(s.PC, c, recipe.PCGrant)
	t.Target = cow.With(s.Target, c, predlock.NoTarget)
	t.Seen = cow.With(s.Seen, c, SeenNone)
	return model.Enabled
}

// GrantOnMarkedGone: NodeDeleted of the target, whose mark the waiter
// read: the grant, without listing. Spec:
// PredecessorLockMarked!GrantOnMarkedGone.
func (sp *Spec) GrantOnMarkedGone(s *State, c int, t *State) model.Guard {
	if g := sp.myEvent(s, c); g != model.Enabled {
		return g
	}
	switch {
	case s.NextEvent(c) != event(s.Target[c].Seq, s.UuidOf(c)):
		return `NextEvent(c) = [node |-> target[c], req |-> Uuid(c)]`
	case s.Seen[c] != SeenMark:
		return `seen[c] = "mark"`
	}
	consumed(s, c, t, recipe.PCGrant, predlock.NoTarget, SeenNone)
	return model.Enabled
}

// UnmarkedGone: NodeDeleted of a target never seen marked, or any other
// event of the request: list again. UnmarkedGrant takes the deletion of
// the target as the grant instead. Spec: PredecessorLockMarked!UnmarkedGone.
func (sp *Spec) UnmarkedGone(s *State, c int, t *State) model.Guard {
	if g := sp.myEvent(s, c); g != model.Enabled {
		return g
	}
	e, u := s.NextEvent(c), s.UuidOf(c)
	switch {
	case e == event(Changed(s.Target[c].Seq), u):
		return `NextEvent(c) # [node |-> Changed(target[c]), req |-> Uuid(c)]`
	case e == event(s.Target[c].Seq, u) && s.Seen[c] == SeenMark:
		return `~(NextEvent(c) = [node |-> target[c], req |-> Uuid(c)] /\ seen[c] = "mark")`
	}
	pc := recipe.PCList
	if sp.MarkRule == UnmarkedGrant && e.Node.Seq == s.Target[c].Seq {
		pc = recipe.PCGrant
	}
	consumed(s, c, t, pc, predlock.NoTarget, SeenNone)
	return model.Enabled
}

// holding is the guard of Mark and WatchOwn: c is not paused, holds, is
// at holding step h, is live and its node exists.
func holding(s *State, c int, h HoldStep) model.Guard {
	switch {
	case s.Paused[c]:
		return recipe.GNotPaused
	case s.PC[c] != recipe.PCHold:
		return recipe.PCIs(recipe.PCHold)
	case s.HoldStep[c] != h:
		return model.Guard(`holdStep[c] = "` + h.String() + `"`)
	case !s.LiveC(c):
		return recipe.GLive
	case !s.OwnNodeExists(c):
		return `OwnNodeExists(c)`
	}
	return model.Enabled
}

// Mark: setData(<own node>, <session id, czxid, grant time>) on a live
// session, sent at the grant: the successor's data watch fires. Spec:
// PredecessorLockMarked!Mark.
func (sp *Spec) Mark(s *State, c int, t *State) model.Guard {
	if g := holding(s, c, HoldMark); g != model.Enabled {
		return g
	}
	*t = *s
	SetData(s, s.Node[c], t)
	t.HoldStep = cow.With(s.HoldStep, c, HoldOwn)
	return model.Enabled
}

// WatchOwn: getData(<own node>, watch=true), the holder's own-node watch,
// armed after the mark so that its own setData does not fire it. Spec:
// PredecessorLockMarked!WatchOwn.
func (sp *Spec) WatchOwn(s *State, c int, t *State) model.Guard {
	if g := holding(s, c, HoldOwn); g != model.Enabled {
		return g
	}
	*t = *s
	s.SetWatch(&t.Server, name(s.Node[c]), s.UuidOf(c))
	t.HoldStep = cow.With(s.HoldStep, c, HoldNone)
	return model.Enabled
}

// ForgeMark: an outsider's setData on the unmarked lock node of seq (a
// fault): a forged mark. Only PredecessorLockMarkedForged takes it. Spec:
// PredecessorLockMarked!ForgeMark (the \E s instance seq).
func (sp *Spec) ForgeMark(s *State, seq int, t *State) model.Guard {
	switch {
	case !sp.Forged:
		return "ForgeMark is not an action of " + model.Guard(sp.Module())
	case !sp.WithForgery:
		return `WithForgery`
	case !sp.Fault(s.Faults):
		return recipe.GFault
	case !s.HasSeq(seq) || s.Marked(seq):
		return `s \in Seqs(nodes) \ marks`
	}
	*t = *s
	t.Faults = s.Faults + 1
	SetData(s, seq, t)
	return model.Enabled
}
