// Package recipe holds the client side of ZooKeeper's lock recipe that
// spec/tla/PredecessorLock.tla and spec/tla/SharedLock.tla both spell out:
// the control states, the variables every client has (pc, sess, reqNo,
// node, target, soleBlocker, token, paused) and the fault budget, the
// operators over them (Sess(c), Uuid(c), Live(c), Abandoned(s), Idle(c)),
// and the properties whose text the two modules share (NoOrphans,
// KnownNodeExists, the sides of NoOrphansEventually and StarvationFree).
// The server those clients call is model/zk's. Clients, the part of State
// every recipe's clients have (Semaphore's too), carries the steps every
// recipe writes alike (LearnExpiry, PauseClient, ResumeClient).
//
// model/predlock and model/sharedlock embed State in theirs and add their
// own variables (PredecessorLock's tenure and history of grants,
// SharedLock's kind). K is the kind of a node name, as in model/zk.
package recipe

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/zklock/zklock/model/internal/cow"
	"github.com/zklock/zklock/model/tla"
	"github.com/zklock/zklock/model/zk"
)

// PC is a client's control state (spec: PCs).
type PC uint8

// The control states.
const (
	PCIdle   PC = iota // no request
	PCCreate           // about to create its lock node
	PCFind             // create's reply was lost: must find its node by uuid
	PCList             // about to list the children
	PCSecond           // chose target and second, about to getData+watch second (PredecessorLock only)
	PCWatch            // chose a node to watch (target), about to getData+watch it
	PCWait             // watch armed, waiting for a notification
	PCGrant            // nothing blocks it: about to hold
	PCHold             // believes it holds the lock
)

var pcNames = [...]string{"idle", "create", "find", "list", "second", "watch", "wait", "grant", "hold"}

// String returns the spec's name of the control state ("idle", ...).
func (p PC) String() string {
	if int(p) < len(pcNames) {
		return pcNames[p]
	}
	return "?"
}

// Acquiring reports whether p is in Acquiring (every value but "idle" and "hold").
func (p PC) Acquiring() bool { return p != PCIdle && p != PCHold }

// KnowsNode reports whether p is in KnowsNode ("list", "second", "watch", "wait", "grant", "hold").
func (p PC) KnowsNode() bool { return p >= PCList }

// Unbounded is the value of MaxSeq, MaxFaults or MaxRequests that stands
// for "no bound" when the model replays a trace (model/trace).
const Unbounded = math.MaxInt32

// Constants are the CONSTANTS both modules declare.
type Constants struct {
	// Clients are the client processes (model values), in TLC's order.
	Clients []string
	// MaxRequests bounds the lock requests of each client.
	MaxRequests int
	// MaxSeq bounds the parent's sequence counter: creates are disabled at
	// nextSeq = MaxSeq.
	MaxSeq int
	// MaxFaults is the budget of fault steps.
	MaxFaults int
	// WithExpiry: server-side session expiry and the client's loss timer.
	WithExpiry bool
	// WithReplyLoss: a create's reply may be lost.
	WithReplyLoss bool
	// WithPause: a client's process may pause (when, each module says).
	WithPause bool
	// WithCancel: a request's context may end while it acquires.
	WithCancel bool
	// AsyncDelete: Release and Cancel end the request at once and leave its
	// delete pending until DeleteLands (impl/zklock's background delete).
	AsyncDelete bool
}

// N returns the number of clients.
func (k *Constants) N() int { return len(k.Clients) }

// Check reports the first constant of k that is out of range; pkg names
// the package in the error.
func (k *Constants) Check(pkg string) error {
	switch {
	case len(k.Clients) == 0:
		return fmt.Errorf("%s: no clients", pkg)
	case len(k.Clients) > math.MaxInt16:
		return fmt.Errorf("%s: %d clients: too many", pkg, len(k.Clients))
	case k.MaxRequests < 0 || k.MaxSeq < 0 || k.MaxFaults < 0:
		return fmt.Errorf("%s: MaxRequests, MaxSeq and MaxFaults must be natural numbers", pkg)
	}
	seen := map[string]bool{}
	for _, c := range k.Clients {
		if seen[c] {
			return fmt.Errorf("%s: client %s listed twice", pkg, c)
		}
		seen[c] = true
	}
	return nil
}

// Bounds are the bounds the server's TypeOK reads.
func (k *Constants) Bounds() zk.Bounds {
	return zk.Bounds{Clients: k.N(), MaxSeq: k.MaxSeq, MaxFaults: k.MaxFaults, MaxRequests: k.MaxRequests}
}

// Fault is the guard of Fault in s: the budget is not spent.
func (k *Constants) Fault(faults int) bool { return faults < k.MaxFaults }

// State is the server and the variables every client of both modules
// has: a recipe's Clients, and the lock's target, second, soleBlocker and
// token. Per-client functions are slices indexed by client.
type State[K zk.Kind] struct {
	Clients[K, PC]
	Target []zk.Name[K] // name of the node watched or about to be, NoTarget if none
	// Second is the seq of the node two ahead that c also watches, NoNode
	// if none (PredecessorLock's second; SharedLock has no such variable
	// and leaves it NoNode).
	Second []int
	// SoleBlocker: Target was the only node that blocked ours at the
	// listing that chose it (spec: soleBlocker).
	SoleBlocker []bool
	Token       []int // lease token, 0 when not holding
}

// NoTarget is the target of a client that watches nothing: seq NoNode and
// the zero kind (PredecessorLock's NoNode, SharedLock's <<-1, "none">>).
func NoTarget[K zk.Kind]() zk.Name[K] { return zk.Name[K]{Seq: zk.NoNode} }

// Init is the initial state of the server and the clients (spec: Init).
func Init[K zk.Kind](n int) State[K] {
	s := State[K]{
		Clients:     NewClients[K, PC](n),
		Target:      make([]zk.Name[K], n),
		Second:      make([]int, n),
		SoleBlocker: make([]bool, n),
		Token:       make([]int, n),
	}
	for c := range n {
		s.Target[c] = NoTarget[K]()
		s.Second[c] = zk.NoNode
	}
	return s
}

// OwnNodeOf is OwnNodeExists(c): c's known node exists, owned by its
// current session, carrying its current request's uuid, and of the kind
// of c's request, kinds[c] (kinds nil: names carry no kind).
func (s *State[K]) OwnNodeOf(c int, kinds []K) bool {
	n, ok := s.NodeAt(s.Node[c])
	return ok && n.Owner == s.SessOf(c) && n.Uuid == s.UuidOf(c) && (kinds == nil || n.Kind == kinds[c])
}

// Idle is Idle(c) on t, but for the module's own variables: pc, node,
// target, soleBlocker and token reset.
func (t *State[K]) Idle(c int) {
	t.PC = cow.With(t.PC, c, PCIdle)
	t.Node = cow.With(t.Node, c, zk.NoNode)
	t.Target = cow.With(t.Target, c, NoTarget[K]())
	t.SetSecond(c, zk.NoNode)
	t.SetSoleBlocker(c, false)
	t.Token = cow.With(t.Token, c, 0)
}

// SetSecond sets second[c] in t, copying the slice only when the value
// changes (it is NoNode almost everywhere).
func (t *State[K]) SetSecond(c int, v int) {
	if t.Second[c] != v {
		t.Second = cow.With(t.Second, c, v)
	}
}

// SetSoleBlocker sets soleBlocker[c] in t, copying the slice only when
// the value changes (it is FALSE almost everywhere).
func (t *State[K]) SetSoleBlocker(c int, v bool) {
	if t.SoleBlocker[c] != v {
		t.SoleBlocker = cow.With(t.SoleBlocker, c, v)
	}
}

// AppendEncoding appends the canonical encoding of s to b: the server's
// (zk.Server.AppendEncoding), then the clients' variables (target kinds
// left out, as the server leaves out node kinds), then faults.
func (s *State[K]) AppendEncoding(b []byte) []byte {
	v := binary.AppendVarint
	b = s.Server.AppendEncoding(b)
	for c := range s.PC {
		b = append(b, byte(s.PC[c]), boolByte(s.SoleBlocker[c]), boolByte(s.Paused[c]))
		b = v(v(v(v(v(v(b, int64(s.Sess[c])), int64(s.ReqNo[c])), int64(s.Node[c])), int64(s.Target[c].Seq)), int64(s.Second[c])), int64(s.Token[c]))
	}
	return v(b, int64(s.Faults))
}

func boolByte(x bool) byte {
	if x {
		return 1
	}
	return 0
}

// TypeOK: the server's and the clients' variables have their types, kinds
// aside (a module whose names carry a kind checks them).
func (s *State[K]) TypeOK(k *Constants) bool {
	b := k.Bounds()
	n := k.N()
	if !s.Server.TypeOK(b) || len(s.PC) != n || len(s.Sess) != n || len(s.ReqNo) != n || len(s.Node) != n ||
		len(s.Target) != n || len(s.Second) != n || len(s.SoleBlocker) != n || len(s.Token) != n || len(s.Paused) != n {
		return false
	}
	for c := range n {
		tg := s.Target[c]
		if s.PC[c] > PCHold || s.Sess[c] < 1 || s.Sess[c] > k.MaxFaults+1 ||
			s.ReqNo[c] < 0 || s.ReqNo[c] > k.MaxRequests ||
			!(b.Seq(s.Node[c]) || s.Node[c] == zk.NoNode) ||
			!(b.Seq(tg.Seq) || tg == NoTarget[K]()) || !(b.Seq(s.Second[c]) || s.Second[c] == zk.NoNode) || s.Token[c] < 0 {
			return false
		}
	}
	return s.Faults >= 0 && s.Faults <= k.MaxFaults
}

// Binding returns the variable name of s as a TLA+ value, if it is one of
// the server's or the clients' variables here.
func (s *State[K]) Binding(p zk.Printer[K], name string) (tla.Value, bool) {
	switch name {
	case "target":
		return p.PerClient(func(c int) tla.Value { return p.Name(s.Target[c]) }), true
	case "second":
		return p.Ints(s.Second), true
	case "soleBlocker":
		return p.Bools(s.SoleBlocker), true
	case "token":
		return p.Ints(s.Token), true
	}
	return s.Clients.Binding(p, name)
}
