package predlock

import (
	"encoding/binary"

	"github.com/zklock/zklock/model/tla"
	"github.com/zklock/zklock/model/zk"
)

// NoNode is the seq of "no node": the client does not know / has not
// chosen a node (spec: NoNode == -1).
const NoNode = zk.NoNode

// Parent is the watch target meaning the lock's parent node, a
// getChildren watch (spec: Parent == -2).
const Parent = zk.ParentSeq

// PC is a client's control state (spec: PCs).
type PC uint8

// The control states.
const (
	PCIdle   PC = iota // no request
	PCCreate           // about to create its lock node
	PCFind             // create's reply was lost: must find its node by uuid
	PCList             // about to list the children
	PCWatch            // chose a node to watch (target), about to getData+watch it
	PCWait             // watch armed, waiting for a notification
	PCGrant            // its node is first: about to read it and hold
	PCHold             // believes it holds the lock
)

var pcNames = [...]string{"idle", "create", "find", "list", "watch", "wait", "grant", "hold"}

// String returns the spec's name of the control state ("idle", ...).
func (p PC) String() string {
	if int(p) < len(pcNames) {
		return pcNames[p]
	}
	return "?"
}

// Acquiring reports whether p is in Acquiring (every value but "idle" and "hold").
func (p PC) Acquiring() bool { return p != PCIdle && p != PCHold }

// KnowsNode reports whether p is in KnowsNode ("list", "watch", "wait", "grant", "hold").
func (p PC) KnowsNode() bool { return p >= PCList }

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

// name is the name of the node with sequence number seq (PredecessorLock's
// Name(n) == n.seq).
func name(seq int) zk.Name[zk.NoKind] { return zk.Name[zk.NoKind]{Seq: seq} }

// State is one state of the spec: its variables, in the spec's order.
// Clients are indices into Constants.Clients. Sets are sorted slices
// (nodes by seq, live and watches lexicographically); per-client
// functions are slices indexed by client.
type State struct {
	// ---- ZooKeeper server: nodes, nextSeq, zxid, live, watches, inbox, pending ----
	zk.Server[zk.NoKind]
	// ---- clients ----
	PC     []PC  // control state
	Sess   []int // k of the current session <<c, k>>
	ReqNo  []int // number of the current (or last) request
	Node   []int // seq of the own node, NoNode while unknown
	Target []int // seq of the node watched or about to be watched, NoNode if none
	// SoleBlocker: Target was the only node before ours at the listing
	// that chose it (spec: soleBlocker).
	SoleBlocker []bool
	Token       []int  // lease token, 0 when not holding
	Tenure      []int  // grant number of the lease, 0 when not holding
	Paused      []bool // process paused
	// ---- the fenced resource, fault budget and history ----
	Faults    int // fault steps taken so far
	Grants    int // grants so far
	LastToken int // token of the most recent grant
	ResHigh   int // highest token the resource has accepted
	ResTenure int // tenure of the last write the resource accepted
}

// VarNames are the spec's variables, in the order of the VARIABLES clause.
var VarNames = []string{"nodes", "nextSeq", "zxid", "live", "watches", "inbox",
	"pc", "sess", "reqNo", "node", "target", "soleBlocker", "token", "tenure", "paused",
	"faults", "grants", "lastToken", "resHigh", "resTenure", "pending"}

// Init is the initial state (spec: Init).
func (sp *Spec) Init() State {
	n := sp.N()
	s := State{
		Server:      zk.Init[zk.NoKind](n),
		PC:          make([]PC, n),
		Sess:        make([]int, n),
		ReqNo:       make([]int, n),
		Node:        make([]int, n),
		Target:      make([]int, n),
		SoleBlocker: make([]bool, n),
		Token:       make([]int, n),
		Tenure:      make([]int, n),
		Paused:      make([]bool, n),
	}
	for c := 0; c < n; c++ {
		s.Sess[c] = 1
		s.Node[c] = NoNode
		s.Target[c] = NoNode
	}
	return s
}

// AppendEncoding appends the canonical encoding of s to b: every variable
// in order, integers as zig-zag varints, slices prefixed by their length.
// Two states are equal iff their encodings are.
func (s *State) AppendEncoding(b []byte) []byte {
	v := binary.AppendVarint
	b = s.Server.AppendEncoding(b)
	for c := range s.PC {
		b = append(b, byte(s.PC[c]))
		b = v(v(v(v(v(v(b, int64(s.Sess[c])), int64(s.ReqNo[c])), int64(s.Node[c])), int64(s.Target[c])), int64(s.Token[c])), int64(s.Tenure[c]))
		b = append(b, boolByte(s.SoleBlocker[c]), boolByte(s.Paused[c]))
	}
	return v(v(v(v(v(b, int64(s.Faults)), int64(s.Grants)), int64(s.LastToken)), int64(s.ResHigh)), int64(s.ResTenure))
}

func boolByte(x bool) byte {
	if x {
		return 1
	}
	return 0
}

// TLA returns the state's variables as TLA+ values, in VarNames order, the
// way TLC prints them.
func (sp *Spec) TLA(s *State) []tla.Binding {
	p := zk.Printer[zk.NoKind]{Clients: sp.Clients}
	server, pending := p.Bindings(&s.Server)
	return append(server,
		tla.Binding{Name: "pc", Value: p.PerClient(func(c int) tla.Value { return tla.Str(s.PC[c].String()) })},
		tla.Binding{Name: "sess", Value: p.Ints(s.Sess)},
		tla.Binding{Name: "reqNo", Value: p.Ints(s.ReqNo)},
		tla.Binding{Name: "node", Value: p.Ints(s.Node)},
		tla.Binding{Name: "target", Value: p.Ints(s.Target)},
		tla.Binding{Name: "soleBlocker", Value: p.Bools(s.SoleBlocker)},
		tla.Binding{Name: "token", Value: p.Ints(s.Token)},
		tla.Binding{Name: "tenure", Value: p.Ints(s.Tenure)},
		tla.Binding{Name: "paused", Value: p.Bools(s.Paused)},
		tla.Binding{Name: "faults", Value: tla.Int(s.Faults)},
		tla.Binding{Name: "grants", Value: tla.Int(s.Grants)},
		tla.Binding{Name: "lastToken", Value: tla.Int(s.LastToken)},
		tla.Binding{Name: "resHigh", Value: tla.Int(s.ResHigh)},
		tla.Binding{Name: "resTenure", Value: tla.Int(s.ResTenure)},
		pending)
}

// Format prints s as TLC prints a state: one "/\ variable = value" line
// per variable.
func (sp *Spec) Format(s *State) string { return zk.Format(sp.TLA(s)) }
