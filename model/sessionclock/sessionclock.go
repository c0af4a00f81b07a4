// Package sessionclock is the Go mirror of spec/tla/SessionClock.tla: the
// loss deadline against a client clock that may stop while the machine is
// suspended, and reattaches that renegotiate the session timeout while a
// new leader re-arms the session with the timeout createSession stored.
//
// Every variable of the spec is a field of State, every action a method of
// Spec with the action's name, the invariants methods with the
// properties' names. spec/tla/README.md is the contract.
package sessionclock

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/zklock/zklock/model/timing"
	"github.com/zklock/zklock/model/tla"
)

// Clock is the value of the constant Clock.
type Clock string

// The client clocks.
const (
	// Monotonic stops while the machine is suspended (Linux
	// CLOCK_MONOTONIC, Go's monotonic clock).
	Monotonic Clock = "monotonic"
	// Boottime counts the time suspended (Linux CLOCK_BOOTTIME).
	Boottime Clock = "boottime"
)

// Rule is the value of the constant Rule: the timeout the deadline counts.
type Rule string

// The timeout rules.
const (
	// Smallest: the smallest timeout negotiated in the session's life.
	Smallest Rule = "smallest"
	// Latest: the timeout the latest connection negotiated.
	Latest Rule = "latest"
)

// Constants are the CONSTANTS of SessionClock.
type Constants struct {
	Created  int
	Timeouts []int // increasing, as TLC enumerates the set
	Shorter  bool
	Drift    int
	Clock    Clock
	Rule     Rule
	Healthy  bool
	Beat     int

	MaxTime, MaxSuspend, MaxReattaches, MaxLeaderChanges int
}

// Spec is the state machine with its constants; its Step, Next,
// ActionName and LabelString are its action table's.
type Spec struct {
	Constants
	timing.Actions[State]
}

// New checks the constants (the module's ASSUME) and returns the spec.
func New(k Constants) (*Spec, error) {
	for _, n := range append([]int{k.Created, k.Drift, k.Beat, k.MaxTime, k.MaxSuspend, k.MaxReattaches, k.MaxLeaderChanges}, k.Timeouts...) {
		if n < 0 {
			return nil, fmt.Errorf("sessionclock: a constant is negative: %+v", k)
		}
	}
	if k.Clock != Monotonic && k.Clock != Boottime {
		return nil, fmt.Errorf("sessionclock: Clock = %q: want %q or %q", k.Clock, Monotonic, Boottime)
	}
	if k.Rule != Smallest && k.Rule != Latest {
		return nil, fmt.Errorf("sessionclock: Rule = %q: want %q or %q", k.Rule, Smallest, Latest)
	}
	k.Timeouts = slices.Compact(slices.Sorted(slices.Values(k.Timeouts)))
	sp := &Spec{Constants: k}
	sp.Actions = sp.actions()
	return sp, nil
}

// Kind is the kind of the request in flight.
type Kind uint8

// The request kinds (spec: req.kind).
const (
	None     Kind = iota // no request in flight
	Sync                 // the heartbeat's sync
	Reattach             // a reconnect's revalidation of the session
)

func (k Kind) String() string { return [...]string{"none", "sync", "reattach"}[k] }

// Req is the request in flight (spec: req).
type Req struct {
	Kind    Kind
	Sent    int // on the client's clock
	T       int // a reattach's negotiated timeout
	Touched bool
}

// State is a state of SessionClock; fields in the VARIABLES order.
type State struct {
	Now, CNow                     int
	Suspended, Reattaches, Elects int
	Cur, Least, Armed             int
	LastTouch                     int
	Expired                       bool
	Base                          int
	Req                           Req
}

// VarNames are the spec's variables, in the order of the VARIABLES clause.
var VarNames = []string{"now", "cnow", "suspended", "reattaches", "elections", "cur", "least", "armed",
	"lastTouch", "expired", "base", "req"}

// Init is the initial state (spec: Init).
func (sp *Spec) Init() State {
	return State{Cur: sp.Created, Least: sp.Created, Armed: sp.Created}
}

// RuleTimeout is the timeout the rule counts the deadline from.
func (sp *Spec) RuleTimeout(s *State) int {
	if sp.Rule == Smallest {
		return s.Least
	}
	return s.Cur
}

// Deadline is the spec's Deadline, on the client's clock.
func (sp *Spec) Deadline(s *State) int { return s.Base + sp.RuleTimeout(s) - sp.Drift }

// HBelieves is the spec's HBelieves.
func (sp *Spec) HBelieves(s *State) bool { return s.CNow < sp.Deadline(s) }

// Paced is the spec's Paced: under Healthy, time passes only with no
// request in flight and a proof younger than Beat.
func (sp *Spec) Paced(s *State) bool {
	return !sp.Healthy || (s.Req.Kind == None && s.CNow+1-s.Base <= sp.Beat)
}

// AppendEncoding appends the canonical encoding of s to b.
func (s *State) AppendEncoding(b []byte) []byte {
	v := binary.AppendVarint
	for _, n := range []int{s.Now, s.CNow, s.Suspended, s.Reattaches, s.Elects, s.Cur, s.Least, s.Armed, s.LastTouch} {
		b = v(b, int64(n))
	}
	b = timing.AppendBool(b, s.Expired)
	b = v(b, int64(s.Base))
	b = append(b, byte(s.Req.Kind))
	b = v(v(b, int64(s.Req.Sent)), int64(s.Req.T))
	return timing.AppendBool(b, s.Req.Touched)
}

// TLA returns the state's variables as TLA+ values, in VarNames order.
func (sp *Spec) TLA(s *State) []tla.Binding {
	req := tla.Record{{Name: "kind", Value: tla.Str(s.Req.Kind.String())}, {Name: "sent", Value: tla.Int(s.Req.Sent)},
		{Name: "t", Value: tla.Int(s.Req.T)}, {Name: "touched", Value: tla.Bool(s.Req.Touched)}}
	vals := []tla.Value{tla.Int(s.Now), tla.Int(s.CNow), tla.Int(s.Suspended), tla.Int(s.Reattaches), tla.Int(s.Elects),
		tla.Int(s.Cur), tla.Int(s.Least), tla.Int(s.Armed), tla.Int(s.LastTouch), tla.Bool(s.Expired), tla.Int(s.Base), req}
	out := make([]tla.Binding, len(vals))
	for i, x := range vals {
		out[i] = tla.Binding{Name: VarNames[i], Value: x}
	}
	return out
}

// Format prints s as TLC prints a state.
func (sp *Spec) Format(s *State) string { return tla.FormatState(sp.TLA(s)) }

// TypeOK is the spec's TypeOK.
func (sp *Spec) TypeOK(s *State) bool {
	in := timing.In
	known := func(t int) bool { return t == sp.Created || slices.Contains(sp.Timeouts, t) }
	return in(s.Now, sp.MaxTime) && in(s.CNow, sp.MaxTime) && in(s.Suspended, sp.MaxSuspend) &&
		in(s.Reattaches, sp.MaxReattaches) && in(s.Elects, sp.MaxLeaderChanges) &&
		known(s.Cur) && known(s.Least) && known(s.Armed) &&
		in(s.LastTouch, sp.MaxTime) && in(s.Base, sp.MaxTime) && s.Req.Kind <= Reattach
}

// LossBeforeExpiry: when the leader expires the session, the client has
// already stopped believing.
func (sp *Spec) LossBeforeExpiry(s *State) bool { return !s.Expired || !sp.HBelieves(s) }

// NoSpuriousLoss: the client never reaches its deadline (under Healthy).
func (sp *Spec) NoSpuriousLoss(s *State) bool { return sp.HBelieves(s) }

// NeverRenewed is the witness expected to be violated: the client never
// believes past the deadline the session's creation alone gives it.
func (sp *Spec) NeverRenewed(s *State) bool { return !sp.HBelieves(s) || s.CNow < sp.Created-sp.Drift }
