package predlock

import (
	"sort"

	"github.com/zklock/zklock/model/internal/cow"
)

// SessOf is the session client c currently uses (spec: Sess(c)).
func (s *State) SessOf(c int) Session { return Session{c, s.Sess[c]} }

// UuidOf is the uuid of client c's current (or last) request (spec: Uuid(c)).
func (s *State) UuidOf(c int) Uuid { return Uuid{c, s.ReqNo[c]} }

// IsLive reports whether the server has session x (spec: x \in live).
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

// HasSeq reports whether a node with sequence number seq exists
// (spec: seq \in Seqs(nodes)).
func (s *State) HasSeq(seq int) bool {
	_, ok := s.NodeAt(seq)
	return ok
}

// NodeAt returns the node with sequence number seq (spec: NodeAt(seq)),
// and false if there is none (TLC would stop with an error on a CHOOSE
// from the empty set; no reachable state needs it).
func (s *State) NodeAt(seq int) (Node, bool) {
	i := sort.Search(len(s.Nodes), func(i int) bool { return s.Nodes[i].Seq >= seq })
	if i < len(s.Nodes) && s.Nodes[i].Seq == seq {
		return s.Nodes[i], true
	}
	return Node{}, false
}

// OwnNodeExists: c's known node exists, owned by its current session and
// carrying its current request's uuid (spec: OwnNodeExists(c)).
func (s *State) OwnNodeExists(c int) bool {
	n, ok := s.NodeAt(s.Node[c])
	return ok && n.Owner == s.SessOf(c) && n.Uuid == s.UuidOf(c)
}

// Overdue: c's loss deadline has passed (spec: Overdue(c) == ~Live(c)).
// The spec has no clocks: a session's deadline passes before the server
// may expire it, so an expired current session is a passed deadline, and
// a deadline passed on a live session shows up as LearnExpiry.
func (s *State) Overdue(c int) bool { return !s.LiveC(c) }

// knownToken is KnownToken(c, z): the token c knows once its node is known
// (at CreateOk or FindOwnNode; a czxid never changes): z, except with
// GrantReread, where the token is only read at Grant.
func (sp *Spec) knownToken(s *State, c, z int) []int {
	if sp.GrantRule == GrantReread {
		return s.Token
	}
	return cow.With(s.Token, c, z)
}

// Abandoned: the server still has session x but its client has moved on to
// a newer session (spec: Abandoned(s)).
func (s *State) Abandoned(x Session) bool { return s.IsLive(x) && x != s.SessOf(x.C) }

// zkChange is the server transaction ZkChange(del, add, ws): it removes
// the nodes del and adds the nodes add, starting from the watch set ws.
// Watches on a removed node's seq, and watches on Parent if any child was
// added or removed, fire: they leave the watch set and, for each client,
// the uuids of its fired watches are appended to its inbox in increasing
// request number (SortReqs). It sets t's nodes, watches and inbox.
func zkChange(s, t *State, del, add []Node, ws []Watch) {
	changed := len(del)+len(add) > 0
	fires := func(w Watch) bool {
		if w.Node == Parent {
			return changed
		}
		for _, d := range del {
			if d.Seq == w.Node {
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

// appendNotifications appends, for each client d, the set of fired uuids
// of d's requests to inbox[d] in increasing request number (SortReqs of a
// set: each uuid once).
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

// idle is Idle(c): the reset of c's per-request state.
func idle(t *State, c int) {
	t.PC = cow.With(t.PC, c, PCIdle)
	t.Node = cow.With(t.Node, c, NoNode)
	t.Target = cow.With(t.Target, c, NoNode)
	setSoleBlocker(t, c, false)
	t.Token = cow.With(t.Token, c, 0)
	t.Tenure = cow.With(t.Tenure, c, 0)
}

// setSoleBlocker sets soleBlocker[c] in t, copying the slice only when
// the value changes (it is FALSE almost everywhere).
func setSoleBlocker(t *State, c int, v bool) {
	if t.SoleBlocker[c] != v {
		t.SoleBlocker = cow.With(t.SoleBlocker, c, v)
	}
}

// fault is the guard of Fault: the budget is not spent.
func (sp *Spec) fault(s *State) bool { return s.Faults < sp.MaxFaults }

// newNode is the node a create by c makes: the next sequence number,
// owned by c's session, carrying its request's uuid, czxid the new zxid.
func newNode(s *State, c int) Node {
	return Node{Seq: s.NextSeq, Owner: s.SessOf(c), Uuid: s.UuidOf(c), Czxid: s.Zxid + 1}
}
