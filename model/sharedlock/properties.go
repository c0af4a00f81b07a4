package sharedlock

import (
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/zk"
)

// TypeOK: every variable has the type the spec declares (spec: TypeOK).
func (sp *Spec) TypeOK(s *State) bool {
	kind := func(k Kind) bool { return k == KindRead || k == KindWrite }
	if !s.State.TypeOK(&sp.Constants.Constants) || len(s.Kind) != sp.N() {
		return false
	}
	for _, x := range s.Nodes {
		if !kind(x.Kind) {
			return false
		}
	}
	for _, w := range s.Watches {
		if w.Node.Seq == zk.ParentSeq || !kind(w.Node.Kind) {
			return false
		}
	}
	for c, k := range s.Kind {
		if k > KindWrite || s.Target[c] != NoTarget && !kind(s.Target[c].Kind) {
			return false
		}
	}
	return true
}

// WriterExclusion: a client that believes it holds as a writer is the only
// one that believes it holds.
func (sp *Spec) WriterExclusion(s *State) bool {
	for c := range s.PC {
		if !s.Holding(c, KindWrite) {
			continue
		}
		for d := range s.PC {
			if d != c && s.PC[d] == recipe.PCHold {
				return false
			}
		}
	}
	return true
}

// MutualExclusion: a holding writer whose node exists excludes every other
// holder whose node exists.
func (sp *Spec) MutualExclusion(s *State) bool {
	for c := range s.PC {
		if !s.Holding(c, KindWrite) || !s.OwnNodeExists(c) {
			continue
		}
		for d := range s.PC {
			if d != c && s.PC[d] == recipe.PCHold && s.OwnNodeExists(d) {
				return false
			}
		}
	}
	return true
}

// ReadersShare is a WITNESS expected to fail: "no two readers hold at once".
// Its violation shows that readers do share the lock.
func (sp *Spec) ReadersShare(s *State) bool {
	readers := 0
	for c := range s.PC {
		if s.Holding(c, KindRead) {
			readers++
		}
	}
	return readers <= 1
}

// NoHerd: a node is watched by at most one waiting writer (readers may
// share a watch on the writer they wait for).
func (sp *Spec) NoHerd(s *State) bool {
	return s.State.NoHerd(func(c int) bool { return s.Kind[c] == KindWrite })
}

// GrantsInSequenceOrder: a holder with an existing node has no blocker (a
// writer is first, a reader has no write node before it).
func (sp *Spec) GrantsInSequenceOrder(s *State) bool {
	for c := range s.PC {
		if s.PC[c] == recipe.PCHold && s.OwnNodeExists(c) && len(s.Blockers(c)) > 0 {
			return false
		}
	}
	return true
}

// KnownNodeExists: a client that knows its node and whose session is live
// has that node.
func (sp *Spec) KnownNodeExists(s *State) bool { return s.State.KnownNodeExists(s.Kind) }

// ReadersNotBlockedByReaders: a reader waiting on an armed watch has a
// write node before it (fails for ReaderWatchesPredecessor).
func (sp *Spec) ReadersNotBlockedByReaders(s *State) bool {
	for c := range s.PC {
		if s.Kind[c] != KindRead || s.PC[c] != recipe.PCWait {
			continue
		}
		armed := false
		for _, w := range s.Watches {
			if w.Req == s.UuidOf(c) {
				armed = true
				break
			}
		}
		if !armed {
			continue
		}
		writer := false
		for _, n := range s.Nodes {
			if n.Seq < s.Node[c] && n.Kind == KindWrite {
				writer = true
				break
			}
		}
		if !writer {
			return false
		}
	}
	return true
}

// WantsWrite is the left side of NoWriterStarvation for client c:
// pc[c] \in Acquiring /\ kind[c] = "write".
func (sp *Spec) WantsWrite(s *State, c int) bool {
	return s.PC[c].Acquiring() && s.Kind[c] == KindWrite
}

// HoldsWrite is the right side of NoWriterStarvation: Holding(c, "write").
func (sp *Spec) HoldsWrite(s *State, c int) bool { return s.Holding(c, KindWrite) }
