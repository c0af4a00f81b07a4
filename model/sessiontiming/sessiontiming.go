// Package sessiontiming is the Go mirror of spec/tla/SessionTiming.tla:
// abstract discrete time, a holder on a follower, a contender on the
// leader, pings, forwarded touches on the follower's stream to the leader,
// syncs, the leader's session expiry and the client's loss rule. It decides which loss rule keeps a holder from
// believing it holds the lock after the contender is granted.
//
// Every variable of the spec is a field of State, every action a method of
// Spec with the action's name, the invariants methods with the
// properties' names. spec/tla/README.md is the contract.
package sessiontiming

import (
	"encoding/binary"
	"fmt"

	"github.com/zklock/zklock/model/timing"
	"github.com/zklock/zklock/model/tla"
)

// Rule is the value of the constant Rule.
type Rule string

// The loss rules.
const (
	// Today: every acknowledged request restarts the loss clock.
	Today Rule = "today"
	// Lagged: only requests acknowledged Lag ticks before the newest
	// acknowledged send time restart it.
	Lagged Rule = "lagged"
	// Synced: only requests acknowledged Lag ticks before the send time
	// of an acknowledged sync restart it.
	Synced Rule = "synced"
)

// Constants are the CONSTANTS of SessionTiming.
type Constants struct {
	Timeout, SyncLimit, Drift, Lag  int
	Rule                            Rule
	MaxTime, MaxRequests, MaxFaults int
}

// Spec is the state machine with its constants; its Step, Next,
// ActionName and LabelString are its action table's.
type Spec struct {
	Constants
	timing.Actions[State]
}

// New checks the constants (the module's ASSUME) and returns the spec.
func New(k Constants) (*Spec, error) {
	for _, n := range []int{k.Timeout, k.SyncLimit, k.Drift, k.Lag, k.MaxTime, k.MaxRequests, k.MaxFaults} {
		if n < 0 {
			return nil, fmt.Errorf("sessiontiming: a constant is negative: %+v", k)
		}
	}
	if k.Rule != Today && k.Rule != Lagged && k.Rule != Synced {
		return nil, fmt.Errorf("sessiontiming: Rule = %q: want %q, %q or %q", k.Rule, Today, Lagged, Synced)
	}
	sp := &Spec{Constants: k}
	sp.Actions = sp.actions()
	return sp, nil
}

// ReqState is a request's state.
type ReqState uint8

// The request states (spec: ReqStates).
const (
	Sent      ReqState = iota // in flight to the follower
	Forwarded                 // a sync in the follower's stream to the leader
	Replied                   // answered, the reply in flight
	Acked                     // the reply arrived
)

func (r ReqState) String() string { return [...]string{"sent", "forwarded", "replied", "acked"}[r] }

// Kind is a request's kind (spec: Kinds).
type Kind uint8

// The request kinds.
const (
	Read Kind = iota // a ping or a read: the follower answers it
	Sync             // a sync: the follower forwards it to the leader
	// Create is a lock node's create: the follower forwards it to the
	// leader like a sync, but the loss rule counts its acknowledgement as
	// a read's (impl/zklock's clock counts only syncs as proof). Not in
	// Kinds: only TimedLock, which INSTANCEs SessionTiming, sends it.
	Create
	// Proclaim is an election leader's setData in a multi with
	// check(own node): forwarded and counted as a create is. Not in
	// Kinds: only TimedElection sends it.
	Proclaim
)

// Kinds are the kinds in the order TLC enumerates the set Kinds.
var Kinds = []Kind{Read, Sync}

func (k Kind) String() string { return [...]string{"read", "sync", "create", "proclaim"}[k] }

// Req is one of the holder's requests.
type Req struct {
	Sent  int
	Kind  Kind
	State ReqState
	Acked int
}

// PingReply is the stream entry of a ping reply carrying touches; any
// other entry i > 0 is the sync reqs[i] (1-based).
const PingReply = 0

// State is a state of SessionTiming; fields in the VARIABLES order.
type State struct {
	Now       int
	Heard     int
	Link      bool
	Faults    int
	Touched   bool
	LastTouch int
	Expired   bool
	Granted   bool
	// Reqs and Stream are shared between states: never written in place.
	Reqs []Req
	// Stream is the follower's TCP stream to the leader, oldest first.
	Stream []int
}

// VarNames are the spec's variables, in the order of the VARIABLES clause.
var VarNames = []string{"now", "heard", "link", "faults", "touched", "lastTouch", "expired", "granted", "reqs", "stream"}

// Init is the initial state (spec: Init).
func (sp *Spec) Init() State { return State{Link: true} }

// Deadline is the spec's Deadline: the holder's loss deadline under the
// rule, computed by LossDeadline with the session's creation at 0.
func (sp *Spec) Deadline(s *State) int {
	var acks []Ack
	for _, r := range s.Reqs {
		if r.State == Acked {
			acks = append(acks, Ack{Sent: int64(r.Sent), Acked: int64(r.Acked), Sync: r.Kind == Sync})
		}
	}
	return int(LossDeadline(sp.Rule, 0, acks, int64(sp.Timeout), int64(sp.Drift), int64(sp.Lag)))
}

// HBelieves is the spec's HBelieves: the holder's deadline has not passed.
func (sp *Spec) HBelieves(s *State) bool { return s.Now < sp.Deadline(s) }

// Serving is the spec's Serving: the follower answers requests.
func (sp *Spec) Serving(s *State) bool { return s.Now <= s.Heard+sp.SyncLimit }

// AppendEncoding appends the canonical encoding of s to b: every variable
// in order, integers as zig-zag varints, reqs and stream prefixed by their
// lengths.
func (s *State) AppendEncoding(b []byte) []byte {
	v := binary.AppendVarint
	b = v(v(b, int64(s.Now)), int64(s.Heard))
	b = timing.AppendBool(b, s.Link)
	b = v(b, int64(s.Faults))
	b = timing.AppendBool(b, s.Touched)
	b = v(b, int64(s.LastTouch))
	b = timing.AppendBool(timing.AppendBool(b, s.Expired), s.Granted)
	b = binary.AppendUvarint(b, uint64(len(s.Reqs)))
	for _, r := range s.Reqs {
		b = append(v(v(b, int64(r.Sent)), int64(r.Acked)), byte(r.State), byte(r.Kind))
	}
	b = binary.AppendUvarint(b, uint64(len(s.Stream)))
	for _, e := range s.Stream {
		b = binary.AppendUvarint(b, uint64(e))
	}
	return b
}

// TLA returns the state's variables as TLA+ values, in VarNames order.
func (sp *Spec) TLA(s *State) []tla.Binding {
	reqs := tla.Tuple{}
	for _, r := range s.Reqs {
		reqs = append(reqs, tla.Record{{Name: "sent", Value: tla.Int(r.Sent)},
			{Name: "acked", Value: tla.Int(r.Acked)}, {Name: "state", Value: tla.Str(r.State.String())},
			{Name: "kind", Value: tla.Str(r.Kind.String())}})
	}
	stream := tla.Tuple{}
	for _, e := range s.Stream {
		stream = append(stream, tla.Int(e))
	}
	return []tla.Binding{
		{Name: "now", Value: tla.Int(s.Now)},
		{Name: "heard", Value: tla.Int(s.Heard)},
		{Name: "link", Value: tla.Bool(s.Link)},
		{Name: "faults", Value: tla.Int(s.Faults)},
		{Name: "touched", Value: tla.Bool(s.Touched)},
		{Name: "lastTouch", Value: tla.Int(s.LastTouch)},
		{Name: "expired", Value: tla.Bool(s.Expired)},
		{Name: "granted", Value: tla.Bool(s.Granted)},
		{Name: "reqs", Value: reqs},
		{Name: "stream", Value: stream},
	}
}

// Format prints s as TLC prints a state.
func (sp *Spec) Format(s *State) string { return tla.FormatState(sp.TLA(s)) }

// TypeOK is the spec's TypeOK.
func (sp *Spec) TypeOK(s *State) bool { return sp.TypeOKUpTo(s, Sync) }

// TypeOKUpTo is TypeOK with the request kinds up to last: TimedLock's
// TypeOK is SessionTiming's with its creates (Kinds \cup {"create"}).
func (sp *Spec) TypeOKUpTo(s *State, last Kind) bool {
	in := timing.In
	if !in(s.Now, sp.MaxTime) || !in(s.Heard, sp.MaxTime) || !in(s.LastTouch, sp.MaxTime) ||
		!in(s.Faults, sp.MaxFaults) || len(s.Reqs) > sp.MaxRequests {
		return false
	}
	for _, r := range s.Reqs {
		if r.State > Acked || r.Kind > last || !in(r.Sent, sp.MaxTime) || !in(r.Acked, sp.MaxTime) {
			return false
		}
	}
	for _, e := range s.Stream {
		if !in(e, len(s.Reqs)) {
			return false
		}
	}
	return true
}

// HolderLosesFirst is the invariant: never does the contender hold the
// lock while the holder still believes it holds it.
func (sp *Spec) HolderLosesFirst(s *State) bool { return !s.Granted || !sp.HBelieves(s) }

// LossBeforeExpiry is the premise the lock specs take as given: when the
// leader expires the holder's session, the holder has already stopped
// believing it holds.
func (sp *Spec) LossBeforeExpiry(s *State) bool { return !s.Expired || !sp.HBelieves(s) }

// NeverRenewed is the witness expected to be violated: the holder never
// believes past the deadline its session's creation alone gives it.
func (sp *Spec) NeverRenewed(s *State) bool { return !sp.HBelieves(s) || s.Now < sp.Timeout-sp.Drift }
