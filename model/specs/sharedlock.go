package specs

import (
	"fmt"

	"github.com/zklock/zklock/internal/tlccfg"
	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/sharedlock"
)

// sharedLockSpecs maps each specification of the SharedLock modules to the
// variant whose next-state relation it uses and whether it is fair.
var sharedLockSpecs = map[string]variant[sharedlock.Variant]{
	"Spec":     {sharedlock.Base, false},
	"FairSpec": {sharedlock.Base, true},
	"RASpec":   {sharedlock.DowngradeReleaseAcquire, false},
	"RWPSpec":  {sharedlock.ReaderWatchesPredecessor, false},
	"WSSpec":   {sharedlock.WriterShortcut, false},
	"DLSpec":   {sharedlock.DowngradeLost, false},
}

func loadSharedLock(module string, m tlccfg.Model) (Instance, error) {
	specName, which, err := specIn(module, m, sharedLockSpecs, func(_ string, which variant[sharedlock.Variant]) bool {
		return which.variant == sharedlock.Base || which.variant.Module() == module
	})
	if err != nil {
		return nil, err
	}
	switch module {
	case "SharedLock", "SharedLockDowngradeReleaseAcquire", "SharedLockReaderWatchesPredecessor",
		"SharedLockWriterShortcut", "SharedLockDowngradeLost":
	default:
		return nil, fmt.Errorf("specs: no model of module %s", module)
	}
	r := newConstReader(m)
	sp, err := build(r, r.sharedLockConstants(), func(k sharedlock.Constants) (*sharedlock.Spec, error) {
		return sharedlock.New(k, which.variant)
	})
	if err != nil {
		return nil, err
	}
	es, err := SharedLockSpec(sp, which.fair, m.Invariants, m.Properties)
	return newInstance(module, specName, m, es, err, sp.Format)
}

// SharedLockSpec returns the explorer's view of sp with the named
// invariants and properties, and with FairSpec's fairness if fair.
func SharedLockSpec(sp *sharedlock.Spec, fair bool, invariants, properties []string) (*explore.Spec[sharedlock.State], error) {
	es := view[sharedlock.State](sp.Variant.Module(), sp, sharedlock.ActionName)
	invs := map[string]func(*sharedlock.State) bool{
		"TypeOK":                     sp.TypeOK,
		"WriterExclusion":            sp.WriterExclusion,
		"MutualExclusion":            sp.MutualExclusion,
		"ReadersShare":               sp.ReadersShare,
		"NoHerd":                     sp.NoHerd,
		"NoOrphans":                  (*sharedlock.State).NoOrphans,
		"GrantsInSequenceOrder":      sp.GrantsInSequenceOrder,
		"KnownNodeExists":            sp.KnownNodeExists,
		"ReadersNotBlockedByReaders": sp.ReadersNotBlockedByReaders,
	}
	var err error
	if es.Invariants, err = invariantsNamed(sp.Variant.Module(), invs, invariants); err != nil {
		return nil, err
	}
	for _, name := range properties {
		if name == "NoWriterStarvation" {
			es.Temporal = append(es.Temporal, explore.LeadsTo[sharedlock.State]{Name: name, N: sp.N(),
				P: sp.WantsWrite, Q: sp.HoldsWrite, Param: func(c int) string { return sp.Clients[c] }})
			continue
		}
		lt, ok := lockLeadsTo(name, &sp.Constants.Constants, func(s *sharedlock.State) *recipe.State[sharedlock.Kind] { return &s.State })
		if !ok {
			return nil, fmt.Errorf("specs: %s has no property %s", sp.Variant.Module(), name)
		}
		es.Temporal = append(es.Temporal, lt)
	}
	if fair {
		if !sp.HasFairSpec() {
			return nil, fmt.Errorf("specs: %s has no fair specification", sp.Variant.Module())
		}
		es.Fairness = sharedLockFairness(sp)
	}
	return es, nil
}

// sharedLockFairness is SharedLock!Fairness.
func sharedLockFairness(sp *sharedlock.Spec) []explore.Fairness[sharedlock.State] {
	return recipeFairness(sp.Clients, sp.IsProgress, (*sharedlock.State).Abandoned, true)
}
