package sharedlock

import (
	"github.com/zklock/zklock/model/internal/cow"
	"github.com/zklock/zklock/model/recipe"
)

// HasName reports whether a node with name x exists (spec: ZK!NodeExists(x)).
func (s *State) HasName(x Name) bool { return s.NodeExists(x) }

// OwnNodeExists: c's known node exists with c's kind, owned by its current
// session, carrying its current request's uuid (spec: OwnNodeExists(c)).
func (s *State) OwnNodeExists(c int) bool { return s.OwnNodeOf(c, s.Kind) }

// Holding reports whether c believes it holds as kind k (spec: Holding(c, k)).
func (s *State) Holding(c int, k Kind) bool { return s.PC[c] == recipe.PCHold && s.Kind[c] == k }

// Blockers are the nodes that keep c from holding: for a writer every node
// before its own, for a reader every write node before its own (spec:
// Blockers(c); ZooKeeper recipes, "Shared Locks" step 3). They are
// returned in seq order.
func (s *State) Blockers(c int) []Node {
	var out []Node
	for _, n := range s.Nodes {
		if n.Seq < s.Node[c] && (s.Kind[c] == KindWrite || n.Kind == KindWrite) {
			out = append(out, n)
		}
	}
	return out
}

// resetKind is SharedLock's part of Idle(c): kind[c] = "none" (the rest
// is recipe.State.Idle).
func resetKind(t *State, c int) {
	if t.Kind[c] != KindNone {
		t.Kind = cow.With(t.Kind, c, KindNone)
	}
}
