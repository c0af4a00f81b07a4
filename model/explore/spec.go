// Package explore is an explicit-state model checker for the Go models of
// zklock's TLA+ specs: breadth-first search over fingerprinted states,
// checking invariants on every new state, action properties on every step
// and leads-to properties under weak fairness on the complete state graph.
//
// # Search
//
// The search has two modes. The parallel mode (the default for configs
// that are expected to pass) explores the graph level by level: a pool of
// workers expands the states of one level, inserting their successors into a
// fingerprint set sharded by hash; it finds the same set of states as any
// other breadth-first order, so its distinct-state count is TLC's. The TLC
// mode (Options.TLCOrder) is TLC's own algorithm with one worker: a FIFO
// queue, successors generated action by action in the order of the
// next-state relation's disjuncts, invariants checked on each new state
// before action properties are checked on the step, and the search stopping
// at the first violation; with the same action order as TLC it reports the
// same counterexample length and the same counts at the violation as
// `java tlc2.TLC -workers 1`. Both report the shortest counterexample to a
// safety property.
//
// # States and fingerprints
//
// A state's fingerprint is a 128-bit hash (two independently seeded
// hash/maphash sums) of its canonical byte encoding (Spec.Encode: sets as
// sorted slices, records as structs, sequences as slices). The probability
// that two of the n states of a run collide is below n²/2¹²⁹, about 10⁻²⁷
// for a million states.
//
// # Liveness
//
// A leads-to property \A i : P(i) ~> Q(i) is checked after the search, on
// the state graph it recorded, under the weak fairness conditions of the
// specification (WF_vars(A) for each A in Spec.Fairness). For each i it
// takes the subgraph of states where Q(i) is false and splits it into
// strongly connected components (Tarjan). A component C admits a fair
// behaviour that stays in it forever iff for every fairness condition A
// either some step of C between two different states is an A step or A is
// disabled in some state of C (a behaviour can then visit every state and
// take every step of C infinitely often); a single state is a component too
// (the behaviour stutters there). P(i) ~> Q(i) is violated iff such a fair
// component is reachable from an initial state by a path that, from some
// state satisfying P(i) /\ ~Q(i) on, stays in ~Q(i). The counterexample is
// a shortest such path followed by a cycle through the component that
// takes or visits a witness of every fairness condition, or by stuttering
// when every fair action is disabled at the end of the path.
package explore

import (
	"time"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/tla"
)

// Spec is a state machine with its properties, as the explorer sees it.
type Spec[S any] struct {
	// Name identifies the specification, e.g. "PredecessorLock!FairSpec".
	Name string
	// Init returns the initial states.
	Init func() []S
	// Next calls emit with each successor of s, in the order of the
	// next-state relation's disjuncts; the state passed to emit is only
	// valid during the call.
	Next func(s *S, emit func(model.Label, *S))
	// Step applies one action instance (to replay a trace).
	Step func(s *S, l model.Label, t *S) model.Guard
	// Encode appends the canonical encoding of s to dst.
	Encode func(dst []byte, s *S) []byte
	// Invariants are checked on every new state, in order.
	Invariants []Invariant[S]
	// Actions are action properties [][A]_v, checked on every step.
	Actions []ActionProperty[S]
	// Temporal are the leads-to properties, checked on the state graph.
	Temporal []LeadsTo[S]
	// Fairness are the weak fairness conditions of the specification.
	Fairness []Fairness[S]
	// CheckDeadlock makes a state without successors a violation.
	CheckDeadlock bool
	// ActionName returns the spec name of a label's action.
	ActionName func(model.Label) string
	// LabelString renders a label with its parameters.
	LabelString func(model.Label) string
	// View returns the state's variables as TLA+ values.
	View func(*S) []tla.Binding
}

// Invariant is a state predicate that must hold in every reachable state.
type Invariant[S any] struct {
	Name  string
	Holds func(*S) bool
}

// ActionProperty is a step predicate that must hold for every step.
type ActionProperty[S any] struct {
	Name  string
	Holds func(s, t *S) bool
}

// LeadsTo is the property \A i \in 0..N-1 : P(i) ~> Q(i).
type LeadsTo[S any] struct {
	Name string
	N    int
	P, Q func(s *S, i int) bool
	// Param renders the parameter i (a client name) for reports.
	Param func(i int) string
}

// Fairness is WF_vars(A): Takes says whether the step labelled l from s is
// an A step (a step of A that leaves s is an <<A>>_vars step).
type Fairness[S any] struct {
	Name  string
	Takes func(s *S, l model.Label) bool
}

// Options tune a run.
type Options struct {
	// Workers is the number of workers of the parallel mode (0: GOMAXPROCS).
	Workers int
	// TLCOrder runs TLC's algorithm with one worker (see the package
	// documentation). Liveness checking always runs in this mode.
	TLCOrder bool
	// MaxStates stops the search with an error after this many distinct
	// states (0: no bound).
	MaxStates int64
	// Progress, if set, is called after each breadth-first level of the
	// parallel mode with the level, the distinct states so far and the
	// size of the next level's frontier.
	Progress func(level int, distinct int64, frontier int)
}

// Verdict is the outcome of a run; the values are those of internal/tlc.
type Verdict string

// The verdicts.
const (
	Pass                   Verdict = "pass"
	InvariantViolated      Verdict = "invariant violated"
	ActionPropertyViolated Verdict = "action property violated"
	TemporalViolated       Verdict = "temporal property violated"
	Deadlock               Verdict = "deadlock"
)

// Step is one state of a counterexample with the action that led to it
// (the zero Label and Action "Init" for the first).
type Step[S any] struct {
	Label  model.Label
	Action string
	State  S
}

// Result is the outcome of a run.
type Result[S any] struct {
	Verdict Verdict
	// Property is the violated property; for a temporal violation also the
	// parameter, e.g. "StarvationFree" with Param "c1".
	Property string
	Param    string
	// Distinct is the number of distinct states found (at the violation,
	// for a safety violation), Generated the number of successor states
	// generated (the initial states included), as TLC counts them.
	Distinct, Generated int64
	// Depth is the number of breadth-first levels (the initial states are
	// level 1), as TLC reports it.
	Depth int
	// Trace is the counterexample, first state first.
	Trace []Step[S]
	// TraceLoop is the index of the state a lasso goes back to, -1 if none;
	// TraceStutters is true when the lasso ends by stuttering.
	TraceLoop     int
	TraceStutters bool
	// Duration is the run's wall time (search and liveness check),
	// Workers the number of workers and Mode "parallel" or "tlc-order".
	Duration time.Duration
	Workers  int
	Mode     string
}

// StatesPerSecond is Distinct over Duration.
func (r *Result[S]) StatesPerSecond() float64 {
	if r.Duration <= 0 {
		return 0
	}
	return float64(r.Distinct) / r.Duration.Seconds()
}
