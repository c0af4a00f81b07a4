package predlock

import (
	"github.com/zklock/zklock/model"
)

// RecreateParent: ZooKeeper's container manager deletes the lock's empty
// parent (impl/zklock creates parents as containers) and a later
// acquisition creates it again, in one step: the new parent's sequence
// counter starts at 0, while the zxid moves on by the two transactions.
// Only when the parent has no children at all, and only after it had some
// (nextSeq > 0; a container whose cversion is still 0 is not deleted). An
// environment action without a client (Label.Client -1). Spec:
// PredecessorLockParentReset!RecreateParent.
func (sp *Spec) RecreateParent(s *State, t *State) model.Guard {
	if g := s.RecreateParentGuard(); g != model.Enabled {
		return g
	}
	*t = *s
	s.Server.RecreateParent(&t.Server)
	return model.Enabled
}

// GrantSeqToken (mutant SeqToken): Grant with GrantRule "reread", but the
// token is the node's sequence number plus one instead of its czxid.
// Replaces Grant. Spec: PredecessorLockSeqToken!GrantSeqToken.
func (sp *Spec) GrantSeqToken(s *State, c int, t *State) model.Guard {
	if g := s.Reread(c, nil); g != model.Enabled {
		return g
	}
	own, _ := s.NodeAt(s.Node[c])
	granted(s, c, t, own.Seq+1)
	return model.Enabled
}

// resets reports whether the variant's next-state relation has
// RecreateParent.
func (v Variant) resets() bool { return v == ParentReset || v == SeqToken }
