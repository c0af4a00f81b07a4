package sharedlock

import (
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/internal/cow"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/zk"
)

// DowngradeByReleaseAcquire (mutant DowngradeReleaseAcquire):
// delete(<write node>) then create(_c_<uuid>-__READ__,
// EPHEMERAL_SEQUENTIAL), collapsed into one step; the lease is kept. The
// new read node lands at the end of the queue. Replaces Downgrade. Spec:
// SharedLockDowngradeReleaseAcquire!DowngradeByReleaseAcquire (CURATOR-621).
func (sp *Spec) DowngradeByReleaseAcquire(s *State, c int, t *State) model.Guard {
	switch {
	case !sp.WithDowngrade:
		return `WithDowngrade`
	case s.Paused[c]:
		return recipe.GNotPaused
	case !s.Holding(c, KindWrite):
		return `Holding(c, "write")`
	case !s.LiveC(c):
		return recipe.GLive
	case !s.CanCreate(sp.MaxSeq):
		return zk.GSeq
	}
	own, ok := s.NodeAt(s.Node[c])
	if !ok {
		return recipe.GNoChoose
	}
	read := own
	read.Seq, read.Kind, read.Czxid = s.NextSeq, KindRead, s.Zxid+2
	*t = *s
	s.Txn(&t.Server, []Node{own}, []Node{read}, s.Watches)
	t.NextSeq = s.NextSeq + 1
	t.Zxid = s.Zxid + 2
	t.Kind = cow.With(s.Kind, c, KindRead)
	t.Node = cow.With(s.Node, c, s.NextSeq)
	return model.Enabled
}

// ListChildrenPredecessor (mutant ReaderWatchesPredecessor): getChildren;
// a client that must wait, reader or writer, chooses its immediate
// predecessor. Replaces ListChildren. Spec:
// SharedLockReaderWatchesPredecessor!ListChildrenPredecessor.
func (sp *Spec) ListChildrenPredecessor(s *State, c int, t *State) model.Guard {
	switch {
	case s.Paused[c]:
		return recipe.GNotPaused
	case s.PC[c] != recipe.PCList:
		return `pc[c] = "list"`
	case !s.LiveC(c):
		return recipe.GLive
	}
	*t = *s
	if len(s.Blockers(c)) == 0 {
		t.PC = cow.With(s.PC, c, recipe.PCGrant)
		return model.Enabled
	}
	var pred Node
	for _, n := range s.Nodes {
		if n.Seq < s.Node[c] {
			pred = n
		}
	}
	t.PC = cow.With(s.PC, c, recipe.PCWatch)
	t.Target = cow.With(s.Target, c, pred.Name())
	return model.Enabled
}

// GrantOnAnyHeadGone (mutant WriterShortcut): GrantOnHeadGone without its
// kind guard: a writer whose only blocker was a write node takes that
// node's deletion as its grant, which a Downgrade makes wrong. Replaces
// GrantOnHeadGone. Spec: SharedLockWriterShortcut!GrantOnAnyHeadGone.
func (sp *Spec) GrantOnAnyHeadGone(s *State, c int, t *State) model.Guard {
	return kindKept(s, t, s.ConsumeIf(c, &t.State, s.HeadGone(c), recipe.PCGrant))
}

// DowngradeReplyLostKeepsWrite (mutant DowngradeLost): DowngradeReplyLost
// with the client's kind left as it was: the write lease impl/zklock kept
// when Downgrade's outcome was unknown, before the fix (code mutant
// downgrade-unknown-keeps-write). Replaces DowngradeReplyLost.
// Spec: SharedLockDowngradeLost!DowngradeReplyLostKeepsWrite.
func (sp *Spec) DowngradeReplyLostKeepsWrite(s *State, c int, t *State) model.Guard {
	return sp.downgradeLost(s, c, t, false)
}
