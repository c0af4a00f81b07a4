// Package specs binds the TLC configs in spec/tla to the Go models: it
// reads a config's module, SPECIFICATION (or INIT/NEXT), CONSTANTS,
// INVARIANTS, PROPERTIES and CHECK_DEADLOCK, builds the mirror of that
// module with those constants, and selects the same properties by name, so
// that the .cfg files are the one source of truth for TLC and for the
// explorer.
package specs

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/zklock/zklock/internal/tlccfg"
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/sharedlock"
)

// Instance is the model of one config, ready to be explored.
type Instance interface {
	// Name is the module and specification, e.g. "PredecessorLock!FairSpec".
	Name() string
	// Check explores the state space and checks the config's properties.
	Check(opt explore.Options) (*Outcome, error)
	// MatchTLC replays TLC's counterexample in the model (see
	// explore.MatchTrace) and returns the property it violates in the
	// model: for a finite trace the first invariant the last state
	// violates, else the first action property the last step violates; for
	// a lasso the temporal property it violates under the spec's fairness
	// (explore.CheckLasso); "" for a finite trace that ends in a deadlock
	// (a state without successors, when the config checks deadlocks). It
	// returns an error if the trace is not a run of the model or violates
	// nothing.
	MatchTLC(actions []string, states []map[string]string, loop int, stutters bool) (string, error)
}

// Outcome is the result of exploring one config.
type Outcome struct {
	Verdict  explore.Verdict
	Property string
	// Param is the parameter of a violated leads-to (a client name).
	Param               string
	Distinct, Generated int64
	Depth               int
	// TraceActions are the counterexample's actions, "Init" first.
	TraceActions  []string
	TraceLoop     int
	TraceStutters bool
	// TraceStates are the counterexample's states as TLC would print them
	// (variable -> TLA+ value).
	TraceStates []map[string]string
	// Trace is the counterexample printed state by state.
	Trace    string
	Duration time.Duration
	Workers  int
	Mode     string
}

// StatesPerSecond is Distinct over Duration.
func (o *Outcome) StatesPerSecond() float64 {
	if o.Duration <= 0 {
		return 0
	}
	return float64(o.Distinct) / o.Duration.Seconds()
}

// Load builds the model of the config m of module.
func Load(module string, m tlccfg.Model) (Instance, error) {
	if len(m.Unsupported) > 0 {
		return nil, fmt.Errorf("specs: %s: the model cannot mirror %s", module, strings.Join(m.Unsupported, ", "))
	}
	switch {
	case isPredExt(module):
		return loadPredExt(module, m)
	case isPredMarked(module):
		return loadPredMarked(module, m)
	case module == "PredecessorLockStaleReads" || module == "SharedLockStaleReads":
		return loadStaleReads(module, m)
	case module == "Election":
		return loadElection(module, m)
	case module == "ElectionStaleReads":
		return loadElectionStale(module, m)
	case isConnLoss(module):
		return loadConnLoss(module, m)
	case module == "PredecessorLockForeign":
		return loadPredForeign(module, m)
	case module == "PredecessorLockMarkedForeign":
		return loadPredMarkedForeign(module, m)
	case module == "PredecessorLockAdaptive":
		return loadPredAdaptive(module, m)
	case module == "PredecessorLockAdaptiveForeign":
		return loadPredAdaptiveForeign(module, m)
	case module == "SharedLockForeign":
		return loadSharedForeign(module, m)
	case module == "ElectionForeign":
		return loadElForeign(module, m)
	case strings.HasPrefix(module, "PredecessorLock"):
		return loadPredLock(module, m)
	case strings.HasPrefix(module, "SharedLock"):
		return loadSharedLock(module, m)
	case module == "SessionTiming":
		return loadSessionTiming(module, m)
	case module == "SessionTimingLoad":
		return loadSessionTimingLoad(module, m)
	case module == "SessionClock":
		return loadSessionClock(module, m)
	case module == "TimedLock":
		return loadTimedLock(module, m)
	case module == "TimedElection":
		return loadTimedElection(module, m)
	case module == "LockAll":
		return loadLockAll(module, m)
	case module == "KazooQueue":
		return loadKazooQueue(module, m)
	case module == "Semaphore":
		return loadSemaphore(module, m)
	case module == "SemaphoreForeign":
		return loadSemaphoreForeign(module, m)
	case module == "Rewind":
		return loadRewind(module, m)
	case module == "OwnWatch":
		return loadOwnWatch(module, m)
	}
	return nil, fmt.Errorf("specs: no model of module %s", module)
}

// instance adapts an explore.Spec to Instance.
type instance[S any] struct {
	spec   *explore.Spec[S]
	format func(*S) string
}

// Name implements Instance.
func (in *instance[S]) Name() string { return in.spec.Name }

// Check implements Instance.
func (in *instance[S]) Check(opt explore.Options) (*Outcome, error) {
	res, err := explore.Check(in.spec, opt)
	if err != nil {
		return nil, err
	}
	o := &Outcome{
		Verdict: res.Verdict, Property: res.Property, Param: res.Param,
		Distinct: res.Distinct, Generated: res.Generated, Depth: res.Depth,
		TraceLoop: res.TraceLoop, TraceStutters: res.TraceStutters,
		Duration: res.Duration, Workers: res.Workers, Mode: res.Mode,
	}
	var b strings.Builder
	for i, st := range res.Trace {
		o.TraceActions = append(o.TraceActions, st.Action)
		vars := map[string]string{}
		for _, b := range in.spec.View(&st.State) {
			vars[b.Name] = b.Value.String()
		}
		o.TraceStates = append(o.TraceStates, vars)
		label := st.Action
		if i > 0 {
			label = in.spec.LabelString(st.Label)
		}
		if i == res.TraceLoop {
			label += "   <- the cycle starts here"
		}
		fmt.Fprintf(&b, "%d: %s\n%s\n", i+1, label, in.format(&st.State))
	}
	switch {
	case res.TraceStutters:
		fmt.Fprintf(&b, "%d: Stuttering\n", len(res.Trace)+1)
	case res.TraceLoop >= 0:
		fmt.Fprintf(&b, "%d: Back to state %d\n", len(res.Trace)+1, res.TraceLoop+1)
	}
	o.Trace = b.String()
	return o, nil
}

// MatchTLC implements Instance.
func (in *instance[S]) MatchTLC(actions []string, states []map[string]string, loop int, stutters bool) (string, error) {
	steps, err := explore.MatchTrace(in.spec, actions, states)
	if err != nil {
		return "", err
	}
	if loop >= 0 || stutters {
		prop, _, err := explore.CheckLasso(in.spec, steps, loop, stutters)
		return prop, err
	}
	last := &steps[len(steps)-1].State
	for _, inv := range in.spec.Invariants {
		if !inv.Holds(last) {
			return inv.Name, nil
		}
	}
	if len(steps) > 1 {
		for _, a := range in.spec.Actions {
			if !a.Holds(&steps[len(steps)-2].State, last) {
				return a.Name, nil
			}
		}
	}
	if in.spec.CheckDeadlock {
		succ := 0
		in.spec.Next(last, func(model.Label, *S) { succ++ })
		if succ == 0 {
			return "", nil // a deadlock, which TLC reports without a property
		}
	}
	return "", fmt.Errorf("the trace replays in the model but its end violates no property of the config")
}

// mirror is what every model's Spec gives the explorer.
type mirror[S any] interface {
	model.Machine[S]
	Format(s *S) string
}

// encoder is a state type with its canonical encoding.
type encoder[S any] interface {
	*S
	AppendEncoding(b []byte) []byte
}

// view is the explorer's view of sp under name, without properties;
// actionName names a label's action (its package's ActionName, or sp's).
func view[S any, P encoder[S]](name string, sp mirror[S], actionName func(model.Label) string) *explore.Spec[S] {
	return &explore.Spec[S]{
		Name:        name,
		Init:        func() []S { return []S{sp.Init()} },
		Next:        sp.Next,
		Step:        sp.Step,
		Encode:      func(b []byte, s *S) []byte { return P(s).AppendEncoding(b) },
		ActionName:  actionName,
		LabelString: sp.LabelString,
		View:        sp.TLA,
	}
}

// invariantsNamed looks the named invariants up in module's table, in
// the config's order.
func invariantsNamed[S any](module string, table map[string]func(*S) bool, names []string) ([]explore.Invariant[S], error) {
	var out []explore.Invariant[S]
	for _, name := range names {
		f, ok := table[name]
		if !ok {
			return nil, fmt.Errorf("specs: %s has no invariant %s", module, name)
		}
		out = append(out, explore.Invariant[S]{Name: name, Holds: f})
	}
	return out, nil
}

// specNamed returns the specification config m names, which must be one
// of module's names.
func specNamed(module string, m tlccfg.Model, names ...string) (string, error) {
	specName, _, err := specIn(module, m, nil, func(name string, _ struct{}) bool { return slices.Contains(names, name) })
	return specName, err
}

// variant is what a specification of a recipe's modules runs: the
// recipe's variant (or module) and whether the specification is fair.
type variant[V any] struct {
	variant V
	fair    bool
}

// specIn returns the specification config m names and what specs says of
// it; it must be in specs (if not nil) and, if ok is not nil, ok for
// module.
func specIn[V any](module string, m tlccfg.Model, specs map[string]V, ok func(string, V) bool) (string, V, error) {
	var v V
	specName, err := specOf(m)
	if err != nil {
		return "", v, err
	}
	v, found := specs[specName]
	if (specs != nil && !found) || (ok != nil && !ok(specName, v)) {
		return "", v, fmt.Errorf("specs: module %s has no specification %s", module, specName)
	}
	return specName, v, nil
}

// build finishes reading a module's constants k from r and builds its
// mirror with them.
func build[K, Sp any](r *constReader, k K, newSpec func(K) (Sp, error)) (Sp, error) {
	if err := r.done(); err != nil {
		var none Sp
		return none, err
	}
	return newSpec(k)
}

// newInstance is the model of config m of module under its specification
// specName: es (err: the error building it) named as TLC names it, with
// the config's deadlock check, its states printed by format.
func newInstance[S any](module, specName string, m tlccfg.Model, es *explore.Spec[S], err error, format func(*S) string) (Instance, error) {
	if err != nil {
		return nil, err
	}
	es.Name = module + "!" + specName
	es.CheckDeadlock = m.CheckDeadlock
	return &instance[S]{spec: es, format: format}, nil
}

// constants reads a config's CONSTANTS: each name in ints must be a
// natural number, each in bools TRUE or FALSE, each in strs a string, and
// clients a set of model values; a constant the module does not declare,
// or a missing one, is an error. The clients are returned in TLC's order (sorted by name).
type constReader struct {
	m    tlccfg.Model
	used map[string]bool
	err  error
}

// lockConstants reads the constants both lock specs declare.
func (r *constReader) lockConstants() recipe.Constants {
	k := r.recipeConstants()
	k.AsyncDelete = r.bool("AsyncDelete")
	return k
}

// recipeConstants reads the constants every recipe declares (Semaphore's
// are these: it has no AsyncDelete).
func (r *constReader) recipeConstants() recipe.Constants {
	return recipe.Constants{
		Clients:       r.modelValues("Clients"),
		MaxRequests:   r.nat("MaxRequests"),
		MaxSeq:        r.nat("MaxSeq"),
		MaxFaults:     r.nat("MaxFaults"),
		WithExpiry:    r.bool("WithExpiry"),
		WithReplyLoss: r.bool("WithReplyLoss"),
		WithPause:     r.bool("WithPause"),
		WithCancel:    r.bool("WithCancel"),
	}
}

// sharedLockConstants reads SharedLock's constants.
func (r *constReader) sharedLockConstants() sharedlock.Constants {
	return sharedlock.Constants{Constants: r.lockConstants(), WithDowngrade: r.bool("WithDowngrade")}
}

func newConstReader(m tlccfg.Model) *constReader { return &constReader{m: m, used: map[string]bool{}} }

func (r *constReader) get(name string) (string, bool) {
	r.used[name] = true
	v, ok := r.m.Constant(name)
	if !ok && r.err == nil {
		r.err = fmt.Errorf("specs: constant %s is not assigned a value", name)
	}
	return v, ok
}

func (r *constReader) nat(name string) int {
	v, ok := r.get(name)
	if !ok {
		return 0
	}
	n, err := strconv.Atoi(v)
	if (err != nil || n < 0) && r.err == nil {
		r.err = fmt.Errorf("specs: constant %s = %s: want a natural number", name, v)
	}
	return n
}

func (r *constReader) bool(name string) bool {
	v, ok := r.get(name)
	if !ok {
		return false
	}
	if v != "TRUE" && v != "FALSE" && r.err == nil {
		r.err = fmt.Errorf("specs: constant %s = %s: want TRUE or FALSE", name, v)
	}
	return v == "TRUE"
}

// str reads a string constant ("reread"), returned without its quotes.
func (r *constReader) str(name string) string {
	v, ok := r.get(name)
	if !ok {
		return ""
	}
	inner, found := strings.CutPrefix(v, `"`)
	inner, found2 := strings.CutSuffix(inner, `"`)
	if (!found || !found2) && r.err == nil {
		r.err = fmt.Errorf("specs: constant %s = %s: want a string", name, v)
	}
	return inner
}

// modelValues reads a set of model values, in TLC's order (by name).
func (r *constReader) modelValues(name string) []string {
	v, ok := r.get(name)
	if !ok {
		return nil
	}
	inner, found := strings.CutPrefix(v, "{")
	inner, found2 := strings.CutSuffix(inner, "}")
	if !found || !found2 {
		if r.err == nil {
			r.err = fmt.Errorf("specs: constant %s = %s: want a set of model values", name, v)
		}
		return nil
	}
	var out []string
	for _, e := range strings.Split(inner, ",") {
		e = strings.TrimSpace(e)
		if e == "" {
			continue
		}
		if _, err := strconv.Atoi(e); err == nil || strings.ContainsAny(e, `"{}<>`) || e == "TRUE" || e == "FALSE" {
			if r.err == nil {
				r.err = fmt.Errorf("specs: constant %s: %s is not a model value", name, e)
			}
			return nil
		}
		out = append(out, e)
	}
	// TLC orders model values by name.
	sort.Strings(out)
	return out
}

// fail records the first error.
func (r *constReader) fail(format string, args ...any) {
	if r.err == nil {
		r.err = fmt.Errorf(format, args...)
	}
}

// done returns the first error, or an error naming constants the config
// assigns that the module does not declare.
func (r *constReader) done() error {
	if r.err != nil {
		return r.err
	}
	for _, c := range r.m.Constants {
		if !r.used[c.Name] {
			return fmt.Errorf("specs: the config assigns %s, which the module does not declare", c.Name)
		}
		if c.Subst {
			return fmt.Errorf("specs: %s <- %s: substitutions are not mirrored", c.Name, c.Value)
		}
	}
	return nil
}

// specOf returns the specification a config names: SPECIFICATION, or
// "Spec" for INIT Init / NEXT Next.
func specOf(m tlccfg.Model) (string, error) {
	switch {
	case m.Specification != "":
		return m.Specification, nil
	case m.Init == "Init" && m.Next == "Next":
		return "Spec", nil
	}
	return "", fmt.Errorf("specs: config names neither SPECIFICATION nor INIT Init / NEXT Next (INIT %q, NEXT %q)", m.Init, m.Next)
}
