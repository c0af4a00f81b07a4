// Package walk takes random walks through a model's state graph: the
// property tests (pgregory.net/rapid) and the generator of model traces
// (model/trace) use it.
package walk

import "github.com/zklock/zklock/model"

// Successor is one enabled action instance and the state it leads to.
type Successor[S any] struct {
	Label model.Label
	State S
}

// Successors lists the successors of s under next, in next's order.
func Successors[S any](next func(*S, func(model.Label, *S)), s *S) []Successor[S] {
	var out []Successor[S]
	next(s, func(l model.Label, t *S) { out = append(out, Successor[S]{l, *t}) })
	return out
}

// Walk takes up to steps steps from s: at each state choose picks one of
// the enabled successors (choose(succs) returns an index; -1 stops), and
// visit sees the step; visit returning false stops the walk. It returns the
// last state. A state without successors ends the walk.
func Walk[S any](next func(*S, func(model.Label, *S)), s S, steps int,
	choose func(succs []Successor[S]) int, visit func(from *S, l model.Label, to *S) bool) S {
	for i := 0; i < steps; i++ {
		succs := Successors(next, &s)
		if len(succs) == 0 {
			return s
		}
		k := choose(succs)
		if k < 0 || k >= len(succs) {
			return s
		}
		from := s
		s = succs[k].State
		if !visit(&from, succs[k].Label, &s) {
			return s
		}
	}
	return s
}

// Weighted returns a chooser that picks a successor with probability
// proportional to the weight of its action (weights indexed by
// model.Label.Action, 1 for an action beyond them), drawing with draw(n),
// which returns an integer in [0, n). Drawing the weights anew for every
// walk ("swarm testing") makes some actions rare and others frequent in
// each walk, which reaches deep interleavings a uniform walk almost never
// takes (a holder that keeps holding while others queue, cancel and wake).
func Weighted[S any](weights []int, draw func(n int) int) func([]Successor[S]) int {
	weight := func(l model.Label) int {
		if int(l.Action) < len(weights) && weights[l.Action] > 0 {
			return weights[l.Action]
		}
		return 1
	}
	return func(succs []Successor[S]) int {
		total := 0
		for _, s := range succs {
			total += weight(s.Label)
		}
		k := draw(total)
		for i, s := range succs {
			if k -= weight(s.Label); k < 0 {
				return i
			}
		}
		return len(succs) - 1
	}
}

// SwarmWeights derives a weight in 1..32 for each of n actions from one
// seed (one draw, so that a property-based test shrinks it in one step).
func SwarmWeights(n int, seed uint64) []int {
	w := make([]int, n)
	for i := range w {
		// splitmix64
		seed += 0x9e3779b97f4a7c15
		z := seed
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		z ^= z >> 31
		w[i] = 1 << (z % 6)
	}
	return w
}
