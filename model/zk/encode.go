package zk

import (
	"encoding/binary"

	"github.com/zklock/zklock/model/tla"
)

// AppendEncoding appends the canonical encoding of the server's variables
// to b: integers as zig-zag varints, sets and sequences prefixed by their
// length, the inbox one sequence per client. Node and watch kinds are left
// out: a client spec whose names carry a kind appends them after (it knows
// how many there are), so that PredecessorLock's encoding has none.
func (s *Server[K]) AppendEncoding(b []byte) []byte {
	v := binary.AppendVarint
	b = binary.AppendUvarint(b, uint64(len(s.Nodes)))
	for _, n := range s.Nodes {
		b = v(v(v(v(v(v(b, int64(n.Seq)), int64(n.Owner.C)), int64(n.Owner.K)), int64(n.Uuid.C)), int64(n.Uuid.R)), int64(n.Czxid))
	}
	b = v(v(b, int64(s.NextSeq)), int64(s.Zxid))
	b = binary.AppendUvarint(b, uint64(len(s.Live)))
	for _, l := range s.Live {
		b = v(v(b, int64(l.C)), int64(l.K))
	}
	b = binary.AppendUvarint(b, uint64(len(s.Watches)))
	for _, w := range s.Watches {
		b = v(v(v(b, int64(w.Node.Seq)), int64(w.Req.C)), int64(w.Req.R))
	}
	for _, q := range s.Inbox {
		b = binary.AppendUvarint(b, uint64(len(q)))
		for _, w := range q {
			b = v(v(v(b, int64(w.Node.Seq)), int64(w.Req.C)), int64(w.Req.R))
		}
	}
	b = binary.AppendUvarint(b, uint64(len(s.Pending)))
	for _, p := range s.Pending {
		b = v(v(v(v(b, int64(p.Sess.C)), int64(p.Sess.K)), int64(p.Uuid.C)), int64(p.Uuid.R))
	}
	return b
}

// Bounds are the constants the server's TypeOK reads: the number of
// clients and the bounds on sequence numbers, sessions and requests.
type Bounds struct {
	Clients, MaxSeq, MaxFaults, MaxRequests int
}

// Session reports whether x is in Sessions (Clients \X 1..MaxFaults+1).
func (k Bounds) Session(x Session) bool {
	return x.C >= 0 && x.C < k.Clients && x.K >= 1 && x.K <= k.MaxFaults+1
}

// Uuid reports whether u is a request's uuid (Clients \X 1..MaxRequests).
func (k Bounds) Uuid(u Uuid) bool {
	return u.C >= 0 && u.C < k.Clients && u.R >= 1 && u.R <= k.MaxRequests
}

// Seq reports whether q is in 0..MaxSeq.
func (k Bounds) Seq(q int) bool { return q >= 0 && q <= k.MaxSeq }

// TypeOK: the server's variables have their types (TypeOK(NodeRecs,
// NodeNames, Sessions, Uuids)), kinds aside: a client spec whose names
// carry a kind checks them (they are of the kind's Go type already).
// Watches are on a node's seq or on Parent.
func (s *Server[K]) TypeOK(k Bounds) bool {
	for _, x := range s.Nodes {
		if !k.Seq(x.Seq) || !k.Session(x.Owner) || !k.Uuid(x.Uuid) || x.Czxid < 0 {
			return false
		}
	}
	if !k.Seq(s.NextSeq) || s.Zxid < 0 || len(s.Inbox) != k.Clients {
		return false
	}
	for _, x := range s.Live {
		if !k.Session(x) {
			return false
		}
	}
	for _, w := range s.Watches {
		if !(k.Seq(w.Node.Seq) || w.Node.Seq == ParentSeq) || !k.Uuid(w.Req) {
			return false
		}
	}
	for _, q := range s.Inbox {
		for _, w := range q {
			if !(k.Seq(w.Node.Seq) || w.Node.Seq == ParentSeq) || !k.Uuid(w.Req) {
				return false
			}
		}
	}
	for _, p := range s.Pending {
		if !k.Session(p.Sess) || !k.Uuid(p.Uuid) {
			return false
		}
	}
	return true
}

// Printer renders the server's variables as TLA+ values the way TLC
// prints them.
type Printer[K Kind] struct {
	// Clients are the client model values, by index.
	Clients []string
	// Kind renders a kind; nil when names carry none (PredecessorLock:
	// a node record has no kind field and a name is its seq).
	Kind func(K) tla.Value
	// Outsider is the model value of client index -1, the owner of an
	// outsider's node (PredecessorLockForeign's Stranger); "" if none.
	Outsider string
}

// Client is client c as a model value (-1: the Outsider).
func (p Printer[K]) Client(c int) tla.Value {
	if c < 0 && p.Outsider != "" {
		return tla.ModelValue(p.Outsider)
	}
	return tla.ModelValue(p.Clients[c])
}

// Session is <<c, k>>.
func (p Printer[K]) Session(x Session) tla.Value { return tla.Tuple{p.Client(x.C), tla.Int(x.K)} }

// Uuid is <<c, r>>.
func (p Printer[K]) Uuid(u Uuid) tla.Value { return tla.Tuple{p.Client(u.C), tla.Int(u.R)} }

// Name is a name: its seq, or <<seq, kind>>.
func (p Printer[K]) Name(x Name[K]) tla.Value {
	if p.Kind == nil {
		return tla.Int(x.Seq)
	}
	return tla.Tuple{tla.Int(x.Seq), p.Kind(x.Kind)}
}

// PerClient is the function [c \in Clients |-> f(c)].
func (p Printer[K]) PerClient(f func(c int) tla.Value) tla.Value {
	fn := make(tla.Func, len(p.Clients))
	for c := range fn {
		fn[c] = tla.Pair{Key: p.Client(c), Value: f(c)}
	}
	return fn
}

// Ints is a per-client function of integers.
func (p Printer[K]) Ints(xs []int) tla.Value {
	return p.PerClient(func(c int) tla.Value { return tla.Int(xs[c]) })
}

// Bools is a per-client function of booleans.
func (p Printer[K]) Bools(xs []bool) tla.Value {
	return p.PerClient(func(c int) tla.Value { return tla.Bool(xs[c]) })
}

// Watch is a watch record [node, req] (an armed watch, or a fired one in
// an inbox).
func (p Printer[K]) Watch(w Watch[K]) tla.Value {
	return tla.Record{{Name: "node", Value: p.Name(w.Node)}, {Name: "req", Value: p.Uuid(w.Req)}}
}

func (p Printer[K]) node(n Node[K]) tla.Value {
	r := tla.Record{{Name: "seq", Value: tla.Int(n.Seq)}}
	if p.Kind != nil {
		r = append(r, tla.Field{Name: "kind", Value: p.Kind(n.Kind)})
	}
	return append(r, tla.Field{Name: "owner", Value: p.Session(n.Owner)},
		tla.Field{Name: "uuid", Value: p.Uuid(n.Uuid)}, tla.Field{Name: "czxid", Value: tla.Int(n.Czxid)})
}

// Binding returns the server variable name of s as a TLA+ value (nodes,
// nextSeq, zxid, live, watches, inbox or pending), and false for any other
// name.
func (p Printer[K]) Binding(s *Server[K], name string) (tla.Value, bool) {
	set := tla.Set{}
	switch name {
	case "nodes":
		for _, n := range s.Nodes {
			set = append(set, p.node(n))
		}
	case "nextSeq":
		return tla.Int(s.NextSeq), true
	case "zxid":
		return tla.Int(s.Zxid), true
	case "live":
		for _, l := range s.Live {
			set = append(set, p.Session(l))
		}
	case "watches":
		for _, w := range s.Watches {
			set = append(set, p.Watch(w))
		}
	case "inbox":
		return p.PerClient(func(c int) tla.Value {
			q := tla.Tuple{}
			for _, w := range s.Inbox[c] {
				q = append(q, p.Watch(w))
			}
			return q
		}), true
	case "pending":
		for _, x := range s.Pending {
			set = append(set, tla.Tuple{p.Session(x.Sess), p.Uuid(x.Uuid)})
		}
	default:
		return nil, false
	}
	return set, true
}

// Bindings returns the variables names as TLA+ values, in order, the way
// TLC prints a state: value(name) gives each (false: no such variable, a
// mistake in the caller's list, shown as "?").
func Bindings(names []string, value func(name string) (tla.Value, bool)) []tla.Binding {
	out := make([]tla.Binding, len(names))
	for i, name := range names {
		v, ok := value(name)
		if !ok {
			v = tla.Str("?")
		}
		out[i] = tla.Binding{Name: name, Value: v}
	}
	return out
}

// Format prints bindings as TLC prints a state (tla.FormatState).
func Format(bs []tla.Binding) string { return tla.FormatState(bs) }
