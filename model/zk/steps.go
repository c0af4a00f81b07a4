package zk

import (
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/internal/cow"
)

// The write steps. Each is a method of the state s before the step and
// writes the server variables the step changes into t, a copy of s the
// caller made (the variables the step leaves UNCHANGED are s's already).
// The caller has checked the step's guards, except those a step returns
// as a model.Guard.

// GSeq is the guard of CreateNode: the parent's counter has room.
const GSeq model.Guard = `nextSeq < MaxSeq`

// CanCreate reports whether CreateNode is enabled under the bound maxSeq
// (nextSeq < MaxSeq).
func (s *Server[K]) CanCreate(maxSeq int) bool { return s.NextSeq < maxSeq }

// CreateNode is create(path, EPHEMERAL_SEQUENTIAL) by session owner for
// request u (CreateNode(Mk) with Mk(seq, czxid) the node [seq, kind,
// owner, uuid, czxid]): the node gets the parent's next sequence number
// and the create's zxid; child watches on the parent fire. The caller
// checked CanCreate.
func (s *Server[K]) CreateNode(t *Server[K], kind K, owner Session, u Uuid) {
	n := Node[K]{Seq: s.NextSeq, Kind: kind, Owner: owner, Uuid: u, Czxid: s.Zxid + 1}
	s.Txn(t, nil, []Node[K]{n}, s.Watches)
	t.NextSeq = s.NextSeq + 1
	t.Zxid = s.Zxid + 1
}

// DeleteNodes is a delete of each node of del, one zxid per node (none:
// no transaction); watches on them fire (DeleteNodes(del)).
func (s *Server[K]) DeleteNodes(t *Server[K], del []Node[K]) {
	s.Txn(t, del, nil, s.Watches)
	t.Zxid = s.Zxid + len(del)
}

// Multi deletes the nodes del and creates the nodes add in one
// transaction of zxid s.Zxid+1, which the caller gave add's czxids
// (Multi(del, Add): non-sequential creates, the counter does not move).
func (s *Server[K]) Multi(t *Server[K], del, add []Node[K]) {
	s.Txn(t, del, add, s.Watches)
	t.Zxid = s.Zxid + 1
}

// SetWatch is getData(name, watch=true) on an existing node, or
// getChildren with the watch flag on Parent: the watch for request u is
// armed in the same step as the read (SetWatch(name, u)). The caller
// checked NodeExists(name).
func (s *Server[K]) SetWatch(t *Server[K], name Name[K], u Uuid) {
	t.Watches = cow.Insert(s.Watches, Watch[K]{Node: name, Req: u}, watchLess[K])
}

// TakeEvent: client c takes the head of its events (TakeEvent(c)); the
// caller checked HasEvent(c).
func (s *Server[K]) TakeEvent(t *Server[K], c int) {
	t.Inbox = cow.With(s.Inbox, c, s.Inbox[c][1:])
}

// ExpireSession is closeSession of session x, one transaction: every node
// x owns is deleted and watches on them fire, after the watches x itself
// set are dropped if dropOwn (ExpireSession(s, sw) with sw the watches of
// x's client: a watch names its request, not its session, so the caller
// says whether x is the session its client uses); the deletes pending for
// x stop. The caller checked IsLive(x).
func (s *Server[K]) ExpireSession(t *Server[K], x Session, dropOwn bool) {
	t.Live = cow.Filter(s.Live, func(l Session) bool { return l != x })
	var owned []Node[K]
	for _, n := range s.Nodes {
		if n.Owner == x {
			owned = append(owned, n)
		}
	}
	ws := s.Watches
	if dropOwn {
		ws = cow.Filter(ws, func(w Watch[K]) bool { return w.Req.C != x.C })
	}
	s.Txn(t, owned, nil, ws)
	t.Zxid = s.Zxid + 1
	t.Pending = cow.Filter(s.Pending, func(p Pending) bool { return p.Sess != x })
}

// NewSession: the client x.C connects with the new session x, giving up
// its previous one (expired, or abandoned when its loss timer fired): the
// old connection's watches go with it, its queued events are dropped, and
// the server has x (NewSession(s, sw), sw the client's watches). An
// abandoned session stays live, with its nodes, until ExpireSession.
func (s *Server[K]) NewSession(t *Server[K], x Session) {
	t.Live = cow.Insert(s.Live, x, SessLess)
	t.Watches = cow.Filter(s.Watches, func(w Watch[K]) bool { return w.Req.C != x.C })
	t.Inbox = cow.With(s.Inbox, x.C, nil)
}

// QueueDelete: the client library's background delete of request u's
// nodes del, made by session x, is sent and not landed (nothing to
// delete: nothing sent) (QueueDelete(s, u, del)).
func (s *Server[K]) QueueDelete(t *Server[K], x Session, u Uuid, del []Node[K]) {
	if len(del) > 0 {
		t.Pending = cow.Insert(s.Pending, Pending{x, u}, PendingLess)
	}
}

// DeleteLandsGuard is the guard of DeleteLands(u): a delete of request u
// is pending and its session is live.
func (s *Server[K]) DeleteLandsGuard(u Uuid) model.Guard {
	p, ok := s.PendingOf(u)
	switch {
	case !ok:
		return `p \in pending`
	case !s.IsLive(p.Sess):
		return `p[1] \in live`
	}
	return model.Enabled
}

// DeleteLands: the pending delete of request u reaches the server; one
// transaction deletes u's nodes of its session (one zxid per node) and
// watches on them fire (DeleteLands(u)). A step of the network and the
// server: a paused client's delete lands too. The caller checked
// DeleteLandsGuard(u).
func (s *Server[K]) DeleteLands(t *Server[K], u Uuid) {
	p, _ := s.PendingOf(u)
	var mine []Node[K]
	for _, n := range s.Nodes {
		if n.Owner == p.Sess && n.Uuid == p.Uuid {
			mine = append(mine, n)
		}
	}
	s.DeleteNodes(t, mine)
	t.Pending = cow.Filter(s.Pending, func(q Pending) bool { return q != p })
}

// RecreateParentGuard is the guard of RecreateParent: the parent has no
// children, and had some.
func (s *Server[K]) RecreateParentGuard() model.Guard {
	switch {
	case len(s.Nodes) != 0:
		return `nodes = {}`
	case s.NextSeq == 0:
		return `nextSeq > 0`
	}
	return model.Enabled
}

// RecreateParent: the container manager deletes the empty parent and a
// later create re-creates it, two write transactions in one step: the
// counter starts at 0 again, zxids keep growing (RecreateParent). The
// caller checked RecreateParentGuard.
func (s *Server[K]) RecreateParent(t *Server[K]) {
	t.NextSeq = 0
	t.Zxid = s.Zxid + 2
}
