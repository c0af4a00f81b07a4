// Package timedlock is the Go mirror of spec/tla/TimedLock.tla: time, the
// follower and the lock's nodes in one state space. As the module
// INSTANCEs SessionTiming and ZooKeeper, its State embeds a
// sessiontiming.State (the clock, the link, the follower's stream, the
// holder's requests) and a zk.Server (the leader's nodes and sessions),
// and every action that the module takes from SessionTiming calls the
// model/sessiontiming method of that name on the embedded state.
//
// Two clients: H (index 0) on the follower, C (index 1) on the leader.
// spec/tla/README.md ("TimedLock") is the contract.
package timedlock

import (
	"encoding/binary"
	"fmt"

	"github.com/zklock/zklock/model/sessiontiming"
	"github.com/zklock/zklock/model/timing"
	"github.com/zklock/zklock/model/tla"
	"github.com/zklock/zklock/model/zk"
)

// The clients' indices, and their sessions (each also the uuid of the
// client's one request).
const (
	H = 0
	C = 1
)

var (
	hSess = zk.Session{C: H, K: 1}
	cSess = zk.Session{C: C, K: 1}
	hUuid = zk.Uuid{C: H, R: 1}
	cUuid = zk.Uuid{C: C, R: 1}
)

// MaxSeq is the module's MaxSeq: one node each.
const MaxSeq = 2

// GrantRule is the value of the constant GrantRule.
type GrantRule string

// The grant rules.
const (
	// Checked: the grant checks the loss deadline (impl/zklock).
	Checked GrantRule = "checked"
	// Unchecked: the grant trusts the listing, however old.
	Unchecked GrantRule = "unchecked"
)

// Constants are the CONSTANTS of TimedLock: SessionTiming's, the names of
// the two clients' model values, and the grant rule.
type Constants struct {
	sessiontiming.Constants
	HName, CName string
	GrantRule    GrantRule
}

// Spec is the state machine with its constants; its Step, Next,
// ActionName and LabelString are its action table's.
type Spec struct {
	Constants
	timing.Actions[State]
	ST      *sessiontiming.Spec
	printer zk.Printer[zk.NoKind]
}

// New checks the constants (the modules' ASSUMEs) and returns the spec.
func New(k Constants) (*Spec, error) {
	st, err := sessiontiming.New(k.Constants)
	if err != nil {
		return nil, fmt.Errorf("timedlock: %w", err)
	}
	if k.GrantRule != Checked && k.GrantRule != Unchecked {
		return nil, fmt.Errorf("timedlock: GrantRule = %q: want %q or %q", k.GrantRule, Checked, Unchecked)
	}
	if k.HName == "" || k.CName == "" || k.HName == k.CName {
		return nil, fmt.Errorf("timedlock: the clients need two distinct names, got %q and %q", k.HName, k.CName)
	}
	sp := &Spec{Constants: k, ST: st, printer: zk.Printer[zk.NoKind]{Clients: []string{k.HName, k.CName}}}
	sp.Actions = sp.actions()
	return sp, nil
}

// HPC is H's step (hpc).
type HPC uint8

// H's steps.
const (
	HIdle HPC = iota
	HCreating
	HList
	HListing
	HGranting
	HHeld
	HDone
)

func (p HPC) String() string {
	return [...]string{"idle", "create", "list", "listing", "grant", "held", "done"}[p]
}

// Saw is what the follower's answer to H's listing showed (hsaw).
type Saw uint8

// The answers.
const (
	SawNone Saw = iota
	SawFirst
	SawBehind
	SawGone
)

func (w Saw) String() string { return [...]string{"none", "first", "behind", "gone"}[w] }

// CPC is C's step (cpc).
type CPC uint8

// C's steps.
const (
	CIdle CPC = iota
	CWait
	CHeld
	CDone
)

func (p CPC) String() string { return [...]string{"idle", "wait", "held", "done"}[p] }

// State is a state of TimedLock: SessionTiming's variables, ZooKeeper's,
// then H's and C's.
type State struct {
	ST        sessiontiming.State
	ZK        zk.Server[zk.NoKind]
	HPC       HPC
	HReq      int // index (1-based) in ST.Reqs of H's outstanding lock call; 0: none
	HSaw      Saw
	GrantLate bool
	CPC       CPC
}

// VarNames are the module's variables, in the order of its VARIABLES clause.
var VarNames = []string{"now", "heard", "link", "faults", "touched", "lastTouch", "expired", "granted", "reqs", "stream",
	"nodes", "nextSeq", "zxid", "live", "watches", "inbox", "pending", "hpc", "hreq", "hsaw", "grantLate", "cpc"}

// Init is the initial state (Init: SessionTiming's and ZooKeeper's).
func (sp *Spec) Init() State {
	return State{ST: sp.ST.Init(), ZK: zk.Init[zk.NoKind](2)}
}

// NodeOf returns client x's node (NodeOf(x)), and false if it has none.
func NodeOf(s *State, x int) (zk.Node[zk.NoKind], bool) {
	for _, n := range s.ZK.Nodes {
		if n.Owner.C == x {
			return n, true
		}
	}
	return zk.Node[zk.NoKind]{}, false
}

// nodesOf is NodeOf(x) as a set (a slice of at most one node).
func nodesOf(s *State, x int) []zk.Node[zk.NoKind] {
	if n, ok := NodeOf(s, x); ok {
		return []zk.Node[zk.NoKind]{n}
	}
	return nil
}

// First reports whether x's node is present with the lowest seq (First(x)).
func First(s *State, x int) bool {
	n, ok := NodeOf(s, x)
	// Nodes are sorted by seq: x is first if its node is the first one.
	return ok && s.ZK.Nodes[0] == n
}

// HHolds is H holding as its user sees it: granted, its loss deadline not
// passed.
func (sp *Spec) HHolds(s *State) bool { return s.HPC == HHeld && sp.ST.HBelieves(&s.ST) }

// CHolds is C holding.
func CHolds(s *State) bool { return s.CPC == CHeld }

// MutualExclusion: never do both clients hold as their users see it.
func (sp *Spec) MutualExclusion(s *State) bool { return !(sp.HHolds(s) && CHolds(s)) }

// NoGrantPastDeadline: no lease was handed out at or after its grantee's
// loss deadline.
func (sp *Spec) NoGrantPastDeadline(s *State) bool { return !s.GrantLate }

// LossBeforeExpiry is SessionTiming's premise, here with the nodes: once
// the leader expired H's session, H does not believe it alive.
func (sp *Spec) LossBeforeExpiry(s *State) bool { return sp.ST.LossBeforeExpiry(&s.ST) }

// StandIns: SessionTiming's expired and granted are what they stand for.
func (sp *Spec) StandIns(s *State) bool {
	return s.ST.Expired == !s.ZK.IsLive(hSess) && s.ST.Granted == (s.CPC == CHeld)
}

// TypeOK is the module's TypeOK: SessionTiming's with H's creates, then
// ZooKeeper's and the clients'.
func (sp *Spec) TypeOK(s *State) bool { return sp.TypeOKUpTo(s, sessiontiming.Create) }

// TypeOKUpTo is TypeOKKinds with the request kinds up to last:
// TimedElection's TypeOK is TimedLock's with its proclaims.
func (sp *Spec) TypeOKUpTo(s *State, last sessiontiming.Kind) bool {
	if !sp.ST.TypeOKUpTo(&s.ST, last) ||
		!s.ZK.TypeOK(zk.Bounds{Clients: 2, MaxSeq: MaxSeq, MaxFaults: 0, MaxRequests: 1}) {
		return false
	}
	return s.HPC <= HDone && timing.In(s.HReq, sp.MaxRequests) && s.HSaw <= SawGone && s.CPC <= CDone
}

// AppendEncoding appends the canonical encoding of s to b.
func (s *State) AppendEncoding(b []byte) []byte {
	b = s.ST.AppendEncoding(b)
	b = s.ZK.AppendEncoding(b)
	b = append(b, byte(s.HPC), byte(s.HSaw), byte(s.CPC))
	b = binary.AppendUvarint(b, uint64(s.HReq))
	return timing.AppendBool(b, s.GrantLate)
}

// TLA returns the state's variables as TLA+ values, in VarNames order.
func (sp *Spec) TLA(s *State) []tla.Binding {
	out := sp.ST.TLA(&s.ST)
	for _, name := range VarNames[len(out):] {
		v, ok := sp.printer.Binding(&s.ZK, name)
		if !ok {
			switch name {
			case "hpc":
				v = tla.Str(s.HPC.String())
			case "hreq":
				v = tla.Int(s.HReq)
			case "hsaw":
				v = tla.Str(s.HSaw.String())
			case "grantLate":
				v = tla.Bool(s.GrantLate)
			case "cpc":
				v = tla.Str(s.CPC.String())
			}
		}
		out = append(out, tla.Binding{Name: name, Value: v})
	}
	return out
}

// Format prints s as TLC prints a state.
func (sp *Spec) Format(s *State) string { return tla.FormatState(sp.TLA(s)) }
