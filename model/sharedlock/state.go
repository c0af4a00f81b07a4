package sharedlock

import (
	"github.com/zklock/zklock/model/recipe"
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

// PC is a client's control state (spec: PCs; the values are
// recipe.recipe.PCIdle ... recipe.recipe.PCHold).
type PC = recipe.PC

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

// State is one state of the spec: its variables. The server's and those
// every client of both lock specs has are recipe.State's; SharedLock adds
// the kind of each client's request.
type State struct {
	recipe.State[Kind]
	Kind []Kind // kind of the current request, KindNone when idle
}

// VarNames are the spec's variables, in the order of the VARIABLES clause.
var VarNames = []string{"nodes", "nextSeq", "zxid", "live", "watches", "inbox",
	"pc", "kind", "sess", "reqNo", "node", "target", "soleBlocker", "token", "paused", "faults", "pending"}

// Init is the initial state (spec: Init).
func (sp *Spec) Init() State {
	return State{State: recipe.Init[Kind](sp.N()), Kind: make([]Kind, sp.N())}
}

// AppendEncoding appends the canonical encoding of s to b: the variables
// both lock specs have (recipe.State.AppendEncoding), then the kinds their
// encoding leaves out (of the nodes, the watches and the targets) and the
// clients' kinds.
func (s *State) AppendEncoding(b []byte) []byte {
	b = s.State.AppendEncoding(b)
	for _, n := range s.Nodes {
		b = append(b, byte(n.Kind))
	}
	for _, w := range s.Watches {
		b = append(b, byte(w.Node.Kind))
	}
	for _, q := range s.Inbox {
		for _, w := range q {
			b = append(b, byte(w.Node.Kind))
		}
	}
	for c := range s.Kind {
		b = append(b, byte(s.Target[c].Kind), byte(s.Kind[c]))
	}
	return b
}

// TLA returns the state's variables as TLA+ values, in VarNames order.
func (sp *Spec) TLA(s *State) []tla.Binding {
	p := zk.Printer[Kind]{Clients: sp.Clients, Outsider: sp.Outsider, Kind: func(k Kind) tla.Value { return tla.Str(k.String()) }}
	return zk.Bindings(VarNames, func(name string) (tla.Value, bool) {
		if name == "kind" {
			return p.PerClient(func(c int) tla.Value { return tla.Str(s.Kind[c].String()) }), true
		}
		return s.State.Binding(p, name)
	})
}

// Format prints s as TLC prints a state.
func (sp *Spec) Format(s *State) string { return zk.Format(sp.TLA(s)) }
