// Package replicas is the Go mirror of spec/tla/ZooKeeperReplicas.tla, the
// ensemble's read view that the stale-read specs share: the leader's log
// as the node set after each write step (Hist), and per client the highest
// zxid it has seen (Seen). The leader is model/zk's Server, embedded in the
// lock spec's state; a lock spec's stale mirror (model/stalereads for
// PredecessorLockStaleReads, model/sharedstale for SharedLockStaleReads)
// embeds a View beside it and calls the operators below, each a method or
// function named like the module's operator.
//
// A View is built copy-on-write like the rest of a state: a step never
// writes into a slice it did not allocate.
package replicas

import (
	"encoding/binary"

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

// View is the module's variables: hist (sorted by zxid) and seen (by
// client index).
type View[K zk.Kind] struct {
	Hist []Snapshot[K]
	Seen []int
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
// nodes, no snapshot after zxid, seen in 0..zxid for each of n clients.
func (w *View[K]) ViewTypeOK(srv *zk.Server[K], n int) bool {
	if len(w.Hist) == 0 || len(w.Seen) != n {
		return false
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

// Log is Log: t.Hist is s.Hist, plus the leader's nodes after the step
// under its last zxid if the step (from leader s to leader t) advanced
// zxid. One snapshot per write step: a transaction is applied whole.
func (w *View[K]) Log(s, t *zk.Server[K], out *View[K]) {
	out.Hist = w.Hist
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
// hist is unchanged.
func (w *View[K]) NewConnection(c int, out *View[K]) {
	out.Hist = w.Hist
	out.Seen = cow.With(w.Seen, c, 0)
}

// Read is Read(c, v): a read of c answered from snapshot v leaves hist
// alone and sets seen[c] to v.
func (w *View[K]) Read(c, v int, out *View[K]) {
	out.Hist = w.Hist
	out.Seen = w.Seen
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

// AppendEncoding appends the canonical encoding of the view: hist (each
// snapshot's zxid, then its nodes with their kind's rank) and seen, as
// zig-zag varints, lengths first.
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
	return b
}

// Bindings returns hist and seen as TLA+ values, in that order (the
// VARIABLES clause of the stale-read specs), printing nodes with p.
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
	return []tla.Binding{{Name: "hist", Value: f}, {Name: "seen", Value: seen}}
}
