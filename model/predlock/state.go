package predlock

import (
	"encoding/binary"
	"strings"

	"github.com/zklock/zklock/model/tla"
)

// NoNode is the seq of "no node": the client does not know / has not
// chosen a node (spec: NoNode == -1).
const NoNode = -1

// Parent is the watch target meaning the lock's parent node, a
// getChildren watch (spec: Parent == -2).
const Parent = -2

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
type Session struct{ C, K int }

// Uuid is a request's uuid <<c, r>>: the r-th request of client c.
type Uuid struct{ C, R int }

// Node is a lock node [seq, owner, uuid, czxid].
type Node struct {
	Seq   int
	Owner Session
	Uuid  Uuid
	Czxid int
}

// Watch is an armed one-shot watch [node, req]: Node is a seq or Parent.
type Watch struct {
	Node int
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
func watchLess(a, b Watch) bool {
	return a.Node < b.Node || a.Node == b.Node && uuidLess(a.Req, b.Req)
}

// State is one state of the spec: its variables, in the spec's order.
// Clients are indices into Constants.Clients. Sets are sorted slices
// (nodes by seq, live and watches lexicographically); per-client
// functions are slices indexed by client.
type State struct {
	// ---- ZooKeeper server ----
	Nodes   []Node    // lock nodes under the parent, sorted by seq
	NextSeq int       // the parent's sequence counter
	Zxid    int       // zxid of the last write transaction
	Live    []Session // sessions the server considers live
	Watches []Watch   // armed one-shot watches
	Inbox   [][]Uuid  // per client: delivered, unconsumed notifications (FIFO)
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
	// ---- deletes sent but not yet landed (AsyncDelete) ----
	Pending []Pending // sorted by pendingLess
}

// VarNames are the spec's variables, in the order of the VARIABLES clause.
var VarNames = []string{"nodes", "nextSeq", "zxid", "live", "watches", "inbox",
	"pc", "sess", "reqNo", "node", "target", "soleBlocker", "token", "tenure", "paused",
	"faults", "grants", "lastToken", "resHigh", "resTenure", "pending"}

// Init is the initial state (spec: Init).
func (sp *Spec) Init() State {
	n := sp.N()
	s := State{
		Inbox:       make([][]Uuid, n),
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
		s.Live = append(s.Live, Session{c, 1})
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
		b = v(v(v(b, int64(w.Node)), int64(w.Req.C)), int64(w.Req.R))
	}
	for _, q := range s.Inbox {
		b = binary.AppendUvarint(b, uint64(len(q)))
		for _, u := range q {
			b = v(v(b, int64(u.C)), int64(u.R))
		}
	}
	for c := range s.PC {
		b = append(b, byte(s.PC[c]))
		b = v(v(v(v(v(v(b, int64(s.Sess[c])), int64(s.ReqNo[c])), int64(s.Node[c])), int64(s.Target[c])), int64(s.Token[c])), int64(s.Tenure[c]))
		b = append(b, boolByte(s.SoleBlocker[c]), boolByte(s.Paused[c]))
	}
	b = v(v(v(v(v(b, int64(s.Faults)), int64(s.Grants)), int64(s.LastToken)), int64(s.ResHigh)), int64(s.ResTenure))
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

// TLA returns the state's variables as TLA+ values, in VarNames order, the
// way TLC prints them.
func (sp *Spec) TLA(s *State) []tla.Binding {
	mv := func(c int) tla.Value { return tla.ModelValue(sp.Clients[c]) }
	sess := func(x Session) tla.Value { return tla.Tuple{mv(x.C), tla.Int(x.K)} }
	uuid := func(u Uuid) tla.Value { return tla.Tuple{mv(u.C), tla.Int(u.R)} }
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
		nodes = append(nodes, tla.Record{{Name: "seq", Value: tla.Int(n.Seq)}, {Name: "owner", Value: sess(n.Owner)},
			{Name: "uuid", Value: uuid(n.Uuid)}, {Name: "czxid", Value: tla.Int(n.Czxid)}})
	}
	live := tla.Set{}
	for _, l := range s.Live {
		live = append(live, sess(l))
	}
	watches := tla.Set{}
	for _, w := range s.Watches {
		watches = append(watches, tla.Record{{Name: "node", Value: tla.Int(w.Node)}, {Name: "req", Value: uuid(w.Req)}})
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
		{Name: "sess", Value: ints(s.Sess)},
		{Name: "reqNo", Value: ints(s.ReqNo)},
		{Name: "node", Value: ints(s.Node)},
		{Name: "target", Value: ints(s.Target)},
		{Name: "soleBlocker", Value: perClient(func(c int) tla.Value { return tla.Bool(s.SoleBlocker[c]) })},
		{Name: "token", Value: ints(s.Token)},
		{Name: "tenure", Value: ints(s.Tenure)},
		{Name: "paused", Value: perClient(func(c int) tla.Value { return tla.Bool(s.Paused[c]) })},
		{Name: "faults", Value: tla.Int(s.Faults)},
		{Name: "grants", Value: tla.Int(s.Grants)},
		{Name: "lastToken", Value: tla.Int(s.LastToken)},
		{Name: "resHigh", Value: tla.Int(s.ResHigh)},
		{Name: "resTenure", Value: tla.Int(s.ResTenure)},
		{Name: "pending", Value: pending},
	}
}

// Format prints s as TLC prints a state: one "/\ variable = value" line
// per variable.
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
