// Package tlc fetches the TLC model checker, runs it on a TLA+ spec and
// parses what it reports into a Result.
//
// TLC is run in its -tool mode, which wraps every message in markers that
// carry the message code (tlc2.output.EC); Parse keys on those codes rather
// than on the wording of the human-readable text. The Result is meant to be
// compared with other model checkers (the Go explorer in model/): it holds
// the verdict, the violated property, the state counts, the search depth,
// the counterexample as a list of (action, state) steps and the coverage of
// every action.
package tlc

import "time"

// Verdict is the outcome of one TLC run.
type Verdict string

// The verdicts Parse can return.
const (
	// Pass: TLC explored the whole state space and found no violation.
	Pass Verdict = "pass"
	// InvariantViolated: a state invariant is false in a reachable state.
	InvariantViolated Verdict = "invariant violated"
	// ActionPropertyViolated: a property of the form [][A]_v is violated by a step.
	ActionPropertyViolated Verdict = "action property violated"
	// TemporalViolated: a temporal (liveness) property is violated. TLC does not
	// name the property.
	TemporalViolated Verdict = "temporal property violated"
	// Deadlock: a reachable state has no successor and deadlock checking was on.
	Deadlock Verdict = "deadlock"
	// Error: TLC could not check the model (parse or semantic error, bad
	// configuration, evaluation error, crash, incomplete output).
	Error Verdict = "error"
)

// IsViolation reports whether v is one of the violation verdicts.
func (v Verdict) IsViolation() bool {
	switch v {
	case InvariantViolated, ActionPropertyViolated, TemporalViolated, Deadlock:
		return true
	}
	return false
}

// Step is one state of a counterexample together with the action that led
// to it. The first step's Action is "Init" (TLC prints "<Initial predicate>").
type Step struct {
	// Action is the name of the spec action that produced this state.
	Action string
	// Location is TLC's source location of the action, e.g.
	// "line 202, col 5 to line 207, col 80 of module PredecessorLock"; empty for Init.
	Location string
	// State maps each variable name to its value as TLC prints it (TLA+ syntax).
	State map[string]string
}

// ActionCoverage is TLC's coverage report for one action.
type ActionCoverage struct {
	// Name is the action's name (the operator TLC attributes it to).
	Name string
	// Module is the module that defines the action.
	Module string
	// Line is the line of the action's definition.
	Line int
	// Distinct is the number of distinct new states the action found first.
	Distinct int64
	// Total is the number of times the action produced a successor state
	// (including states already seen): zero means the action was never taken.
	Total int64
}

// Result is everything Parse extracts from one TLC run.
type Result struct {
	// Version is TLC's version line, e.g. "TLC2 Version 2.18 of 20 March 2023".
	Version string
	// Verdict is the outcome of the run.
	Verdict Verdict
	// Property names the violated invariant or action property. TLC does not
	// name a violated temporal property: it is empty then (and for Pass,
	// Deadlock and Error).
	Property string
	// DistinctStates is the number of distinct states found.
	DistinctStates int64
	// StatesGenerated is the number of states generated.
	StatesGenerated int64
	// Depth is TLC's search depth ("the depth of the complete state graph
	// search"); for a violation it is the BFS depth reached, not the trace length.
	Depth int
	// Duration is TLC's own run time ("Finished in ...").
	Duration time.Duration
	// Trace is the counterexample, first state first; empty without a violation.
	Trace []Step
	// TraceLoop is, for a lasso-shaped liveness counterexample, the index in
	// Trace of the state the behaviour goes back to; -1 otherwise.
	TraceLoop int
	// TraceStutters is true when the liveness counterexample ends by
	// stuttering forever in its last state.
	TraceStutters bool
	// Coverage lists the coverage of every action in the order TLC reports it.
	Coverage []ActionCoverage
	// Errors holds TLC's error messages (parse, semantic, configuration,
	// evaluation errors) when Verdict is Error.
	Errors []string
}

// Covered returns the coverage entry of the named action and whether there is one.
func (r *Result) Covered(action string) (ActionCoverage, bool) {
	for _, c := range r.Coverage {
		if c.Name == action {
			return c, true
		}
	}
	return ActionCoverage{}, false
}
