package specs

import (
	"fmt"

	"github.com/zklock/zklock/internal/tlccfg"
	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/semaphore"
	"github.com/zklock/zklock/model/semforeign"
)

// loadSemaphoreForeign builds the instance of a SemaphoreForeign config
// (ForeignSpec): Semaphore's invariants on the module's steps, with
// FTypeOK for TypeOK, and the module's own.
func loadSemaphoreForeign(module string, m tlccfg.Model) (Instance, error) {
	if _, err := specNamed(module, m, "ForeignSpec"); err != nil {
		return nil, err
	}
	r := newConstReader(m)
	k := semaphore.Constants{
		Constants:    r.recipeConstants(),
		MaxLeases:    r.nat("MaxLeases"),
		InternalLock: r.bool("InternalLock"),
		CountFirst:   r.bool("CountFirst"),
		BlindRetry:   r.bool("BlindRetry"),
	}
	watchOwn := r.bool("WatchOwn")
	stranger, _ := r.get("Stranger")
	sp, err := build(r, semforeign.Constants{Constants: k, WatchOwn: watchOwn, Stranger: stranger}, semforeign.New)
	if err != nil {
		return nil, err
	}
	own := map[string]func(*semaphore.State) bool{
		"FTypeOK":                   sp.FTypeOK,
		"BelievesOnlyWhileNotified": sp.BelievesOnlyWhileNotified,
		"BeliefWithinMax":           sp.BeliefWithinMax,
	}
	var base []string
	for _, name := range m.Invariants {
		if own[name] == nil {
			base = append(base, name)
		}
	}
	inner, err := SemaphoreSpec(sp.Spec, false, base, m.Properties)
	if err != nil {
		return nil, fmt.Errorf("specs: %s: %w", module, err)
	}
	es := view[semaphore.State](module, sp, sp.ActionName)
	es.Temporal = inner.Temporal
	byName := map[string]explore.Invariant[semaphore.State]{}
	for _, inv := range inner.Invariants {
		byName[inv.Name] = inv
	}
	for name, f := range own {
		byName[name] = explore.Invariant[semaphore.State]{Name: name, Holds: f}
	}
	for _, name := range m.Invariants { // in the config's order, as TLC checks them
		es.Invariants = append(es.Invariants, byName[name])
	}
	return newInstance(module, "ForeignSpec", m, es, nil, sp.Format)
}
