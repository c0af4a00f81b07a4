// Package zk is the Go mirror of spec/tla/ZooKeeper.tla, the ZooKeeper
// side of the lock specs written once: the lock's parent and its children
// as one linearizable server sees them, the sessions it has, the watches
// armed on it, the events delivered to each client and the deletes a client
// library has sent that have not landed yet. model/predlock
// (PredecessorLock) and model/sharedlock (SharedLock) embed its Server in
// their State and build every client step that calls the server from its
// operators, as the TLA+ modules instance ZooKeeper.
//
// Each operator of the module is a method named like it. A write step
// (CreateNode, DeleteNodes, Multi, SetWatch, TakeEvent, ExpireSession,
// NewSession, QueueDelete, DeleteLands, RecreateParent) is a method of the
// state before the step that writes every server variable of the state
// after it (t); the caller has copied its whole state into t first (the
// client variables are not the server's), and checked the step's guards:
// the operators that are a client's call assume the caller checked that
// the call's session is live, as the module says.
//
// The node record differs between the client specs: SharedLock's nodes
// carry a kind (read or write) in their name, PredecessorLock's do not.
// Node, Name and Watch take the kind's type as a parameter K; a
// PredecessorLock node's kind is NoKind, which takes no space, so its nodes
// and watches are as small as they were before the server was shared and
// the compiler specializes the code for each shape.
//
// States are built copy-on-write (model/internal/cow): a step never writes
// into a slice it did not allocate. Sets are sorted slices: nodes by seq,
// live, watches and pending lexicographically.
package zk

import (
	"sort"

	"github.com/zklock/zklock/model/internal/cow"
)

// NoNode is the seq of "no node": a client does not know / has not chosen
// a node (the client specs' NoNode == -1).
const NoNode = -1

// ParentSeq is the seq of Parent, the name a child watch on the lock's
// parent is set on (PredecessorLock's Parent == -2; SharedLock sets no
// child watch).
const ParentSeq = -2

// Session is a session <<c, k>>: the k-th session of client c.
type Session struct{ C, K int }

// Uuid is a request's uuid <<c, r>>: the r-th request of client c.
type Uuid struct{ C, R int }

// NoKind is the kind of a PredecessorLock node: its name is its seq
// alone. It takes no space.
type NoKind struct{}

// Name is a node's name (the module's constant operator Name(n)): its
// sequence suffix and, in SharedLock, its kind (the __READ__/__WRIT__ part
// of its path).
type Name[K Kind] struct {
	// Kind comes first: a zero-size last field would be padded, and a
	// PredecessorLock name would take 16 bytes instead of 8.
	Kind K
	Seq  int
}

// Parent is the name a child watch on the lock's parent is set on (the
// module's constant Parent).
func Parent[K Kind]() Name[K] { return Name[K]{Seq: ParentSeq} }

// Node is a lock node [seq, kind, owner, uuid, czxid]: its sequence
// number, its kind (NoKind in PredecessorLock, whose records have no kind
// field), the session that owns it (ephemeral), the uuid of the request
// that created it and the zxid of its create.
type Node[K Kind] struct {
	Seq   int
	Kind  K
	Owner Session
	Uuid  Uuid
	Czxid int
}

// Name returns the node's name (Name(n)).
func (n Node[K]) Name() Name[K] { return Name[K]{Seq: n.Seq, Kind: n.Kind} }

// Watch is an armed one-shot watch [node, req]: the name it was set on (a
// node's or Parent) and the request that set it.
type Watch[K Kind] struct {
	Node Name[K]
	Req  Uuid
}

// Pending is a delete sent but not yet landed <<session, uuid>> (an element
// of pending): the nodes of request Uuid made by session Sess.
type Pending struct {
	Sess Session
	Uuid Uuid
}

// SessLess orders sessions lexicographically (TLC's order of Sessions).
func SessLess(a, b Session) bool { return a.C < b.C || a.C == b.C && a.K < b.K }

// UuidLess orders uuids lexicographically.
func UuidLess(a, b Uuid) bool { return a.C < b.C || a.C == b.C && a.R < b.R }

// PendingLess orders pending deletes lexicographically.
func PendingLess(a, b Pending) bool {
	return SessLess(a.Sess, b.Sess) || a.Sess == b.Sess && UuidLess(a.Uuid, b.Uuid)
}

func watchLess[K Kind](a, b Watch[K]) bool {
	an, bn := a.Node, b.Node
	if an.Seq != bn.Seq {
		return an.Seq < bn.Seq
	}
	if an.Kind != bn.Kind {
		return an.Kind.Rank() < bn.Kind.Rank()
	}
	return UuidLess(a.Req, b.Req)
}

// Kind is the type of a node's kind: NoKind in PredecessorLock, the
// client spec's kind (sharedlock.Kind) in SharedLock.
type Kind interface {
	comparable
	// Rank orders kinds, so that watches on two names with one seq have a
	// canonical order (only SharedLock's Downgrade makes two names with
	// one seq).
	Rank() int
}

// Rank is 0: NoKind has one value.
func (NoKind) Rank() int { return 0 }

// Server is the state of the ZooKeeper module: its variables, in the
// order of its VARIABLES clause.
type Server[K Kind] struct {
	Nodes   []Node[K] // the children of the lock's parent, sorted by seq
	NextSeq int       // the parent's sequence counter
	Zxid    int       // zxid of the last write transaction
	Live    []Session // the sessions the server has, sorted
	Watches []Watch[K]
	Inbox   [][]Watch[K] // per client: delivered, unconsumed events (FIFO), each the watch that fired
	Pending []Pending    // deletes sent, not yet landed, sorted by PendingLess
}

// Init is the server's initial state for n clients (Init): no children,
// the counter at 0, every client connected with its first session.
func Init[K Kind](n int) Server[K] {
	s := Server[K]{Inbox: make([][]Watch[K], n), Live: make([]Session, n)}
	for c := range n {
		s.Live[c] = Session{c, 1}
	}
	return s
}

// NodeAt returns the child with sequence number seq (NodeAt(seq)), and
// false if there is none (TLC would stop with an error on a CHOOSE from
// the empty set; no reachable state needs it).
func (s *Server[K]) NodeAt(seq int) (Node[K], bool) {
	i := sort.Search(len(s.Nodes), func(i int) bool { return s.Nodes[i].Seq >= seq })
	if i < len(s.Nodes) && s.Nodes[i].Seq == seq {
		return s.Nodes[i], true
	}
	return Node[K]{}, false
}

// NodeExists reports whether a child has name x (NodeExists(name)).
func (s *Server[K]) NodeExists(x Name[K]) bool {
	n, ok := s.NodeAt(x.Seq)
	return ok && n.Kind == x.Kind
}

// IsLive reports whether the server has session x (IsLive(s)).
func (s *Server[K]) IsLive(x Session) bool {
	for _, l := range s.Live {
		if l == x {
			return true
		}
	}
	return false
}

// HasEvent reports whether client c has an undelivered event (HasEvent(c)).
func (s *Server[K]) HasEvent(c int) bool { return len(s.Inbox[c]) > 0 }

// NextEvent is the head of client c's events (NextEvent(c)), the record
// of the watch that fired: the name it is for and its request; HasEvent(c)
// must hold.
func (s *Server[K]) NextEvent(c int) Watch[K] { return s.Inbox[c][0] }

// PendingOf returns the pending delete of request u, if there is one (the
// CHOOSE of DeleteLands(u): a request has at most one).
func (s *Server[K]) PendingOf(u Uuid) (Pending, bool) {
	for _, p := range s.Pending {
		if p.Uuid == u {
			return p, true
		}
	}
	return Pending{}, false
}

// HasNodeOf reports whether a child carries request u's uuid.
func (s *Server[K]) HasNodeOf(u Uuid) bool {
	for _, n := range s.Nodes {
		if n.Uuid == u {
			return true
		}
	}
	return false
}

// NodesOf returns the children carrying request u's uuid, in seq order.
func (s *Server[K]) NodesOf(u Uuid) []Node[K] {
	var out []Node[K]
	for _, n := range s.Nodes {
		if n.Uuid == u {
			out = append(out, n)
		}
	}
	return out
}

// Txn is one write transaction, Txn(del, add, ws) with FireWatches: it
// removes the nodes del and adds the nodes add, starting from the watch
// set ws. Watches on a removed node's name, and child watches on Parent if
// any child was added or removed (Triggered), fire: they leave the watch
// set and, for each client, its fired watches are appended to its inbox in
// increasing request number, then name (SortWatches). It writes t's nodes,
// watches and inbox.
func (s *Server[K]) Txn(t *Server[K], del, add []Node[K], ws []Watch[K]) {
	changed := len(del)+len(add) > 0
	triggered := func(w Watch[K]) bool {
		if w.Node.Seq == ParentSeq {
			return changed
		}
		for _, d := range del {
			if d.Name() == w.Node {
				return true
			}
		}
		return false
	}
	t.Watches = cow.Filter(ws, func(w Watch[K]) bool { return !triggered(w) })
	if len(t.Watches) != len(ws) {
		var fired []Watch[K]
		for _, w := range ws {
			if triggered(w) {
				fired = append(fired, w)
			}
		}
		t.Inbox = appendEvents(s.Inbox, fired)
	} else {
		t.Inbox = s.Inbox
	}
	nodes := s.Nodes
	if len(del) > 0 {
		nodes = cow.Filter(nodes, func(n Node[K]) bool {
			for _, d := range del {
				if d == n {
					return false
				}
			}
			return true
		})
	}
	for _, a := range add {
		nodes = cow.Insert(nodes, a, func(x, y Node[K]) bool { return x.Seq < y.Seq })
	}
	t.Nodes = nodes
}

// appendEvents appends, for each client d, the set of d's fired watches to
// inbox[d] in increasing request number, then name (SortWatches of a set:
// each watch once).
func appendEvents[K Kind](inbox [][]Watch[K], fired []Watch[K]) [][]Watch[K] {
	sort.Slice(fired, func(i, j int) bool { return eventLess(fired[i], fired[j]) })
	out := make([][]Watch[K], len(inbox))
	copy(out, inbox)
	for i, w := range fired {
		if i > 0 && fired[i-1] == w {
			continue
		}
		c := w.Req.C
		if len(out[c]) == len(inbox[c]) {
			out[c] = cow.Append(inbox[c])
		}
		out[c] = append(out[c], w)
	}
	return out
}

// eventLess is the order of one transaction's events (WatchBefore):
// by request, then by name (seq, then kind: NameLess).
func eventLess[K Kind](a, b Watch[K]) bool {
	if a.Req != b.Req {
		return UuidLess(a.Req, b.Req)
	}
	if a.Node.Seq != b.Node.Seq {
		return a.Node.Seq < b.Node.Seq
	}
	return a.Node.Kind.Rank() < b.Node.Kind.Rank()
}
