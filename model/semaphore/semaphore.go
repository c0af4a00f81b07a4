// Package semaphore is the Go mirror of spec/tla/Semaphore.tla, the fenced
// counting semaphore of Apache Curator's InterProcessSemaphoreV2 that
// zklock's Semaphore follows: an internal mutex (abstracted as an atomic
// lock held by a session), lease nodes under the leases parent counted
// after the create, and one waiter at a time on the leases' child watch;
// and of its mutants NoInternalLock (kazoo's order without the mutex),
// Herd (no internal mutex) and BlindRetry (a lost create retried blindly),
// each a constant of the module.
//
// Every variable of the spec is a field of State, every action a method
// with the action's name, every property a method with the property's
// name. The server's variables and steps are model/zk's, the constants
// the lock specs share are model/recipe's. States are built copy-on-write
// (model/internal/cow) and encoded canonically (State.AppendEncoding).
package semaphore

import (
	"encoding/binary"
	"fmt"

	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/tla"
	"github.com/zklock/zklock/model/zk"
)

// NoNode is the seq of "no lease node known" (spec: NoNode).
const NoNode = zk.NoNode

// Node is a lease node [seq, owner, uuid, czxid].
type Node = zk.Node[zk.NoKind]

// Watch is an armed one-shot watch [node, req] (node: a seq or Parent).
type Watch = zk.Watch[zk.NoKind]

// NoSession is the value of mutex when nobody holds the internal mutex
// (spec: NoSession == <<>>).
var NoSession = zk.Session{C: -1}

// Constants are the CONSTANTS of Semaphore. Of recipe.Constants it reads
// Clients, MaxRequests, MaxSeq, MaxFaults, WithExpiry, WithReplyLoss,
// WithCancel and WithPause (a holder's process may pause); AsyncDelete
// stays false (deletes land in the step that sends them).
type Constants struct {
	recipe.Constants
	// MaxLeases is the semaphore's maximum number of holders.
	MaxLeases int
	// InternalLock: acquirers hold the internal mutex from AcquireInternal
	// to ReleaseInternal (false: the mutants Herd and NoInternalLock).
	InternalLock bool
	// CountFirst: kazoo's order, list the leases first and create only
	// when fewer than MaxLeases exist (the mutant NoInternalLock).
	CountFirst bool
	// BlindRetry: a lost create reply is retried by creating again.
	BlindRetry bool
}

// Spec is the state machine of the module with its constants.
type Spec struct {
	Constants
	// Outsider names the owner of an outsider's node (client index -1) in
	// printed states: the Stranger of SemaphoreForeign (model/semforeign),
	// which extends this module; "" otherwise.
	Outsider string
}

// New checks the constants and returns the Spec.
func New(k Constants) (*Spec, error) {
	if err := k.Check("semaphore"); err != nil {
		return nil, err
	}
	if k.MaxLeases < 1 {
		return nil, fmt.Errorf("semaphore: MaxLeases must be at least 1")
	}
	if k.AsyncDelete {
		return nil, fmt.Errorf("semaphore: the module has no asynchronous deletes")
	}
	return &Spec{Constants: k}, nil
}

// PC is a client's control state (spec: PCs).
type PC uint8

// The control states.
const (
	PCIdle    PC = iota // no acquisition
	PCCreate            // about to create its lease node
	PCFind              // the create's reply was lost: find the node by uuid
	PCList              // about to list the leases (with a child watch)
	PCWait              // too many leases: waiting for the child watch
	PCRelease           // the lease is held: about to release the internal mutex
	PCHold              // holds a lease
)

var pcNames = [...]string{"idle", "create", "find", "list", "wait", "release", "hold"}

// String returns the spec's name of the control state.
func (p PC) String() string {
	if int(p) < len(pcNames) {
		return pcNames[p]
	}
	return "?"
}

// Acquiring reports whether p is in Acquiring ("create", "find", "list", "wait").
func (p PC) Acquiring() bool { return p >= PCCreate && p <= PCWait }

// HoldsLease reports whether p is a holder's ("release", "hold").
func (p PC) HoldsLease() bool { return p == PCRelease || p == PCHold }

// State is one state of the spec: its variables, the server's and the
// clients' those of every recipe (recipe.Clients), then mutex.
type State struct {
	recipe.Clients[zk.NoKind, PC]
	// Mutex is the session holding the internal mutex, NoSession if none.
	Mutex zk.Session
}

// VarNames are the spec's variables, in the order of the VARIABLES clause.
var VarNames = []string{"nodes", "nextSeq", "zxid", "live", "watches", "inbox", "pending",
	"pc", "sess", "reqNo", "node", "paused", "mutex", "faults"}

// Init is the initial state (spec: Init).
func (sp *Spec) Init() State {
	return State{Clients: recipe.NewClients[zk.NoKind, PC](sp.N()), Mutex: NoSession}
}

// OwnLeaseExists: c's known lease node exists, owned by its session and
// carrying its acquisition's uuid (spec: OwnLeaseExists(c)).
func (s *State) OwnLeaseExists(c int) bool {
	n, ok := s.NodeAt(s.Node[c])
	return ok && n.Owner == s.SessOf(c) && n.Uuid == s.UuidOf(c)
}

// AppendEncoding appends the canonical encoding of s to b: the server's
// variables, then each client's, then mutex and faults.
func (s *State) AppendEncoding(b []byte) []byte {
	v := binary.AppendVarint
	b = s.Server.AppendEncoding(b)
	for c := range s.PC {
		b = append(b, byte(s.PC[c]), boolByte(s.Paused[c]))
		b = v(v(v(b, int64(s.Sess[c])), int64(s.ReqNo[c])), int64(s.Node[c]))
	}
	return v(v(v(b, int64(s.Mutex.C)), int64(s.Mutex.K)), int64(s.Faults))
}

// TypeOK: the variables have their types (spec: TypeOK).
func (sp *Spec) TypeOK(s *State) bool {
	b, n := sp.Bounds(), sp.N()
	if !s.Server.TypeOK(b) || len(s.PC) != n || len(s.Sess) != n || len(s.ReqNo) != n || len(s.Node) != n ||
		len(s.Paused) != n {
		return false
	}
	for c := range n {
		if s.PC[c] > PCHold || s.Sess[c] < 1 || s.Sess[c] > sp.MaxFaults+1 ||
			s.ReqNo[c] < 0 || s.ReqNo[c] > sp.MaxRequests || !(b.Seq(s.Node[c]) || s.Node[c] == NoNode) {
			return false
		}
	}
	return (s.Mutex == NoSession || b.Session(s.Mutex)) && s.Faults >= 0 && s.Faults <= sp.MaxFaults
}

// TLA returns the state's variables as TLA+ values, in VarNames order,
// the way TLC prints them.
func (sp *Spec) TLA(s *State) []tla.Binding {
	p := zk.Printer[zk.NoKind]{Clients: sp.Clients, Outsider: sp.Outsider}
	return zk.Bindings(VarNames, func(name string) (tla.Value, bool) {
		if name != "mutex" {
			return s.Clients.Binding(p, name)
		}
		if s.Mutex == NoSession {
			return tla.Tuple{}, true
		}
		return p.Session(s.Mutex), true
	})
}

func boolByte(x bool) byte {
	if x {
		return 1
	}
	return 0
}

// Format prints s as TLC prints a state.
func (sp *Spec) Format(s *State) string { return zk.Format(sp.TLA(s)) }
