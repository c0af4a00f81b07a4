package sharedlock

import (
	"encoding/binary"

	"github.com/zklock/zklock/model/tla"
	"github.com/zklock/zklock/model/zk"
)

// NoNode is the seq of "no node" (spec: NoNode == -1).
const NoNode = zk.NoNode

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

// Rank orders kinds by their value ("none" < "read" < "write").
func (k Kind) Rank() int { return int(k) }

// Session is a session <<c, k>>.
type Session = zk.Session

// Uuid is a request's uuid <<c, r>>.
type Uuid = zk.Uuid

// Name is a node's name <<seq, kind>>: the sequence suffix and the
// __READ__/__WRIT__ part of its path (spec: Name(n)).
type Name = zk.Name[Kind]

// NoTarget is the target of a client that watches nothing
// (spec: NoTarget == <<-1, "none">>).
var NoTarget = Name{Seq: -1, Kind: KindNone}

// Node is a lock node [seq, kind, owner, uuid, czxid].
type Node = zk.Node[Kind]

// Watch is an armed one-shot watch [node, req] on a node name.
type Watch = zk.Watch[Kind]

// Pending is a delete sent but not yet landed <<session, uuid>> (spec:
// an element of pending): the nodes of request Uuid in session Sess.
type Pending = zk.Pending

// State is one state of the spec: its variables, in the spec's order.
type State struct {
	// ---- ZooKeeper server: nodes, nextSeq, zxid, live, watches, inbox, pending ----
	zk.Server[Kind]
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
}

// VarNames are the spec's variables, in the order of the VARIABLES clause.
var VarNames = []string{"nodes", "nextSeq", "zxid", "live", "watches", "inbox",
	"pc", "kind", "sess", "reqNo", "node", "target", "soleBlocker", "token", "paused", "faults", "pending"}

// Init is the initial state (spec: Init).
func (sp *Spec) Init() State {
	n := sp.N()
	s := State{
		Server:      zk.Init[Kind](n),
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
		s.Sess[c] = 1
		s.Node[c] = NoNode
		s.Target[c] = NoTarget
	}
	return s
}

// AppendEncoding appends the canonical encoding of s to b: the server's
// variables (zk.Server.AppendEncoding), the kinds of its nodes and watches,
// then the clients' variables.
func (s *State) AppendEncoding(b []byte) []byte {
	v := binary.AppendVarint
	b = s.Server.AppendEncoding(b)
	for _, n := range s.Nodes {
		b = append(b, byte(n.Kind))
	}
	for _, w := range s.Watches {
		b = append(b, byte(w.Node.Kind))
	}
	for c := range s.PC {
		b = append(b, byte(s.PC[c]), byte(s.Kind[c]))
		b = v(v(v(b, int64(s.Sess[c])), int64(s.ReqNo[c])), int64(s.Node[c]))
		b = append(v(b, int64(s.Target[c].Seq)), byte(s.Target[c].Kind))
		b = append(v(b, int64(s.Token[c])), boolByte(s.SoleBlocker[c]), boolByte(s.Paused[c]))
	}
	return v(b, int64(s.Faults))
}

func boolByte(x bool) byte {
	if x {
		return 1
	}
	return 0
}

// TLA returns the state's variables as TLA+ values, in VarNames order.
func (sp *Spec) TLA(s *State) []tla.Binding {
	p := zk.Printer[Kind]{Clients: sp.Clients, Kind: func(k Kind) tla.Value { return tla.Str(k.String()) }}
	server, pending := p.Bindings(&s.Server)
	return append(server,
		tla.Binding{Name: "pc", Value: p.PerClient(func(c int) tla.Value { return tla.Str(s.PC[c].String()) })},
		tla.Binding{Name: "kind", Value: p.PerClient(func(c int) tla.Value { return tla.Str(s.Kind[c].String()) })},
		tla.Binding{Name: "sess", Value: p.Ints(s.Sess)},
		tla.Binding{Name: "reqNo", Value: p.Ints(s.ReqNo)},
		tla.Binding{Name: "node", Value: p.Ints(s.Node)},
		tla.Binding{Name: "target", Value: p.PerClient(func(c int) tla.Value { return p.Name(s.Target[c]) })},
		tla.Binding{Name: "soleBlocker", Value: p.Bools(s.SoleBlocker)},
		tla.Binding{Name: "token", Value: p.Ints(s.Token)},
		tla.Binding{Name: "paused", Value: p.Bools(s.Paused)},
		tla.Binding{Name: "faults", Value: tla.Int(s.Faults)},
		pending)
}

// Format prints s as TLC prints a state.
func (sp *Spec) Format(s *State) string { return zk.Format(sp.TLA(s)) }
