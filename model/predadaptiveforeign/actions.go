package predadaptiveforeign

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

func less(a, b int) bool { return a < b }

// showsMark is ShowsMark(seq): what a getData of the node reads as a mark.
func (sp *Spec) showsMark(s *State, seq int) bool {
	return s.Marked(seq) || (sp.DataRule == AnyVersion && s.Wrote(seq))
}

// AWatchPredecessor: today's WatchPredecessor; the data read with it is a
// read mark only if it shows one by the rule. Spec:
// PredecessorLockAdaptiveForeign!AWatchPredecessor.
func (sp *Spec) AWatchPredecessor(s *State, c int, t *State) model.Guard {
	if g := sp.Spec.AWatchPredecessor(&s.State, c, &t.State); g != model.Enabled {
		return g
	}
	t.OpData = s.OpData
	if s.NodeExists(s.Target[c]) && sp.showsMark(s, s.Target[c].Seq) && t.Seen[c] != predmarked.SeenMark {
		t.Seen = cow.With(t.Seen, c, predmarked.SeenMark)
	}
	return model.Enabled
}

// Rearm: getData(<target>, watch=true) again after its NodeDataChanged.
// Exists: wait, a mark read only if the read shows one by the rule
// (otherwise the change was the environment's). NoNode: Verified lists
// again (the change was never read as a mark); AnyVersion takes the grant,
// as the marker's Rearm. Spec: PredecessorLockAdaptiveForeign!Rearm.
func (sp *Spec) Rearm(s *State, c int, t *State) model.Guard {
	switch {
	case s.Paused[c]:
		return recipe.GNotPaused
	case s.PC[c] != recipe.PCWatch:
		return recipe.PCIs(recipe.PCWatch)
	case s.Seen[c] != predmarked.SeenChanged:
		return `seen[c] = "changed"`
	case !s.LiveC(c):
		return recipe.GLive
	}
	if g := sp.Spec.Spec.Rearm(&s.State, c, &t.State); g != model.Enabled {
		return g
	}
	t.OpData = s.OpData
	if s.NodeExists(s.Target[c]) {
		if sp.showsMark(s, s.Target[c].Seq) && t.Seen[c] != predmarked.SeenMark {
			t.Seen = cow.With(t.Seen, c, predmarked.SeenMark)
		}
		return model.Enabled
	}
	if sp.DataRule == Verified {
		t.PC = cow.With(s.PC, c, recipe.PCList)
		t.SetSecond(c, predlock.NoNode)
		t.SetSoleBlocker(c, false)
	}
	return model.Enabled
}

// Mark: the marker's Mark (setData at version 0) on a node no operator
// wrote. Spec: PredecessorLockAdaptiveForeign!Mark.
func (sp *Spec) Mark(s *State, c int, t *State) model.Guard {
	if s.Wrote(s.Node[c]) {
		return `node[c] \notin opData`
	}
	if g := sp.Spec.Spec.Mark(&s.State, c, &t.State); g != model.Enabled {
		return g
	}
	t.OpData = s.OpData
	return model.Enabled
}

// MarkRefused: the same setData on a node an operator wrote fails
// (BadVersion): nothing written; the own-node watch is next. Spec:
// PredecessorLockAdaptiveForeign!MarkRefused.
func (sp *Spec) MarkRefused(s *State, c int, t *State) model.Guard {
	switch {
	case s.Paused[c]:
		return recipe.GNotPaused
	case s.PC[c] != recipe.PCHold:
		return recipe.PCIs(recipe.PCHold)
	case s.HoldStep[c] != predmarked.HoldMark:
		return `holdStep[c] = "mark"`
	case !s.LiveC(c):
		return recipe.GLive
	case !s.OwnNodeExists(c):
		return `OwnNodeExists(c)`
	case !s.Wrote(s.Node[c]):
		return `node[c] \in opData`
	}
	*t = *s
	t.HoldStep = cow.With(s.HoldStep, c, predmarked.HoldOwn)
	return model.Enabled
}

// ForeignSetData: the operator's setData of non-mark data on the lock node
// of seq, within the budget: a mark on it overwritten, every watch on it
// fired with NodeDataChanged. Spec:
// PredecessorLockAdaptiveForeign!ForeignSetData (the \E s instance seq).
func (sp *Spec) ForeignSetData(s *State, seq int, t *State) model.Guard {
	switch {
	case len(s.OpData) >= sp.MaxForeignSets:
		return `Cardinality(opData) < MaxForeignSets`
	case !s.HasSeq(seq) || s.Wrote(seq):
		return `s \in Seqs(nodes) \ opData`
	}
	*t = *s
	predmarked.SetData(&s.State, seq, &t.State)
	t.Marks = cow.Filter(s.Marks, func(m int) bool { return m != seq })
	t.OpData = cow.Insert(s.OpData, seq, less)
	return model.Enabled
}
