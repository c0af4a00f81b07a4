package specs

import (
	"fmt"

	"github.com/zklock/zklock/internal/tlccfg"
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/connloss"
	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/sharedlock"
	"github.com/zklock/zklock/model/zk"
)

// connLossModules are the connection-loss modules (model/connloss): the
// recipe each INSTANCEs ConnLoss for, and whether it is the control
// LostWatchWaits.
var connLossModules = map[string]struct {
	recipe string
	waits  bool
}{
	"PredecessorLockConnLoss":       {"PredecessorLock", false},
	"PredecessorLockLostWatchWaits": {"PredecessorLock", true},
	"SharedLockConnLoss":            {"SharedLock", false},
	"SharedLockLostWatchWaits":      {"SharedLock", true},
}

// connLossSpecs maps each of their specifications to whether it is the
// control's and whether it is fair.
var connLossSpecs = map[string]struct{ waits, fair bool }{
	"LSpec":      {false, false},
	"LFairSpec":  {false, true},
	"LWFairSpec": {true, true},
}

// isConnLoss reports whether module is mirrored by model/connloss.
func isConnLoss(module string) bool { _, ok := connLossModules[module]; return ok }

// loadConnLoss reads the recipe's constants and MaxLost, builds the
// recipe's model and explorer view (its properties and fairness) and wraps
// them in the connection-loss module.
func loadConnLoss(module string, m tlccfg.Model) (Instance, error) {
	mod := connLossModules[module]
	specName, err := specOf(m)
	if err != nil {
		return nil, err
	}
	which, ok := connLossSpecs[specName]
	if !ok || which.waits != mod.waits {
		return nil, fmt.Errorf("specs: module %s has no specification %s", module, specName)
	}
	w := wrapping{name: module + "!" + specName, waits: mod.waits, fair: which.fair, m: m}
	// LTypeOK is the recipe's TypeOK with lost's bound (lift puts it back).
	for _, name := range m.Invariants {
		if name == "LTypeOK" {
			name = "TypeOK"
		}
		w.invs = append(w.invs, name)
	}
	r := newConstReader(m)
	w.maxLost = r.nat("MaxLost")
	if mod.recipe == "PredecessorLock" {
		k, err := predLockConstants(r, nil)
		return wrapConnLoss[predlock.Constants, predlock.State, zk.NoKind](w, k, err,
			func(k predlock.Constants) (*predlock.Spec, error) { return predlock.New(k, predlock.Base) }, PredLockSpec)
	}
	k := r.sharedLockConstants()
	return wrapConnLoss[sharedlock.Constants, sharedlock.State, sharedlock.Kind](w, k, r.done(),
		func(k sharedlock.Constants) (*sharedlock.Spec, error) { return sharedlock.New(k, sharedlock.Base) }, SharedLockSpec)
}

// wrapping is what loadConnLoss read from the config for wrapConnLoss.
type wrapping struct {
	name        string
	maxLost     int
	waits, fair bool
	invs        []string // the config's invariants, LTypeOK as TypeOK
	m           tlccfg.Model
}

// wrapConnLoss builds the recipe from its constants k (err: reading them
// failed) and its explorer view, and wraps both in the connection-loss
// module: the view's properties and fairness lifted onto its states.
func wrapConnLoss[C, S any, K zk.Kind, R connloss.Recipe[S, K]](w wrapping, k C, err error, build func(C) (R, error),
	view func(R, bool, []string, []string) (*explore.Spec[S], error)) (Instance, error) {
	if err != nil {
		return nil, err
	}
	r, err := build(k)
	if err != nil {
		return nil, err
	}
	inner, err := view(r, w.fair, w.invs, w.m.Properties)
	if err != nil {
		return nil, err
	}
	sp, err := connloss.New(r, w.maxLost, w.waits)
	if err != nil {
		return nil, err
	}
	es := &explore.Spec[connloss.State[S]]{
		Name:          w.name,
		Init:          func() []connloss.State[S] { return []connloss.State[S]{sp.Init()} },
		Next:          sp.Next,
		Step:          sp.Step,
		Encode:        sp.AppendEncoding,
		ActionName:    sp.ActionName,
		LabelString:   sp.LabelString,
		View:          sp.TLA,
		CheckDeadlock: w.m.CheckDeadlock,
	}
	lift(es, inner, func(s *connloss.State[S]) *S { return &s.Lock }, w.m.Invariants, sp.TypeOK, sp.IsBase)
	return &instance[connloss.State[S]]{spec: es, format: sp.Format}, nil
}

// lift adds inner's properties and fairness to es, whose states wrap
// inner's (at returns the wrapped state): the invariants under the
// config's names (names[i] for inner's i-th), inner's TypeOK replaced by
// typeOK; the action and leads-to properties as they are; the fairness
// conditions on inner's steps only (base), since a wrapper's own steps are
// faults with no fairness.
func lift[S, T any](es *explore.Spec[T], inner *explore.Spec[S], at func(*T) *S, names []string,
	typeOK func(*T) bool, base func(model.Label) bool) {
	for i, inv := range inner.Invariants {
		holds := inv.Holds
		f := func(s *T) bool { return holds(at(s)) }
		if inv.Name == "TypeOK" {
			f = typeOK
		}
		es.Invariants = append(es.Invariants, explore.Invariant[T]{Name: names[i], Holds: f})
	}
	for _, a := range inner.Actions {
		holds := a.Holds
		es.Actions = append(es.Actions, explore.ActionProperty[T]{Name: a.Name,
			Holds: func(s, t *T) bool { return holds(at(s), at(t)) }})
	}
	for _, lt := range inner.Temporal {
		p, q := lt.P, lt.Q
		es.Temporal = append(es.Temporal, explore.LeadsTo[T]{Name: lt.Name, N: lt.N, Param: lt.Param,
			P: func(s *T, i int) bool { return p(at(s), i) },
			Q: func(s *T, i int) bool { return q(at(s), i) }})
	}
	for _, f := range inner.Fairness {
		takes := f.Takes
		es.Fairness = append(es.Fairness, explore.Fairness[T]{Name: f.Name,
			Takes: func(s *T, l model.Label) bool { return base(l) && takes(at(s), l) }})
	}
}
