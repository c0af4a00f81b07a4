// Package ownwatch is the Go mirror of spec/tla/OwnWatch.tla: a holder's
// one watch on its own lock node (ArmOwnWatch, LearnNodeGone), guarded
// writes (GuardSend, GuardLands, GuardReply), and an outsider who deletes
// or replaces any node (ForeignDelete, ForeignReplace: ZooKeeper.tla's
// operators of those names). The server is model/zk's; the outsider's node
// is owned by the session Outsider, which is none of the clients'.
// spec/tla/README.md ("OwnWatch") is the contract.
package ownwatch

import (
	"encoding/binary"
	"fmt"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/internal/cow"
	"github.com/zklock/zklock/model/timing"
	"github.com/zklock/zklock/model/tla"
	"github.com/zklock/zklock/model/zk"
)

// Outsider is the session <<Stranger, 0>> that owns a replacement node,
// and its uuid: client index -1, which no client has.
var (
	Outsider     = zk.Session{C: -1, K: 0}
	OutsiderUuid = zk.Uuid{C: -1, R: 0}
)

// Constants are the CONSTANTS of OwnWatch.
type Constants struct {
	Clients                         []string // model values, in TLC's order
	MaxRequests, MaxSeq, MaxForeign int
	WatchOwn                        bool
	Stranger                        string // the outsider's model value
}

// Spec is the state machine with its constants.
type Spec struct {
	Constants
	printer zk.Printer[zk.NoKind]
}

// New checks the constants (the module's ASSUME) and returns the spec.
func New(k Constants) (*Spec, error) {
	if len(k.Clients) == 0 || k.Stranger == "" {
		return nil, fmt.Errorf("ownwatch: want clients and a stranger, got %v and %q", k.Clients, k.Stranger)
	}
	if k.MaxRequests < 0 || k.MaxSeq < 0 || k.MaxForeign < 0 {
		return nil, fmt.Errorf("ownwatch: MaxRequests, MaxSeq and MaxForeign must be natural numbers")
	}
	return &Spec{Constants: k, printer: zk.Printer[zk.NoKind]{Clients: k.Clients}}, nil
}

// PC is a client's control state (pc).
type PC uint8

// The control states.
const (
	Idle PC = iota
	List
	Wait
	Hold
)

// String is the control state as the spec writes it.
func (p PC) String() string { return [...]string{"idle", "list", "wait", "hold"}[p] }

// GW is a client's guarded write (gw).
type GW uint8

// The guarded write's states.
const (
	None GW = iota
	Sent
	Ours
	Theirs
	Failed
)

// String is the guarded write's state as the spec writes it.
func (g GW) String() string { return [...]string{"none", "sent", "ours", "theirs", "failed"}[g] }

// State is a state of OwnWatch: ZooKeeper's variables, then the clients',
// then the outsider's budget and the history. Per-client slices are
// shared between states: never written in place.
type State struct {
	ZK      zk.Server[zk.NoKind]
	PC      []PC
	ReqNo   []int
	Node    []int
	Armed   []bool
	GW      []GW
	GSeq    []int
	Foreign int
	FalseOk bool
}

// VarNames are the module's variables, in the order of its VARIABLES clause.
var VarNames = []string{"nodes", "nextSeq", "zxid", "live", "watches", "inbox", "pending",
	"pc", "reqNo", "node", "armed", "gw", "gseq", "foreign", "falseOk"}

// N is the number of clients.
func (sp *Spec) N() int { return len(sp.Clients) }

// Init is the initial state.
func (sp *Spec) Init() State {
	n := sp.N()
	s := State{ZK: zk.Init[zk.NoKind](n), PC: make([]PC, n), ReqNo: make([]int, n), Node: make([]int, n),
		Armed: make([]bool, n), GW: make([]GW, n), GSeq: make([]int, n)}
	for c := range n {
		s.Node[c], s.GSeq[c] = zk.NoNode, zk.NoNode
	}
	return s
}

func sess(c int) zk.Session        { return zk.Session{C: c, K: 1} }
func uuid(s *State, c int) zk.Uuid { return zk.Uuid{C: c, R: s.ReqNo[c]} }

// OwnNodeExists is OwnNodeExists(c).
func OwnNodeExists(s *State, c int) bool {
	for _, n := range s.ZK.Nodes {
		if n.Seq == s.Node[c] && n.Owner == sess(c) && n.Uuid == uuid(s, c) {
			return true
		}
	}
	return false
}

// named is Named(q): the nodes of sequence number q (at most one).
func named(s *State, q int) []zk.Node[zk.NoKind] {
	for _, n := range s.ZK.Nodes {
		if n.Seq == q {
			return []zk.Node[zk.NoKind]{n}
		}
	}
	return nil
}

// ownEvent is OwnEvent(c).
func ownEvent(s *State, c int) zk.Watch[zk.NoKind] {
	return zk.Watch[zk.NoKind]{Node: zk.Name[zk.NoKind]{Seq: s.Node[c]}, Req: uuid(s, c)}
}

// Notified is Notified(c): the event of c's own node is pending.
func Notified(s *State, c int) bool {
	e := ownEvent(s, c)
	for _, w := range s.ZK.Inbox[c] {
		if w == e {
			return true
		}
	}
	return false
}

// Stale is Stale(c): Notified(c) or ArmingPending(c).
func (sp *Spec) Stale(s *State, c int) bool {
	return Notified(s, c) || (sp.WatchOwn && s.PC[c] == Hold && !s.Armed[c])
}

// MutualExclusion is the invariant of that name.
func (sp *Spec) MutualExclusion(s *State) bool {
	for c := range sp.N() {
		for d := range sp.N() {
			if c != d && s.PC[c] == Hold && s.PC[d] == Hold && OwnNodeExists(s, c) && OwnNodeExists(s, d) {
				return false
			}
		}
	}
	return true
}

// BelievesOnlyWhileNotified is the invariant of that name.
func (sp *Spec) BelievesOnlyWhileNotified(s *State) bool {
	for c := range sp.N() {
		if s.PC[c] == Hold && !OwnNodeExists(s, c) && !sp.Stale(s, c) {
			return false
		}
	}
	return true
}

// BeliefExclusion is the invariant of that name.
func (sp *Spec) BeliefExclusion(s *State) bool {
	for c := range sp.N() {
		for d := range sp.N() {
			if c != d && s.PC[c] == Hold && s.PC[d] == Hold && !sp.Stale(s, c) && !sp.Stale(s, d) {
				return false
			}
		}
	}
	return true
}

// GuardNeverLies is the invariant of that name.
func (sp *Spec) GuardNeverLies(s *State) bool { return !s.FalseOk }

// TypeOK is the module's TypeOK.
func (sp *Spec) TypeOK(s *State) bool {
	var mine []zk.Node[zk.NoKind]
	for _, n := range s.ZK.Nodes {
		switch {
		case n.Owner == Outsider && n.Uuid == OutsiderUuid:
			if n.Seq < 0 || n.Seq > sp.MaxSeq || n.Czxid < 0 {
				return false
			}
		default:
			mine = append(mine, n)
		}
	}
	server := s.ZK
	server.Nodes = mine
	if !server.TypeOK(zk.Bounds{Clients: sp.N(), MaxSeq: sp.MaxSeq, MaxFaults: 0, MaxRequests: sp.MaxRequests}) {
		return false
	}
	for c := range sp.N() {
		if s.PC[c] > Hold || !timing.In(s.ReqNo[c], sp.MaxRequests) || s.GW[c] > Failed ||
			!(s.Node[c] == zk.NoNode || timing.In(s.Node[c], sp.MaxSeq)) ||
			!(s.GSeq[c] == zk.NoNode || timing.In(s.GSeq[c], sp.MaxSeq)) {
			return false
		}
	}
	return timing.In(s.Foreign, sp.MaxForeign)
}

// Invariants is the module's table of invariants, by name.
func (sp *Spec) Invariants() map[string]func(*State) bool {
	return map[string]func(*State) bool{
		"TypeOK": sp.TypeOK, "MutualExclusion": sp.MutualExclusion,
		"BelievesOnlyWhileNotified": sp.BelievesOnlyWhileNotified,
		"BeliefExclusion":           sp.BeliefExclusion, "GuardNeverLies": sp.GuardNeverLies,
	}
}

// AppendEncoding appends the canonical encoding of s to b.
func (s *State) AppendEncoding(b []byte) []byte {
	b = s.ZK.AppendEncoding(b)
	for c := range s.PC {
		b = append(b, byte(s.PC[c]), byte(s.GW[c]))
		b = binary.AppendVarint(binary.AppendVarint(binary.AppendVarint(b, int64(s.ReqNo[c])), int64(s.Node[c])), int64(s.GSeq[c]))
		b = timing.AppendBool(b, s.Armed[c])
	}
	return timing.AppendBool(binary.AppendUvarint(b, uint64(s.Foreign)), s.FalseOk)
}

// party is a session or uuid's first element: a client, or the stranger.
func (sp *Spec) party(c int) tla.Value {
	if c < 0 {
		return tla.ModelValue(sp.Stranger)
	}
	return sp.printer.Client(c)
}

// node prints a node record, the outsider's included.
func (sp *Spec) node(n zk.Node[zk.NoKind]) tla.Value {
	return tla.Record{{Name: "seq", Value: tla.Int(n.Seq)},
		{Name: "owner", Value: tla.Tuple{sp.party(n.Owner.C), tla.Int(n.Owner.K)}},
		{Name: "uuid", Value: tla.Tuple{sp.party(n.Uuid.C), tla.Int(n.Uuid.R)}},
		{Name: "czxid", Value: tla.Int(n.Czxid)}}
}

// TLA returns the state's variables as TLA+ values, in VarNames order.
func (sp *Spec) TLA(s *State) []tla.Binding {
	p := sp.printer
	return zk.Bindings(VarNames, func(name string) (tla.Value, bool) {
		switch name {
		case "nodes":
			set := tla.Set{}
			for _, n := range s.ZK.Nodes {
				set = append(set, sp.node(n))
			}
			return set, true
		case "pc":
			return p.PerClient(func(c int) tla.Value { return tla.Str(s.PC[c].String()) }), true
		case "reqNo":
			return p.Ints(s.ReqNo), true
		case "node":
			return p.Ints(s.Node), true
		case "armed":
			return p.Bools(s.Armed), true
		case "gw":
			return p.PerClient(func(c int) tla.Value { return tla.Str(s.GW[c].String()) }), true
		case "gseq":
			return p.Ints(s.GSeq), true
		case "foreign":
			return tla.Int(s.Foreign), true
		case "falseOk":
			return tla.Bool(s.FalseOk), true
		}
		return p.Binding(&s.ZK, name)
	})
}

// Format prints s as TLC prints a state.
func (sp *Spec) Format(s *State) string { return zk.Format(sp.TLA(s)) }

// idle is Idle(c) on t.
func idle(t *State, c int) {
	t.PC = cow.With(t.PC, c, Idle)
	t.Node = cow.With(t.Node, c, zk.NoNode)
	t.Armed = cow.With(t.Armed, c, false)
}

var _ model.Machine[State] = (*Spec)(nil)
