package sharedlock

import (
	"github.com/zklock/zklock/model/internal/cow"
)

// SessOf is the session client c currently uses (spec: Sess(c)).
func (s *State) SessOf(c int) Session { return Session{C: c, K: s.Sess[c]} }

// UuidOf is the uuid of client c's current (or last) request (spec: Uuid(c)).
func (s *State) UuidOf(c int) Uuid { return Uuid{C: c, R: s.ReqNo[c]} }

// LiveC reports whether a ZooKeeper call by c can succeed (spec: Live(c)).
func (s *State) LiveC(c int) bool { return s.IsLive(s.SessOf(c)) }

// HasName reports whether a node with name x exists (spec: ZK!NodeExists(x)).
func (s *State) HasName(x Name) bool { return s.NodeExists(x) }

// OwnNodeExists: c's known node exists with c's kind, owned by its current
// session, carrying its current request's uuid (spec: OwnNodeExists(c)).
func (s *State) OwnNodeExists(c int) bool {
	n, ok := s.NodeAt(s.Node[c])
	return ok && n.Kind == s.Kind[c] && n.Owner == s.SessOf(c) && n.Uuid == s.UuidOf(c)
}

// Abandoned: the server still has session x but its client has moved on.
func (s *State) Abandoned(x Session) bool { return s.IsLive(x) && x != s.SessOf(x.C) }

// Holding reports whether c believes it holds as kind k (spec: Holding(c, k)).
func (s *State) Holding(c int, k Kind) bool { return s.PC[c] == PCHold && s.Kind[c] == k }

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

// idle is Idle(c): pc, kind, node, target and token reset.
func idle(t *State, c int) {
	t.PC = cow.With(t.PC, c, PCIdle)
	t.Kind = cow.With(t.Kind, c, KindNone)
	t.Node = cow.With(t.Node, c, NoNode)
	t.Target = cow.With(t.Target, c, NoTarget)
	setSoleBlocker(t, c, false)
	t.Token = cow.With(t.Token, c, 0)
}

// setSoleBlocker sets soleBlocker[c] in t, copying the slice only when
// the value changes (it is FALSE almost everywhere).
func setSoleBlocker(t *State, c int, v bool) {
	if t.SoleBlocker[c] != v {
		t.SoleBlocker = cow.With(t.SoleBlocker, c, v)
	}
}

func (sp *Spec) fault(s *State) bool { return s.Faults < sp.MaxFaults }
