package proptest

import (
	"strings"

	"pgregory.net/rapid"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/internal/walk"
)

// Property is an invariant (Inv) or an action property (Act) of a spec, by
// the name the spec gives it.
type Property[S any] struct {
	Name string
	Inv  func(*S) bool
	Act  func(s, t *S) bool
}

// holds reports whether p holds for the step from s to t (t alone for an
// invariant).
func (p Property[S]) holds(s, t *S) bool {
	return (p.Inv == nil || p.Inv(t)) && (p.Act == nil || p.Act(s, t))
}

// Spec is what a random walk needs of a model's spec.
type Spec[S any] struct {
	Init        func() S
	Next        func(*S, func(model.Label, *S))
	Actions     int // the number of action names, for the swarm weights
	ActionName  func(model.Label) string
	LabelString func(model.Label) string
	Format      func(*S) string
}

// WalkChecking takes a random walk of up to steps steps from Init, each
// step chosen among the enabled actions, and fails t at the first state or
// step that violates one of props, printing the actions taken and the
// state. When taken is not nil it counts the actions the walk took.
func WalkChecking[S any](t *rapid.T, sp Spec[S], props []Property[S], steps int, taken map[string]int) {
	var path []string
	fail := func(name string, s *S) {
		t.Fatalf("%s violated after %d steps:\n  %s\n%s", name, len(path), strings.Join(path, "\n  "), sp.Format(s))
	}
	init := sp.Init()
	for _, p := range props {
		if p.Inv != nil && !p.Inv(&init) {
			fail(p.Name, &init)
		}
	}
	// Swarm testing: every walk weighs the actions differently (1 to 32).
	weights := walk.SwarmWeights(sp.Actions, rapid.Uint64().Draw(t, "swarm"))
	// A wide draw taken modulo the total weight: rapid's small-biased
	// IntRange would mostly pick the first client's first action.
	choose := walk.Weighted[S](weights, func(n int) int {
		return int(rapid.Uint32().Draw(t, "action") % uint32(n))
	})
	walk.Walk(sp.Next, init, steps, choose, func(from *S, l model.Label, to *S) bool {
		if taken != nil {
			taken[sp.ActionName(l)]++
		}
		path = append(path, sp.LabelString(l))
		for _, p := range props {
			if !p.holds(from, to) {
				fail(p.Name, to)
			}
		}
		return true
	})
}

// Only returns the property of props named name (none if it is not there).
func Only[S any](props []Property[S], name string) []Property[S] {
	for _, p := range props {
		if p.Name == name {
			return []Property[S]{p}
		}
	}
	return nil
}
