package predlock

import (
	"encoding/binary"

	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/tla"
	"github.com/zklock/zklock/model/zk"
)

// NoNode is the seq of "no node": the client does not know / has not
// chosen a node (spec: NoNode == -1).
const NoNode = zk.NoNode

// Parent is the watch target meaning the lock's parent node, a
// getChildren watch (spec: Parent == -2).
const Parent = zk.ParentSeq

// PC is a client's control state (spec: PCs; the values are
// recipe.recipe.PCIdle ... recipe.recipe.PCHold).
type PC = recipe.PC

// Session is a session <<c, k>>: the k-th session of client c.
type Session = zk.Session

// Uuid is a request's uuid <<c, r>>: the r-th request of client c.
type Uuid = zk.Uuid

// Node is a lock node [seq, owner, uuid, czxid]; its Kind is zk.NoKind.
type Node = zk.Node[zk.NoKind]

// Watch is an armed one-shot watch [node, req]: Node.Seq is a seq or Parent.
type Watch = zk.Watch[zk.NoKind]

// Pending is a delete sent but not yet landed <<session, uuid>> (spec:
// an element of pending): the nodes of request Uuid in session Sess.
type Pending = zk.Pending

// Name is a node's name, its seq (PredecessorLock's Name(n) == n.seq).
type Name = zk.Name[zk.NoKind]

// name is the name of the node with sequence number seq.
func name(seq int) Name { return Name{Seq: seq} }

// NoTarget is the target of a client that watches nothing (spec: NoNode).
var NoTarget = name(NoNode)

// State is one state of the spec: its variables. The server's and those
// every client of both lock specs has are recipe.State's (Target holds a
// name, whose Seq is the spec's target[c]); PredecessorLock adds the
// tenure of each client's lease and the history of grants and of the
// fenced resource.
type State struct {
	recipe.State[zk.NoKind]
	Tenure []int // grant number of the lease, 0 when not holding
	// ---- the history: grants and the fenced resource ----
	Grants    int // grants so far
	LastToken int // token of the most recent grant
	ResHigh   int // highest token the resource has accepted
	ResTenure int // tenure of the last write the resource accepted
}

// VarNames are the spec's variables, in the order of the VARIABLES clause.
var VarNames = []string{"nodes", "nextSeq", "zxid", "live", "watches", "inbox",
	"pc", "sess", "reqNo", "node", "target", "second", "soleBlocker", "token", "tenure", "paused",
	"faults", "grants", "lastToken", "resHigh", "resTenure", "pending"}

// Init is the initial state (spec: Init).
func (sp *Spec) Init() State {
	return State{State: recipe.Init[zk.NoKind](sp.N()), Tenure: make([]int, sp.N())}
}

// AppendEncoding appends the canonical encoding of s to b: the variables
// both lock specs have (recipe.State.AppendEncoding), then the tenures and
// the history, integers as zig-zag varints. Two states are equal iff their
// encodings are.
func (s *State) AppendEncoding(b []byte) []byte {
	v := binary.AppendVarint
	b = s.State.AppendEncoding(b)
	for _, x := range s.Tenure {
		b = v(b, int64(x))
	}
	return v(v(v(v(b, int64(s.Grants)), int64(s.LastToken)), int64(s.ResHigh)), int64(s.ResTenure))
}

// TLA returns the state's variables as TLA+ values, in VarNames order, the
// way TLC prints them.
func (sp *Spec) TLA(s *State) []tla.Binding {
	p := zk.Printer[zk.NoKind]{Clients: sp.Clients, Outsider: sp.Outsider}
	return zk.Bindings(VarNames, func(name string) (tla.Value, bool) {
		switch name {
		case "tenure":
			return p.Ints(s.Tenure), true
		case "grants":
			return tla.Int(s.Grants), true
		case "lastToken":
			return tla.Int(s.LastToken), true
		case "resHigh":
			return tla.Int(s.ResHigh), true
		case "resTenure":
			return tla.Int(s.ResTenure), true
		}
		return s.State.Binding(p, name)
	})
}

// Format prints s as TLC prints a state: one "/\ variable = value" line
// per variable.
func (sp *Spec) Format(s *State) string { return zk.Format(sp.TLA(s)) }
