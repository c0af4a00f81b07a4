package tlc

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/zklock/zklock/internal/tlccfg"
)

// Model and Constant are the config's own description; see package tlccfg.
type (
	Model    = tlccfg.Model
	Constant = tlccfg.Constant
)

// ParseModel is tlccfg.Parse.
func ParseModel(cfg []byte) (Model, error) { return tlccfg.Parse(cfg) }

// Check compares a TLC result with the model's expectation. It returns nil
// when they agree, and otherwise an error saying every way they disagree:
//   - TLC reported an error (parse, semantic, configuration, evaluation);
//   - a passing config did not pass;
//   - an expected violation did not happen, or another property failed;
//   - a passing config has an action that was never taken and is not
//     declared disabled, declares an action disabled that was taken, or
//     declares one that does not exist.
//
// A violated temporal property is not named by TLC, nor is an action
// property that is part of a specification (a refinement's [][Next]_vars);
// it is attributed to the expected property only if that is the config's
// only PROPERTY.
func Check(m Model, r *Result) error {
	var errs []error
	switch {
	case r.Verdict == Error:
		errs = append(errs, fmt.Errorf("TLC error:\n%s", strings.Join(r.Errors, "\n")))
	case m.Pass && r.Verdict != Pass:
		what := string(r.Verdict)
		if r.Property != "" {
			what += ": " + r.Property
		}
		errs = append(errs, fmt.Errorf("expected pass, got %s", what))
	case m.Pass:
		errs = append(errs, checkCoverage(m, r)...)
		if got := (tlccfg.Recorded{Distinct: r.DistinctStates, Generated: r.StatesGenerated, Depth: r.Depth}); m.TLCDeep && got != m.Recorded {
			errs = append(errs, fmt.Errorf("TLC found %d distinct states, %d generated, depth %d; the config's `tlc: deep` line records %d, %d, %d (make verify's model check compares with it: update it)",
				got.Distinct, got.Generated, got.Depth, m.Recorded.Distinct, m.Recorded.Generated, m.Recorded.Depth))
		}
	case !r.Verdict.IsViolation():
		errs = append(errs, fmt.Errorf("expected violation of %s, but TLC found none", m.Violation))
	default:
		got := r.Property
		switch r.Verdict {
		case Deadlock:
			got = "Deadlock"
		case TemporalViolated, ActionPropertyViolated:
			if got == "" && len(m.Properties) == 1 {
				got = m.Properties[0]
			}
		}
		if got != m.Violation {
			if got == "" {
				got = fmt.Sprintf("an unnamed %s (list only the expected PROPERTY)", r.Verdict)
			}
			errs = append(errs, fmt.Errorf("expected violation of %s, got %s", m.Violation, got))
		}
	}
	return errors.Join(errs...)
}

func checkCoverage(m Model, r *Result) []error {
	if len(r.Coverage) == 0 {
		return []error{errors.New("no action coverage in TLC's output (run with -coverage)")}
	}
	var errs []error
	for _, d := range m.Disabled {
		c, ok := r.Covered(d)
		switch {
		case !ok:
			errs = append(errs, fmt.Errorf("disabled: %s is not an action of the spec", d))
		case c.Total > 0:
			errs = append(errs, fmt.Errorf("disabled: %s was taken %d times: the declaration is stale", d, c.Total))
		}
	}
	for _, c := range r.Coverage {
		if c.Total == 0 && !slices.Contains(m.Disabled, c.Name) {
			errs = append(errs, fmt.Errorf("action %s (%s line %d) is never taken: a spec bug, or declare it `\\* disabled:`", c.Name, c.Module, c.Line))
		}
	}
	return errs
}
