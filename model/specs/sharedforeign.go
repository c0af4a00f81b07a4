package specs

import (
	"fmt"

	"github.com/zklock/zklock/internal/tlccfg"
	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/sharedforeign"
	"github.com/zklock/zklock/model/sharedlock"
)

// loadSharedForeign builds the instance of a SharedLockForeign config
// (ForeignSpec): SharedLock's invariants on the module's steps, with
// FTypeOK for TypeOK, and the module's own.
func loadSharedForeign(module string, m tlccfg.Model) (Instance, error) {
	if _, err := specNamed(module, m, "ForeignSpec"); err != nil {
		return nil, err
	}
	r := newConstReader(m)
	k := r.sharedLockConstants()
	watchOwn := r.bool("WatchOwn")
	stranger, _ := r.get("Stranger")
	sp, err := build(r, sharedforeign.Constants{Constants: k, WatchOwn: watchOwn, Stranger: stranger}, sharedforeign.New)
	if err != nil {
		return nil, err
	}
	own := map[string]func(*sharedlock.State) bool{
		"FTypeOK":                   sp.FTypeOK,
		"BelievesOnlyWhileNotified": sp.BelievesOnlyWhileNotified,
		"WriterBeliefExclusion":     sp.WriterBeliefExclusion,
	}
	var base []string
	for _, name := range m.Invariants {
		if own[name] == nil {
			base = append(base, name)
		}
	}
	inner, err := SharedLockSpec(sp.Spec, false, base, m.Properties)
	if err != nil {
		return nil, fmt.Errorf("specs: %s: %w", module, err)
	}
	es := view[sharedlock.State](module, sp, sp.ActionName)
	es.Temporal = inner.Temporal
	byName := map[string]explore.Invariant[sharedlock.State]{}
	for _, inv := range inner.Invariants {
		byName[inv.Name] = inv
	}
	for name, f := range own {
		byName[name] = explore.Invariant[sharedlock.State]{Name: name, Holds: f}
	}
	for _, name := range m.Invariants { // in the config's order, as TLC checks them
		es.Invariants = append(es.Invariants, byName[name])
	}
	return newInstance(module, "ForeignSpec", m, es, nil, sp.Format)
}
