package explore

import (
	"bytes"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/tla"
)

// MatchTrace replays a counterexample as TLC printed it (the action name
// and the variables of every state, "Init" first) in the model: the first
// state must be an initial state of the model and every further state the
// successor of the one before by an action of the same name, with every
// variable equal as a TLA+ value. It returns the model's states and the
// action instances (labels) that produce them.
func MatchTrace[S any](sp *Spec[S], actions []string, states []map[string]string) ([]Step[S], error) {
	if len(actions) != len(states) || len(states) == 0 {
		return nil, fmt.Errorf("explore: a trace of %d actions and %d states", len(actions), len(states))
	}
	want := make([]map[string]string, len(states))
	for i, st := range states {
		want[i] = map[string]string{}
		for name, text := range st {
			v, err := tla.Parse(text)
			if err != nil {
				return nil, fmt.Errorf("explore: state %d, %s: %w", i+1, name, err)
			}
			want[i][name] = v.Canon()
		}
	}
	var steps []Step[S]
	var firstDiff string
	for i, s := range sp.Init() {
		if d := viewDiff(sp, &s, want[0]); d == "" {
			steps = append(steps, Step[S]{Action: "Init", State: s})
			break
		} else if i == 0 {
			firstDiff = d
		}
	}
	if steps == nil {
		return nil, fmt.Errorf("explore: TLC's initial state is not an initial state of the model: %s", firstDiff)
	}
	for i := 1; i < len(states); i++ {
		prev := steps[len(steps)-1].State
		var match *Step[S]
		var diffs []string
		sp.Next(&prev, func(l model.Label, t *S) {
			if match != nil || sp.ActionName(l) != actions[i] {
				return
			}
			if d := viewDiff(sp, t, want[i]); d != "" {
				diffs = append(diffs, sp.LabelString(l)+": "+d)
				return
			}
			match = &Step[S]{Label: l, Action: actions[i], State: *t}
		})
		if match == nil {
			why := "no " + actions[i] + " step is enabled in the model"
			if len(diffs) > 0 {
				why = strings.Join(diffs, "; ")
			}
			return steps, fmt.Errorf("explore: TLC's state %d (%s) is not a successor of state %d in the model: %s",
				i+1, actions[i], i, why)
		}
		steps = append(steps, *match)
	}
	return steps, nil
}

// viewDiff compares a model state with canonical TLA+ values by variable;
// it returns "" when they are equal, else the first difference.
func viewDiff[S any](sp *Spec[S], s *S, want map[string]string) string {
	view := sp.View(s)
	if len(view) != len(want) {
		var names []string
		for n := range want {
			names = append(names, n)
		}
		sort.Strings(names)
		return fmt.Sprintf("TLC's state has variables %v, the model %d", names, len(view))
	}
	for _, b := range view {
		w, ok := want[b.Name]
		if !ok {
			return "TLC's state has no variable " + b.Name
		}
		if got := b.Value.Canon(); got != w {
			return fmt.Sprintf("%s = %s in the model, %s in TLC's", b.Name, got, w)
		}
	}
	return ""
}

// ErrNotALasso is returned (wrapped) when a lasso does not violate any
// temporal property of the spec under its fairness.
var ErrNotALasso = errors.New("explore: not a fair counterexample")

// CheckLasso checks that a lasso-shaped behaviour (steps, then back to
// steps[loop], or stuttering in the last state forever) violates one of the
// spec's leads-to properties under its fairness conditions: for some
// parameter i, P(i) holds in some state after which Q(i) never holds
// again, and for every fairness condition the cycle takes one of its steps
// or visits a state where it is disabled. It returns the property and the
// parameter.
func CheckLasso[S any](sp *Spec[S], steps []Step[S], loop int, stutters bool) (string, string, error) {
	n := len(steps)
	if n == 0 || (!stutters && (loop < 0 || loop >= n)) {
		return "", "", fmt.Errorf("%w: %d states, loop %d", ErrNotALasso, n, loop)
	}
	cycleStart := loop
	if stutters {
		cycleStart = n - 1
	}
	var enc1, enc2 []byte
	same := func(a, b *S) bool {
		enc1, enc2 = sp.Encode(enc1[:0], a), sp.Encode(enc2[:0], b)
		return bytes.Equal(enc1, enc2)
	}
	// The cycle's steps: steps[cycleStart+1..n-1] and, for a loop, the step
	// from the last state back to steps[loop].
	var closing model.Label
	if !stutters {
		found := false
		last := steps[n-1].State
		sp.Next(&last, func(l model.Label, t *S) {
			if !found && same(t, &steps[loop].State) {
				found, closing = true, l
			}
		})
		if !found {
			return "", "", fmt.Errorf("%w: no step from the last state back to state %d", ErrNotALasso, loop+1)
		}
	}
	type cstep struct {
		from  *S
		label model.Label
		to    *S
	}
	var cyc []cstep
	for k := cycleStart + 1; k < n; k++ {
		cyc = append(cyc, cstep{&steps[k-1].State, steps[k].Label, &steps[k].State})
	}
	if !stutters {
		cyc = append(cyc, cstep{&steps[n-1].State, closing, &steps[loop].State})
	}
	for k, f := range sp.Fairness {
		ok := false
		for _, c := range cyc {
			if !same(c.from, c.to) && f.Takes(c.from, c.label) {
				ok = true
				break
			}
		}
		for j := cycleStart; j < n && !ok; j++ {
			enabled := false
			u := steps[j].State
			sp.Next(&u, func(l model.Label, t *S) {
				if !enabled && f.Takes(&u, l) && !same(&u, t) {
					enabled = true
				}
			})
			ok = !enabled
		}
		if !ok {
			return "", "", fmt.Errorf("%w: the cycle is unfair to %s (condition %d)", ErrNotALasso, f.Name, k)
		}
	}
	for _, lt := range sp.Temporal {
		for i := 0; i < lt.N; i++ {
			// The last state where Q(i) holds, if any; the cycle must be free of it.
			lastQ := -1
			for j := 0; j < n; j++ {
				if lt.Q(&steps[j].State, i) {
					lastQ = j
				}
			}
			if lastQ >= cycleStart {
				continue
			}
			for j := lastQ + 1; j < n; j++ {
				if lt.P(&steps[j].State, i) {
					param := fmt.Sprint(i)
					if lt.Param != nil {
						param = lt.Param(i)
					}
					return lt.Name, param, nil
				}
			}
		}
	}
	return "", "", fmt.Errorf("%w: no leads-to property is violated", ErrNotALasso)
}
