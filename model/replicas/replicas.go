// Package replicas is the Go mirror of spec/tla/ZooKeeperReplicas.tla, the
// ensemble's read view: the leader's log as the node set after each write
// step (Hist), and per client the highest zxid it has seen (Seen). The
// leader is model/zk's Server, in the recipe's state; model/stalereads,
// the stale-read variant of every recipe, embeds a View beside it and
// calls the operators below, each a method or function named like the
// module's operator.
//
// A View is built copy-on-write like the rest of a state: a step never
// writes into a slice it did not allocate.
package replicas

import (
	"encoding/binary"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/internal/cow"
	"github.com/zklock/zklock/model/tla"
	"github.com/zklock/zklock/model/zk"
)

// Module is the TLA+ module this package mirrors.
const Module = "ZooKeeperReplicas"

// Snapshot is one entry of hist: the node set after the write step whose
// last zxid is Zxid.
type Snapshot[K zk.Kind] struct {
	Zxid  int
	Nodes []zk.Node[K]
}

// View is the module's variables: hist (sorted by zxid), seen (by client
// index) and dupes (sorted by DupeLess).
type View[K zk.Kind] struct {
	Hist  []Snapshot[K]
	Seen  []int
	Dupes []Dupe[K]
}

// Dupe is an element of dupes, <<session, name>>: the background delete of
// the duplicate node Name, sent by session Sess and not landed.
type Dupe[K zk.Kind] struct {
	Sess zk.Session
	Name zk.Name[K]
}

// DupeLess orders dupes lexicographically: session, then seq, then kind.
func DupeLess[K zk.Kind](a, b Dupe[K]) bool {
	if a.Sess != b.Sess {
		return zk.SessLess(a.Sess, b.Sess)
	}
	if a.Name.Seq != b.Name.Seq {
		return a.Name.Seq < b.Name.Seq
	}
	return a.Name.Kind.Rank() < b.Name.Kind.Rank()
}

// Init is the module's Init for n clients: hist = (0 :> {}), seen 0.
func Init[K zk.Kind](n int) View[K] {
	return View[K]{Hist: []Snapshot[K]{{Zxid: 0}}, Seen: make([]int, n)}
}

// At returns hist[v], and false if v is not in DOMAIN hist.
func (w *View[K]) At(v int) ([]zk.Node[K], bool) {
	for _, h := range w.Hist {
		if h.Zxid == v {
			return h.Nodes, true
		}
	}
	return nil, false
}

// Readable reports whether v is in Readable(c): a logged zxid, at or
// after seen[c] when sessionOrder holds.
func (w *View[K]) Readable(c, v int, sessionOrder bool) bool {
	_, ok := w.At(v)
	return ok && (!sessionOrder || w.Seen[c] <= v)
}

// Readables returns Readable(c) in increasing zxid order (TLC's order of
// the \E over it).
func (w *View[K]) Readables(c int, sessionOrder bool) []int {
	var out []int
	for _, h := range w.Hist {
		if !sessionOrder || w.Seen[c] <= h.Zxid {
			out = append(out, h.Zxid)
		}
	}
	return out
}

// ViewTypeOK is the module's TypeOK against the leader srv: hist[zxid] =
// nodes, no snapshot after zxid, seen in 0..zxid for each of n clients,
// every queued duplicate delete a live session's.
func (w *View[K]) ViewTypeOK(srv *zk.Server[K], n int) bool {
	if len(w.Hist) == 0 || len(w.Seen) != n {
		return false
	}
	for _, p := range w.Dupes {
		if !srv.IsLive(p.Sess) {
			return false
		}
	}
	last := w.Hist[len(w.Hist)-1]
	if last.Zxid != srv.Zxid || !sameNodes(last.Nodes, srv.Nodes) {
		return false
	}
	for _, x := range w.Seen {
		if x < 0 || x > srv.Zxid {
			return false
		}
	}
	return true
}

func sameNodes[K zk.Kind](a, b []zk.Node[K]) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// ExistsAt is ExistsAt(v, name) on snap = hist[v]: a node named x is in it.
func ExistsAt[K zk.Kind](snap []zk.Node[K], x zk.Name[K]) bool {
	for _, n := range snap {
		if n.Name() == x {
			return true
		}
	}
	return false
}

// Queued is Queued(c, w): the event of watch ev already waits in c's inbox.
func Queued[K zk.Kind](srv *zk.Server[K], c int, ev zk.Watch[K]) bool {
	for _, e := range srv.Inbox[c] {
		if e == ev {
			return true
		}
	}
	return false
}

// Log is Log (and dupes unchanged): t.Hist is s.Hist, plus the leader's nodes after the step
// under its last zxid if the step (from leader s to leader t) advanced
// zxid. One snapshot per write step: a transaction is applied whole.
func (w *View[K]) Log(s, t *zk.Server[K], out *View[K]) {
	out.Hist = w.Hist
	out.Dupes = w.Dupes // the caller's to change (DuplicateLands, DropDuplicates)
	if t.Zxid != s.Zxid {
		out.Hist = cow.Append(w.Hist, Snapshot[K]{Zxid: t.Zxid, Nodes: t.Nodes})
	}
}

// Replied is Replied(c): the reply of c's write carries its zxid, and
// seen[c] rises to it (a step that wrote nothing raises nothing).
func (w *View[K]) Replied(c int, s, t *zk.Server[K], out *View[K]) {
	out.Seen = w.Seen
	if t.Zxid != s.Zxid {
		out.Seen = cow.With(w.Seen, c, t.Zxid)
	}
}

// NewConnection is NewConnection(c): a new session starts from seen 0;
// hist (and dupes) are unchanged.
func (w *View[K]) NewConnection(c int, out *View[K]) {
	out.Hist = w.Hist
	out.Seen = cow.With(w.Seen, c, 0)
	out.Dupes = w.Dupes
}

// Read is Read(c, v): a read of c answered from snapshot v leaves hist
// alone and sets seen[c] to v (dupes unchanged, unless the caller queues).
func (w *View[K]) Read(c, v int, out *View[K]) {
	out.Hist = w.Hist
	out.Seen = w.Seen
	out.Dupes = w.Dupes // the caller's to change (QueueDuplicates)
	if w.Seen[c] != v {
		out.Seen = cow.With(w.Seen, c, v)
	}
}

// ArmAt is ArmAt(name, u) on t, a copy of the leader s: getData with a
// watch at a server whose snapshot has the node x (the caller checked
// ExistsAt). The leader still has it: the watch is armed (it fires when
// the delete commits). The leader deleted it: the server will apply the
// delete, and the event is delivered at once (the inbox is the FIFO of
// delivered, unconsumed events), unless the same event already waits.
func ArmAt[K zk.Kind](s *zk.Server[K], x zk.Name[K], u zk.Uuid, t *zk.Server[K]) {
	if s.NodeExists(x) {
		s.SetWatch(t, x, u)
		return
	}
	ev := zk.Watch[K]{Node: x, Req: u}
	if Queued(s, u.C, ev) {
		return
	}
	t.Inbox = cow.With(s.Inbox, u.C, cow.Append(s.Inbox[u.C], ev))
}

// QueueDuplicates is QueueDuplicates(x, u, own, v) with snap = hist[v]:
// when on (DeleteDuplicates), the listing of session x for request u,
// whose node is own, queues the delete of every node of snap that carries
// u but is not own. Hist and Seen are the caller's (Read).
func (w *View[K]) QueueDuplicates(on bool, x zk.Session, u zk.Uuid, own int, snap []zk.Node[K], out *View[K]) {
	out.Dupes = w.Dupes
	if !on {
		return
	}
	for _, n := range snap {
		if n.Uuid == u && n.Seq != own {
			out.Dupes = cow.Insert(out.Dupes, Dupe[K]{Sess: x, Name: n.Name()}, DupeLess[K])
		}
	}
}

// DeleteQueued is DeleteQueued(n): n's delete is queued by its own
// session.
func (w *View[K]) DeleteQueued(n zk.Node[K]) bool {
	for _, p := range w.Dupes {
		if p.Sess == n.Owner && p.Name == n.Name() {
			return true
		}
	}
	return false
}

// DuplicateLands is DuplicateLands(p) for p = Dupes[i], from leader s to
// its copy t: while p's session is live, one transaction deletes the node
// of that name if the leader still has it (watches on it fire:
// DeleteNodes; none: nothing changes), p leaves dupes, the step is logged
// and seen is unchanged.
func (w *View[K]) DuplicateLands(s *zk.Server[K], i int, t *zk.Server[K], out *View[K]) model.Guard {
	if i < 0 || i >= len(w.Dupes) {
		return `p \in dupes`
	}
	p := w.Dupes[i]
	if !s.IsLive(p.Sess) {
		return `ZK!IsLive(p[1])`
	}
	var del []zk.Node[K]
	for _, n := range s.Nodes {
		if n.Name() == p.Name {
			del = append(del, n)
		}
	}
	s.DeleteNodes(t, del)
	w.Log(s, t, out)
	out.Seen = w.Seen
	out.Dupes = cow.Filter(w.Dupes, func(q Dupe[K]) bool { return q != p })
	return model.Enabled
}

// DropDuplicates is DropDuplicates(x): the expiry of session x drops its
// queued duplicate deletes.
func (w *View[K]) DropDuplicates(x zk.Session, out *View[K]) {
	out.Dupes = cow.Filter(w.Dupes, func(p Dupe[K]) bool { return p.Sess != x })
}

// AppendEncoding appends the canonical encoding of the view: hist (each
// snapshot's zxid, then its nodes with their kind's rank), seen and dupes,
// as zig-zag varints, lengths first.
func (w *View[K]) AppendEncoding(b []byte) []byte {
	v := binary.AppendVarint
	b = v(b, int64(len(w.Hist)))
	for _, h := range w.Hist {
		b = v(v(b, int64(h.Zxid)), int64(len(h.Nodes)))
		for _, n := range h.Nodes {
			b = v(v(v(v(v(v(v(b, int64(n.Seq)), int64(n.Kind.Rank())), int64(n.Owner.C)), int64(n.Owner.K)),
				int64(n.Uuid.C)), int64(n.Uuid.R)), int64(n.Czxid))
		}
	}
	for _, x := range w.Seen {
		b = v(b, int64(x))
	}
	b = v(b, int64(len(w.Dupes)))
	for _, p := range w.Dupes {
		b = v(v(v(v(b, int64(p.Sess.C)), int64(p.Sess.K)), int64(p.Name.Seq)), int64(p.Name.Kind.Rank()))
	}
	return b
}

// Bindings returns hist, seen and dupes as TLA+ values, in that order
// (the VARIABLES clause of the stale-read specs), printing nodes with p.
func (w *View[K]) Bindings(p zk.Printer[K]) []tla.Binding {
	f := make(tla.Func, len(w.Hist))
	for i, h := range w.Hist {
		nodes, _ := p.Binding(&zk.Server[K]{Nodes: h.Nodes}, "nodes")
		f[i] = tla.Pair{Key: tla.Int(h.Zxid), Value: nodes}
	}
	seen := make(tla.Func, len(w.Seen))
	for c, x := range w.Seen {
		seen[c] = tla.Pair{Key: tla.ModelValue(p.Clients[c]), Value: tla.Int(x)}
	}
	dupes := make(tla.Set, len(w.Dupes))
	for i, d := range w.Dupes {
		dupes[i] = tla.Tuple{p.Session(d.Sess), p.Name(d.Name)}
	}
	return []tla.Binding{{Name: "hist", Value: f}, {Name: "seen", Value: seen}, {Name: "dupes", Value: dupes}}
}
