package predadaptive

import (
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/internal/cow"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/predmarked"
	"github.com/zklock/zklock/model/recipe"
)

// Every action is a method named like the spec action: it evaluates the
// guard in s and, if every conjunct holds, writes the successor into t and
// returns model.Enabled; otherwise it returns the first false conjunct.

// gAdaptive is the guard c \in Adaptive.
const gAdaptive model.Guard = `c \in Adaptive`

// event is the event record [node |-> seq, req |-> Uuid(c)].
func event(s *State, c, seq int) predlock.Watch {
	return predlock.Watch{Node: predlock.Name{Seq: seq}, Req: s.UuidOf(c)}
}

// base is PredecessorLock's step act for adaptive client c, with the
// marker's variables unchanged: the A... wrappers.
func (sp *Spec) base(s *State, c int, act uint8, t *State) model.Guard {
	if !sp.Adaptive[c] {
		return gAdaptive
	}
	if g := sp.Spec.Spec.Step(&s.State, model.Label{Action: act, Client: int16(c)}, &t.State); g != model.Enabled {
		return g
	}
	t.Marks, t.Seen, t.HoldStep = s.Marks, s.Seen, s.HoldStep
	return model.Enabled
}

// AListChildren: today's ListChildren (target, second, soleBlocker).
// Spec: PredecessorLockAdaptive!AListChildren.
func (sp *Spec) AListChildren(s *State, c int, t *State) model.Guard {
	return sp.base(s, c, recipe.ActListChildren, t)
}

// AWatchSecond: today's WatchSecond, getData(<second>, watch=true). Spec:
// PredecessorLockAdaptive!AWatchSecond.
func (sp *Spec) AWatchSecond(s *State, c int, t *State) model.Guard {
	return sp.base(s, c, predlock.ActWatchSecond, t)
}

// AWatchPredecessor: today's WatchPredecessor, getData(<target>,
// watch=true), and the data read with it: a mark on the target is a read
// mark. Spec: PredecessorLockAdaptive!AWatchPredecessor.
func (sp *Spec) AWatchPredecessor(s *State, c int, t *State) model.Guard {
	if sp.Adaptive[c] && s.Seen[c] != predmarked.SeenNone {
		return `seen[c] = "none"`
	}
	if g := sp.base(s, c, recipe.ActWatchPredecessor, t); g != model.Enabled {
		return g
	}
	if s.NodeExists(s.Target[c]) && s.Marked(s.Target[c].Seq) {
		t.Seen = cow.With(s.Seen, c, predmarked.SeenMark)
	}
	return model.Enabled
}

// secondChange is SecondChange(c): the head of c's inbox is the
// NodeDataChanged event of its second, for its current request.
func secondChange(s *State, c int) bool {
	return s.Second[c] != predlock.NoNode && s.NextEvent(c) == event(s, c, predmarked.Changed(s.Second[c]))
}

// markedGone is MarkedGone(c): the head of c's inbox is the NodeDeleted
// event of its target, whose mark c read.
func markedGone(s *State, c int) bool {
	return s.NextEvent(c) == event(s, c, s.Target[c].Seq) && s.Seen[c] == predmarked.SeenMark
}

// SecondMarked: NodeDataChanged on the second: it marked, so it holds and
// the target is next. Drop the spent watch on it (second NoNode), re-arm
// nothing, list nothing, keep waiting on the target. SecondChangeIsHead
// takes the target for the head (soleBlocker); SecondDropsTarget drops
// the watch on the target too. Spec: PredecessorLockAdaptive!SecondMarked.
func (sp *Spec) SecondMarked(s *State, c int, t *State) model.Guard {
	if !sp.Adaptive[c] {
		return gAdaptive
	}
	if !sp.Marking(c) {
		return `c \in Marking`
	}
	if g := s.Notified(c); g != model.Enabled {
		return g
	}
	if !secondChange(s, c) {
		return `SecondChange(c)`
	}
	*t = *s
	s.TakeEvent(&t.Server, c)
	if sp.AdaptRule == SecondDropsTarget {
		w := event(s, c, s.Target[c].Seq)
		t.Watches = cow.Filter(s.Watches, func(x predlock.Watch) bool { return x != w })
	}
	t.SetSecond(c, predlock.NoNode)
	if sp.AdaptRule == SecondChangeIsHead {
		t.SetSoleBlocker(c, true)
	}
	return model.Enabled
}

// AGrantOnHeadGone: today's GrantOnHeadGone, the target that the listing
// showed alone before ours deleted, no mark read (GrantOnMarkedGone takes
// it then). Spec: PredecessorLockAdaptive!AGrantOnHeadGone.
func (sp *Spec) AGrantOnHeadGone(s *State, c int, t *State) model.Guard {
	if sp.Adaptive[c] && s.Seen[c] == predmarked.SeenMark {
		return `seen[c] # "mark"`
	}
	return sp.base(s, c, recipe.ActGrantOnHeadGone, t)
}

// APredecessorGone: today's PredecessorGone, any other event of the
// request: list again. Not the target's or the second's NodeDataChanged
// (MarkSeen, SecondMarked), nor the target's deletion after a read mark
// (GrantOnMarkedGone). Spec: PredecessorLockAdaptive!APredecessorGone.
func (sp *Spec) APredecessorGone(s *State, c int, t *State) model.Guard {
	switch {
	case !sp.Adaptive[c]:
		return gAdaptive
	case !s.HasEvent(c):
		return recipe.GHasEvent
	case s.NextEvent(c) == event(s, c, predmarked.Changed(s.Target[c].Seq)):
		return `NextEvent(c) # [node |-> Changed(target[c]), req |-> Uuid(c)]`
	case secondChange(s, c):
		return `~SecondChange(c)`
	case markedGone(s, c):
		return `~MarkedGone(c)`
	}
	if g := sp.base(s, c, recipe.ActPredecessorGone, t); g != model.Enabled {
		return g
	}
	if s.Seen[c] != predmarked.SeenNone {
		t.Seen = cow.With(s.Seen, c, predmarked.SeenNone)
	}
	return model.Enabled
}

// SkipMark: the adaptive holder does not mark (a short queue), a local
// decision; its own-node watch is next. Spec:
// PredecessorLockAdaptive!SkipMark.
func (sp *Spec) SkipMark(s *State, c int, t *State) model.Guard {
	switch {
	case !sp.Adaptive[c]:
		return gAdaptive
	case s.Paused[c]:
		return recipe.GNotPaused
	case s.PC[c] != recipe.PCHold:
		return recipe.PCIs(recipe.PCHold)
	case s.HoldStep[c] != predmarked.HoldMark:
		return `holdStep[c] = "mark"`
	}
	*t = *s
	t.HoldStep = cow.With(s.HoldStep, c, predmarked.HoldOwn)
	return model.Enabled
}
