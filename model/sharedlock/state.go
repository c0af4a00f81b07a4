package sharedlock

import (
	"encoding/binary"
	"strings"

	"github.com/zklock/zklock/model/tla"
)

// NoNode is the seq of "no node" (spec: NoNode == -1).
const NoNode = -1

// Kind is the kind of a request or a node: "read" or "write", and "none"
// for an idle client (spec: Kinds \cup {"none"}).
type Kind uint8

// The kinds.
const (
	KindNone Kind = iota
	KindRead
	KindWrite
)

var kindNames = [...]string{"none", "read", "write"}

// String returns "none", "read" or "write".
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "?"
}

// Kinds are the kinds of requests, in TLC's order ({"read", "write"}).
var Kinds = []Kind{KindRead, KindWrite}

// PC is a client's control state (spec: PCs).
type PC uint8

// The control states.
const (
	PCIdle PC = iota
	PCCreate
	PCFind
	PCList
	PCWatch
	PCWait
	PCGrant
	PCHold
)

var pcNames = [...]string{"idle", "create", "find", "list", "watch", "wait", "grant", "hold"}

// String returns the spec's name of the control state ("idle", ...).
func (p PC) String() string {
	if int(p) < len(pcNames) {
		return pcNames[p]
	}
	return "?"
}

// Acquiring reports whether p is in Acquiring.
func (p PC) Acquiring() bool { return p != PCIdle && p != PCHold }

// KnowsNode reports whether p is in KnowsNode.
func (p PC) KnowsNode() bool { return p >= PCList }

// Session is a session <<c, k>>.
type Session struct{ C, K int }

// Uuid is a request's uuid <<c, r>>.
type Uuid struct{ C, R int }

// Name is a node's name <<seq, kind>>: the sequence suffix and the
// __READ__/__WRIT__ part of its path (spec: Name(n)).
type Name struct {
	Seq  int
	Kind Kind
}

// NoTarget is the target of a client that watches nothing
// (spec: NoTarget == <<-1, "none">>).
var NoTarget = Name{Seq: -1, Kind: KindNone}

// Node is a lock node [seq, kind, owner, uuid, czxid].
type Node struct {
	Seq   int
	Kind  Kind
	Owner Session
	Uuid  Uuid
	Czxid int
}

// Name returns the node's name.
func (n Node) Name() Name { return Name{n.Seq, n.Kind} }

// Watch is an armed one-shot watch [node, req] on a node name.
type Watch struct {
	Node Name
	Req  Uuid
}

// Pending is a delete sent but not yet landed <<session, uuid>> (spec:
// an element of pending): the nodes of request Uuid in session Sess.
type Pending struct {
	Sess Session
	Uuid Uuid
}

func pendingLess(a, b Pending) bool {
	return sessLess(a.Sess, b.Sess) || a.Sess == b.Sess && uuidLess(a.Uuid, b.Uuid)
}

func sessLess(a, b Session) bool { return a.C < b.C || a.C == b.C && a.K < b.K }
func uuidLess(a, b Uuid) bool    { return a.C < b.C || a.C == b.C && a.R < b.R }
func nameLess(a, b Name) bool    { return a.Seq < b.Seq || a.Seq == b.Seq && a.Kind < b.Kind }
func watchLess(a, b Watch) bool {
	return nameLess(a.Node, b.Node) || a.Node == b.Node && uuidLess(a.Req, b.Req)
}

// State is one state of the spec: its variables, in the spec's order.
type State struct {
	// ---- ZooKeeper server ----
	Nodes   []Node    // lock nodes, sorted by seq
	NextSeq int       // the parent's sequence counter
	Zxid    int       // zxid of the last write transaction
	Live    []Session // sessions the server considers live
	Watches []Watch   // armed one-shot watches
	Inbox   [][]Uuid  // per client: delivered, unconsumed notifications (FIFO)
	// ---- clients ----
	PC     []PC   // control state
	Kind   []Kind // kind of the current request, KindNone when idle
	Sess   []int  // k of the current session
	ReqNo  []int  // number of the current (or last) request
	Node   []int  // seq of the own node, NoNode while unknown
	Target []Name // name of the node to watch, NoTarget if none
	// SoleBlocker: Target was the only blocker of ours at the listing
	// that chose it (spec: soleBlocker).
	SoleBlocker []bool
	Token       []int  // token of the lease, 0 if none
	Paused      []bool // process paused
	// ---- fault budget ----
	Faults int
	// ---- deletes sent but not yet landed (AsyncDelete) ----
	Pending []Pending // sorted by pendingLess
}

// VarNames are the spec's variables, in the order of the VARIABLES clause.
var VarNames = []string{"nodes", "nextSeq", "zxid", "live", "watches", "inbox",
	"pc", "kind", "sess", "reqNo", "node", "target", "soleBlocker", "token", "paused", "faults", "pending"}

// Init is the initial state (spec: Init).
func (sp *Spec) Init() State {
	n := sp.N()
	s := State{
		Inbox:       make([][]Uuid, n),
		PC:          make([]PC, n),
		Kind:        make([]Kind, n),
		Sess:        make([]int, n),
		ReqNo:       make([]int, n),
		Node:        make([]int, n),
		Target:      make([]Name, n),
		SoleBlocker: make([]bool, n),
		Token:       make([]int, n),
		Paused:      make([]bool, n),
	}
	for c := 0; c < n; c++ {
		s.Live = append(s.Live, Session{c, 1})
		s.Sess[c] = 1
		s.Node[c] = NoNode
		s.Target[c] = NoTarget
	}
	return s
}

// AppendEncoding appends the canonical encoding of s to b.
func (s *State) AppendEncoding(b []byte) []byte {
	v := binary.AppendVarint
	b = binary.AppendUvarint(b, uint64(len(s.Nodes)))
	for _, n := range s.Nodes {
		b = append(v(b, int64(n.Seq)), byte(n.Kind))
		b = v(v(v(v(v(b, int64(n.Owner.C)), int64(n.Owner.K)), int64(n.Uuid.C)), int64(n.Uuid.R)), int64(n.Czxid))
	}
	b = v(v(b, int64(s.NextSeq)), int64(s.Zxid))
	b = binary.AppendUvarint(b, uint64(len(s.Live)))
	for _, l := range s.Live {
		b = v(v(b, int64(l.C)), int64(l.K))
	}
	b = binary.AppendUvarint(b, uint64(len(s.Watches)))
	for _, w := range s.Watches {
		b = append(v(b, int64(w.Node.Seq)), byte(w.Node.Kind))
		b = v(v(b, int64(w.Req.C)), int64(w.Req.R))
	}
	for _, q := range s.Inbox {
		b = binary.AppendUvarint(b, uint64(len(q)))
		for _, u := range q {
			b = v(v(b, int64(u.C)), int64(u.R))
		}
	}
	for c := range s.PC {
		b = append(b, byte(s.PC[c]), byte(s.Kind[c]))
		b = v(v(v(b, int64(s.Sess[c])), int64(s.ReqNo[c])), int64(s.Node[c]))
		b = append(v(b, int64(s.Target[c].Seq)), byte(s.Target[c].Kind))
		b = append(v(b, int64(s.Token[c])), boolByte(s.SoleBlocker[c]), boolByte(s.Paused[c]))
	}
	b = v(b, int64(s.Faults))
	b = binary.AppendUvarint(b, uint64(len(s.Pending)))
	for _, p := range s.Pending {
		b = v(v(v(v(b, int64(p.Sess.C)), int64(p.Sess.K)), int64(p.Uuid.C)), int64(p.Uuid.R))
	}
	return b
}

func boolByte(x bool) byte {
	if x {
		return 1
	}
	return 0
}

// TLA returns the state's variables as TLA+ values, in VarNames order.
func (sp *Spec) TLA(s *State) []tla.Binding {
	mv := func(c int) tla.Value { return tla.ModelValue(sp.Clients[c]) }
	sess := func(x Session) tla.Value { return tla.Tuple{mv(x.C), tla.Int(x.K)} }
	uuid := func(u Uuid) tla.Value { return tla.Tuple{mv(u.C), tla.Int(u.R)} }
	name := func(n Name) tla.Value { return tla.Tuple{tla.Int(n.Seq), tla.Str(n.Kind.String())} }
	perClient := func(f func(c int) tla.Value) tla.Value {
		fn := make(tla.Func, sp.N())
		for c := range fn {
			fn[c] = tla.Pair{Key: mv(c), Value: f(c)}
		}
		return fn
	}
	ints := func(xs []int) tla.Value { return perClient(func(c int) tla.Value { return tla.Int(xs[c]) }) }
	nodes := tla.Set{}
	for _, n := range s.Nodes {
		nodes = append(nodes, tla.Record{{Name: "seq", Value: tla.Int(n.Seq)}, {Name: "kind", Value: tla.Str(n.Kind.String())},
			{Name: "owner", Value: sess(n.Owner)}, {Name: "uuid", Value: uuid(n.Uuid)}, {Name: "czxid", Value: tla.Int(n.Czxid)}})
	}
	live := tla.Set{}
	for _, l := range s.Live {
		live = append(live, sess(l))
	}
	watches := tla.Set{}
	for _, w := range s.Watches {
		watches = append(watches, tla.Record{{Name: "node", Value: name(w.Node)}, {Name: "req", Value: uuid(w.Req)}})
	}
	pending := tla.Set{}
	for _, p := range s.Pending {
		pending = append(pending, tla.Tuple{sess(p.Sess), uuid(p.Uuid)})
	}
	return []tla.Binding{
		{Name: "nodes", Value: nodes},
		{Name: "nextSeq", Value: tla.Int(s.NextSeq)},
		{Name: "zxid", Value: tla.Int(s.Zxid)},
		{Name: "live", Value: live},
		{Name: "watches", Value: watches},
		{Name: "inbox", Value: perClient(func(c int) tla.Value {
			q := tla.Tuple{}
			for _, u := range s.Inbox[c] {
				q = append(q, uuid(u))
			}
			return q
		})},
		{Name: "pc", Value: perClient(func(c int) tla.Value { return tla.Str(s.PC[c].String()) })},
		{Name: "kind", Value: perClient(func(c int) tla.Value { return tla.Str(s.Kind[c].String()) })},
		{Name: "sess", Value: ints(s.Sess)},
		{Name: "reqNo", Value: ints(s.ReqNo)},
		{Name: "node", Value: ints(s.Node)},
		{Name: "target", Value: perClient(func(c int) tla.Value { return name(s.Target[c]) })},
		{Name: "soleBlocker", Value: perClient(func(c int) tla.Value { return tla.Bool(s.SoleBlocker[c]) })},
		{Name: "token", Value: ints(s.Token)},
		{Name: "paused", Value: perClient(func(c int) tla.Value { return tla.Bool(s.Paused[c]) })},
		{Name: "faults", Value: tla.Int(s.Faults)},
		{Name: "pending", Value: pending},
	}
}

// Format prints s as TLC prints a state.
func (sp *Spec) Format(s *State) string {
	var b strings.Builder
	for i, v := range sp.TLA(s) {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(`/\ ` + v.Name + " = " + v.Value.String())
	}
	return b.String()
}
