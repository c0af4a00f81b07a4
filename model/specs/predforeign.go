package specs

import (
	"fmt"

	"github.com/zklock/zklock/internal/tlccfg"
	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/predforeign"
	"github.com/zklock/zklock/model/predlock"
)

// loadPredForeign builds the instance of a PredecessorLockForeign config
// (ForeignSpec): PredecessorLock's invariants and action properties on
// the module's steps, with FTypeOK for TypeOK, and the module's own.
func loadPredForeign(module string, m tlccfg.Model) (Instance, error) {
	if m.Specification != "ForeignSpec" {
		return nil, fmt.Errorf("specs: %s has no specification %s", module, m.Specification)
	}
	var watchOwn bool
	var stranger string
	k, err := predLockConstants(newConstReader(m), func(r *constReader) {
		watchOwn = r.bool("WatchOwn")
		stranger, _ = r.get("Stranger")
	})
	if err != nil {
		return nil, err
	}
	sp, err := predforeign.New(predforeign.Constants{Constants: k, WatchOwn: watchOwn, Stranger: stranger})
	if err != nil {
		return nil, err
	}
	own := map[string]func(*predlock.State) bool{
		"FTypeOK":                   sp.FTypeOK,
		"BelievesOnlyWhileNotified": sp.BelievesOnlyWhileNotified,
		"BeliefExclusion":           sp.BeliefExclusion,
	}
	var base []string
	for _, name := range m.Invariants {
		if own[name] == nil {
			base = append(base, name)
		}
	}
	inner, err := PredLockSpec(sp.Spec, false, base, m.Properties)
	if err != nil {
		return nil, err
	}
	es := view[predlock.State](module, sp, sp.ActionName)
	es.Actions, es.Temporal = inner.Actions, inner.Temporal
	byName := map[string]explore.Invariant[predlock.State]{}
	for _, inv := range inner.Invariants {
		byName[inv.Name] = inv
	}
	for name, f := range own {
		byName[name] = explore.Invariant[predlock.State]{Name: name, Holds: f}
	}
	for _, name := range m.Invariants { // in the config's order, as TLC checks them
		es.Invariants = append(es.Invariants, byName[name])
	}
	return newInstance(module, m.Specification, m, es, nil, sp.Format)
}
