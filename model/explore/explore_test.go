package explore

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/tla"
)

// grid is a toy spec: two counters a and b in 0..max, each incremented by
// its own action (IncA = action 0, IncB = action 1).
type grid struct{ a, b int }

func gridSpec(max int) *Spec[grid] {
	step := func(s *grid, l model.Label, t *grid) model.Guard {
		*t = *s
		switch l.Action {
		case 0:
			if s.a >= max {
				return "a < max"
			}
			t.a++
		case 1:
			if s.b >= max {
				return "b < max"
			}
			t.b++
		default:
			return "no such action"
		}
		return model.Enabled
	}
	names := []string{"IncA", "IncB"}
	return &Spec[grid]{
		Name: "Grid",
		Init: func() []grid { return []grid{{}} },
		Next: func(s *grid, emit func(model.Label, *grid)) {
			var t grid
			for a := uint8(0); a < 2; a++ {
				if step(s, model.Label{Action: a}, &t) == model.Enabled {
					emit(model.Label{Action: a}, &t)
				}
			}
		},
		Step: step,
		Encode: func(b []byte, s *grid) []byte {
			return binary.AppendUvarint(binary.AppendUvarint(b, uint64(s.a)), uint64(s.b))
		},
		ActionName:  func(l model.Label) string { return names[l.Action] },
		LabelString: func(l model.Label) string { return names[l.Action] },
		View: func(s *grid) []tla.Binding {
			return []tla.Binding{{Name: "a", Value: tla.Int(s.a)}, {Name: "b", Value: tla.Int(s.b)}}
		},
	}
}

func TestPassCounts(t *testing.T) {
	for _, opt := range []Options{{TLCOrder: true}, {Workers: 1}, {Workers: 3}} {
		res, err := Check(gridSpec(2), opt)
		if err != nil {
			t.Fatal(err)
		}
		// 9 states in 5 levels; 1 initial + 12 successors generated.
		if res.Verdict != Pass || res.Distinct != 9 || res.Generated != 13 || res.Depth != 5 {
			t.Errorf("%+v: %+v", opt, res)
		}
	}
	big := gridSpec(300)
	seq, err := Check(big, Options{TLCOrder: true})
	if err != nil {
		t.Fatal(err)
	}
	par, err := Check(big, Options{Workers: 4})
	if err != nil {
		t.Fatal(err)
	}
	if seq.Distinct != 301*301 || par.Distinct != seq.Distinct || par.Generated != seq.Generated || par.Depth != seq.Depth {
		t.Errorf("tlc-order %d/%d/%d, parallel %d/%d/%d", seq.Distinct, seq.Generated, seq.Depth, par.Distinct, par.Generated, par.Depth)
	}
}

func TestInvariantViolationTLCOrder(t *testing.T) {
	sp := gridSpec(2)
	sp.Invariants = []Invariant[grid]{
		{Name: "Small", Holds: func(s *grid) bool { return s.a+s.b < 3 }},
	}
	res, err := Check(sp, Options{TLCOrder: true})
	if err != nil {
		t.Fatal(err)
	}
	// FIFO order: (0,0) (1,0) (0,1) (2,0) (1,1) (0,2) (2,1): found while
	// expanding (2,0), after 1+2+2+2+1 generated states.
	if res.Verdict != InvariantViolated || res.Property != "Small" || res.Distinct != 7 || res.Generated != 8 {
		t.Fatalf("%+v", res)
	}
	if got := actions(res.Trace); got != "Init IncA IncA IncB" || res.Trace[3].State != (grid{2, 1}) {
		t.Errorf("trace %s ending in %+v", got, res.Trace[len(res.Trace)-1].State)
	}
	// In parallel the same shortest length.
	par, err := Check(sp, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if par.Verdict != InvariantViolated || len(par.Trace) != 4 {
		t.Errorf("parallel: %+v", par)
	}
}

func TestActionPropertyViolation(t *testing.T) {
	sp := gridSpec(2)
	sp.Actions = []ActionProperty[grid]{
		{Name: "NoBAfterA", Holds: func(s, t *grid) bool { return !(s.a == 1 && t.b > s.b) }},
	}
	for _, opt := range []Options{{TLCOrder: true}, {Workers: 2}} {
		res, err := Check(sp, opt)
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != ActionPropertyViolated || res.Property != "NoBAfterA" || actions(res.Trace) != "Init IncA IncB" {
			t.Errorf("%+v: %+v %s", opt, res, actions(res.Trace))
		}
		if opt.TLCOrder && (res.Distinct != 5 || res.Generated != 5) {
			t.Errorf("counts at the violation: %d distinct, %d generated; want 5, 5", res.Distinct, res.Generated)
		}
	}
}

func TestDeadlockAndInitViolation(t *testing.T) {
	sp := gridSpec(1)
	sp.CheckDeadlock = true
	for _, opt := range []Options{{TLCOrder: true}, {Workers: 2}} {
		res, err := Check(sp, opt)
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != Deadlock || len(res.Trace) != 3 || res.Trace[2].State != (grid{1, 1}) {
			t.Errorf("%+v: %+v", opt, res)
		}
	}
	sp = gridSpec(1)
	sp.Invariants = []Invariant[grid]{{Name: "Never", Holds: func(*grid) bool { return false }}}
	for _, opt := range []Options{{TLCOrder: true}, {Workers: 2}} {
		res, err := Check(sp, opt)
		if err != nil || res.Verdict != InvariantViolated || len(res.Trace) != 1 || res.Distinct != 1 {
			t.Errorf("%+v: %+v %v", opt, res, err)
		}
	}
}

func TestMaxStates(t *testing.T) {
	for _, opt := range []Options{{TLCOrder: true, MaxStates: 10}, {Workers: 2, MaxStates: 10}} {
		if _, err := Check(gridSpec(50), opt); !errors.Is(err, ErrTooManyStates) {
			t.Errorf("%+v: %v", opt, err)
		}
	}
}

// cycle is a toy for liveness: x goes 0 -> 1 -> 2 -> 0 (Start, Work,
// Back), Work needs y = 1, Toggle flips y.
type cycle struct{ x, y int }

func cycleSpec(fair ...uint8) *Spec[cycle] {
	names := []string{"Start", "Work", "Back", "Toggle"}
	step := func(s *cycle, l model.Label, t *cycle) model.Guard {
		*t = *s
		switch l.Action {
		case 0:
			if s.x != 0 {
				return "x = 0"
			}
			t.x = 1
		case 1:
			if s.x != 1 || s.y != 1 {
				return "x = 1 /\\ y = 1"
			}
			t.x = 2
		case 2:
			if s.x != 2 {
				return "x = 2"
			}
			t.x = 0
		case 3:
			t.y = 1 - s.y
		}
		return model.Enabled
	}
	sp := &Spec[cycle]{
		Name: "Cycle",
		Init: func() []cycle { return []cycle{{}} },
		Next: func(s *cycle, emit func(model.Label, *cycle)) {
			var t cycle
			for a := uint8(0); a < 4; a++ {
				if step(s, model.Label{Action: a}, &t) == model.Enabled {
					emit(model.Label{Action: a}, &t)
				}
			}
		},
		Step:        step,
		Encode:      func(b []byte, s *cycle) []byte { return append(b, byte(s.x), byte(s.y)) },
		ActionName:  func(l model.Label) string { return names[l.Action] },
		LabelString: func(l model.Label) string { return names[l.Action] },
		View: func(s *cycle) []tla.Binding {
			return []tla.Binding{{Name: "x", Value: tla.Int(s.x)}, {Name: "y", Value: tla.Int(s.y)}}
		},
		Temporal: []LeadsTo[cycle]{{
			Name: "Done", N: 1,
			P: func(s *cycle, _ int) bool { return s.x == 1 },
			Q: func(s *cycle, _ int) bool { return s.x == 2 },
		}},
	}
	for _, a := range fair {
		sp.Fairness = append(sp.Fairness, Fairness[cycle]{
			Name:  "WF(" + names[a] + ")",
			Takes: func(_ *cycle, l model.Label) bool { return l.Action == a },
		})
	}
	return sp
}

func TestLiveness(t *testing.T) {
	// No fairness: stuttering at x = 1 violates Done.
	res, err := Check(cycleSpec(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != TemporalViolated || res.Property != "Done" || !res.TraceStutters || actions(res.Trace) != "Init Start" {
		t.Errorf("no fairness: %+v %s", res, actions(res.Trace))
	}
	if res.Distinct != 6 {
		t.Errorf("%d states, want 6", res.Distinct)
	}
	// Weak fairness of Work is not enough: Work is disabled whenever y = 0,
	// and fair toggling visits y = 0 forever.
	res, err = Check(cycleSpec(0, 1, 2, 3), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != TemporalViolated || res.TraceStutters || res.TraceLoop != 1 ||
		actions(res.Trace) != "Init Start Toggle" {
		t.Errorf("WF(Work), WF(Toggle): %+v %s", res, actions(res.Trace))
	}
	if _, _, err := CheckLasso(cycleSpec(0, 1, 2, 3), res.Trace, res.TraceLoop, false); err != nil {
		t.Errorf("the explorer's own lasso: %v", err)
	}
	// Without Toggle's fairness a stuttering lasso at y = 0 is fair too.
	res, err = Check(cycleSpec(1), Options{})
	if err != nil || res.Verdict != TemporalViolated || !res.TraceStutters {
		t.Errorf("WF(Work) only: %+v %v", res, err)
	}
}

func TestLivenessPasses(t *testing.T) {
	// Work always enabled at x = 1 (y stuck at 1): WF(Work) forces it.
	sp := cycleSpec(1)
	sp.Init = func() []cycle { return []cycle{{0, 1}} }
	next := sp.Next
	sp.Next = func(s *cycle, emit func(model.Label, *cycle)) {
		next(s, func(l model.Label, t *cycle) {
			if l.Action != 3 {
				emit(l, t)
			}
		})
	}
	res, err := Check(sp, Options{})
	if err != nil || res.Verdict != Pass || res.Distinct != 3 {
		t.Errorf("%+v %v", res, err)
	}
}

func TestCheckLassoRejects(t *testing.T) {
	sp := cycleSpec(0, 1, 2, 3)
	steps, err := Replay(sp, 0, []model.Label{{Action: 0}, {Action: 3}, {Action: 1}})
	if err != nil {
		t.Fatal(err)
	}
	// x reaches 2: Done is not violated on a loop through x = 2.
	if _, _, err := CheckLasso(sp, steps, 1, false); !errors.Is(err, ErrNotALasso) {
		t.Errorf("a lasso through Q: %v", err)
	}
	// Stuttering at x = 1, y = 1 is unfair to Work.
	if _, _, err := CheckLasso(sp, steps[:3], -1, true); !errors.Is(err, ErrNotALasso) {
		t.Errorf("an unfair stutter: %v", err)
	}
	// No step leads back from the last state to state 1 (x = 1, y = 0)... it does: Toggle.
	if _, _, err := CheckLasso(sp, steps[:3], 1, false); err != nil {
		t.Errorf("a fair loop: %v", err)
	}
	if _, _, err := CheckLasso(sp, steps[:3], 0, false); !errors.Is(err, ErrNotALasso) {
		t.Errorf("no step back to the initial state: %v", err)
	}
	if _, err := Replay(sp, 0, []model.Label{{Action: 1}}); err == nil {
		t.Error("Replay of a disabled action")
	}
}

func TestMatchTrace(t *testing.T) {
	sp := gridSpec(2)
	states := []map[string]string{{"a": "0", "b": "0"}, {"a": "1", "b": "0"}, {"a": "1", "b": "1"}}
	steps, err := MatchTrace(sp, []string{"Init", "IncA", "IncB"}, states)
	if err != nil || len(steps) != 3 || steps[2].State != (grid{1, 1}) {
		t.Fatalf("%v %+v", err, steps)
	}
	for _, bad := range []struct {
		actions []string
		states  []map[string]string
		want    string
	}{
		{[]string{"Init", "IncB"}, states[:2], "a = 0 in the model, 1 in TLC's"},
		{[]string{"Init", "Reset"}, states[:2], "no Reset step"},
		{[]string{"Init"}, []map[string]string{{"a": "1", "b": "0"}}, "not an initial state"},
		{[]string{"Init"}, []map[string]string{{"a": "0"}}, "variables"},
		{[]string{"Init"}, []map[string]string{{"a": "0", "b": "<<"}}, "state 1, b"},
	} {
		if _, err := MatchTrace(sp, bad.actions, bad.states); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%v: %v, want %q", bad.actions, err, bad.want)
		}
	}
}

func actions[S any](trace []Step[S]) string {
	var names []string
	for _, s := range trace {
		names = append(names, s.Action)
	}
	return strings.Join(names, " ")
}

func BenchmarkGridParallel(b *testing.B) {
	sp := gridSpec(400)
	for i := 0; i < b.N; i++ {
		if _, err := Check(sp, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func ExampleCheck() {
	sp := gridSpec(2)
	sp.Invariants = []Invariant[grid]{{Name: "SumBelow4", Holds: func(s *grid) bool { return s.a+s.b < 4 }}}
	res, _ := Check(sp, Options{TLCOrder: true})
	fmt.Println(res.Verdict, res.Property, len(res.Trace), "states:", actions(res.Trace))
	// Output: invariant violated SumBelow4 5 states: Init IncA IncA IncB IncB
}
