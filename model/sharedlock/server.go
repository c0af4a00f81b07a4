package sharedlock

import (
	"sort"

	"github.com/zklock/zklock/model/internal/cow"
)

// SessOf is the session client c currently uses (spec: Sess(c)).
func (s *State) SessOf(c int) Session { return Session{c, s.Sess[c]} }

// UuidOf is the uuid of client c's current (or last) request (spec: Uuid(c)).
func (s *State) UuidOf(c int) Uuid { return Uuid{c, s.ReqNo[c]} }

// IsLive reports whether the server has session x.
func (s *State) IsLive(x Session) bool {
	for _, l := range s.Live {
		if l == x {
			return true
		}
	}
	return false
}

// LiveC reports whether a ZooKeeper call by c can succeed (spec: Live(c)).
func (s *State) LiveC(c int) bool { return s.IsLive(s.SessOf(c)) }

// HasName reports whether a node with name x exists (spec: x \in Names(nodes)).
func (s *State) HasName(x Name) bool {
	n, ok := s.NodeAt(x.Seq)
	return ok && n.Kind == x.Kind
}

// NodeAt returns the node with sequence number seq (spec: NodeAt(seq)),
// and false if there is none.
func (s *State) NodeAt(seq int) (Node, bool) {
	i := sort.Search(len(s.Nodes), func(i int) bool { return s.Nodes[i].Seq >= seq })
	if i < len(s.Nodes) && s.Nodes[i].Seq == seq {
		return s.Nodes[i], true
	}
	return Node{}, false
}

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

// zkChange is the server transaction ZkChange(del, add, ws): watches on the
// name of a removed node fire (see PredecessorLock!ZkChange); SharedLock
// has no parent watches.
func zkChange(s, t *State, del, add []Node, ws []Watch) {
	fires := func(w Watch) bool {
		for _, d := range del {
			if d.Name() == w.Node {
				return true
			}
		}
		return false
	}
	t.Watches = cow.Filter(ws, func(w Watch) bool { return !fires(w) })
	if len(t.Watches) != len(ws) {
		var fired []Uuid
		for _, w := range ws {
			if fires(w) {
				fired = append(fired, w.Req)
			}
		}
		t.Inbox = appendNotifications(s.Inbox, fired)
	} else {
		t.Inbox = s.Inbox
	}
	nodes := s.Nodes
	if len(del) > 0 {
		nodes = cow.Filter(nodes, func(n Node) bool {
			for _, d := range del {
				if d == n {
					return false
				}
			}
			return true
		})
	}
	for _, a := range add {
		nodes = cow.Insert(nodes, a, func(x, y Node) bool { return x.Seq < y.Seq })
	}
	t.Nodes = nodes
}

// appendNotifications appends, for each client d, the set of fired uuids of
// d's requests to inbox[d] in increasing request number (SortReqs).
func appendNotifications(inbox [][]Uuid, fired []Uuid) [][]Uuid {
	sort.Slice(fired, func(i, j int) bool { return uuidLess(fired[i], fired[j]) })
	out := make([][]Uuid, len(inbox))
	copy(out, inbox)
	for i, u := range fired {
		if i > 0 && fired[i-1] == u {
			continue
		}
		if len(out[u.C]) == len(inbox[u.C]) {
			out[u.C] = cow.Append(inbox[u.C])
		}
		out[u.C] = append(out[u.C], u)
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

// newNode is the node a create by c makes.
func newNode(s *State, c int) Node {
	return Node{Seq: s.NextSeq, Kind: s.Kind[c], Owner: s.SessOf(c), Uuid: s.UuidOf(c), Czxid: s.Zxid + 1}
}
