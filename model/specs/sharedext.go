package specs

import (
	"fmt"

	"github.com/zklock/zklock/internal/tlccfg"
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/sharedext"
	"github.com/zklock/zklock/model/sharedlock"
)

// sharedExtSpecs maps each specification of the modules that extend
// SharedLock with a variable (model/sharedext) to its module and whether
// it is fair.
var sharedExtSpecs = map[string]struct {
	module sharedext.Module
	fair   bool
}{
	"LSpec":      {sharedext.ConnLoss, false},
	"LFairSpec":  {sharedext.ConnLoss, true},
	"LWFairSpec": {sharedext.LostWatchWaits, true},
}

// isSharedExt reports whether module is mirrored by model/sharedext.
func isSharedExt(module string) bool {
	return module == sharedext.ConnLoss.Name() || module == sharedext.LostWatchWaits.Name()
}

func loadSharedExt(module string, m tlccfg.Model) (Instance, error) {
	specName, err := specOf(m)
	if err != nil {
		return nil, err
	}
	which, ok := sharedExtSpecs[specName]
	if !ok || which.module.Name() != module {
		return nil, fmt.Errorf("specs: module %s has no specification %s", module, specName)
	}
	r := newConstReader(m)
	k := sharedlock.Constants{Constants: r.lockConstants(), WithDowngrade: r.bool("WithDowngrade")}
	maxLost := r.nat("MaxLost")
	if err := r.done(); err != nil {
		return nil, err
	}
	sp, err := sharedext.New(k, which.module, maxLost)
	if err != nil {
		return nil, err
	}
	es, err := sharedExtSpec(sp, which.fair, m.Invariants, m.Properties)
	if err != nil {
		return nil, err
	}
	es.Name = module + "!" + specName
	es.CheckDeadlock = m.CheckDeadlock
	return &instance[sharedext.State]{spec: es, format: sp.Format}, nil
}

// sharedExtSpec is the explorer's view of sp: SharedLock's properties and
// fairness (SharedLockSpec) on the embedded state, LTypeOK on the whole.
func sharedExtSpec(sp *sharedext.Spec, fair bool, invariants, properties []string) (*explore.Spec[sharedext.State], error) {
	es := &explore.Spec[sharedext.State]{
		Name:        sp.Module.Name(),
		Init:        func() []sharedext.State { return []sharedext.State{sp.Init()} },
		Next:        sp.Next,
		Step:        sp.Step,
		Encode:      func(b []byte, s *sharedext.State) []byte { return s.AppendEncoding(b) },
		ActionName:  sp.ActionName,
		LabelString: sp.LabelString,
		View:        sp.TLA,
	}
	innerInvs := make([]string, len(invariants))
	for i, name := range invariants {
		innerInvs[i] = name
		if name == "LTypeOK" {
			innerInvs[i] = "TypeOK"
		}
	}
	inner, err := SharedLockSpec(sp.Spec, fair, innerInvs, properties)
	if err != nil {
		return nil, err
	}
	for i, inv := range inner.Invariants {
		name, holds := invariants[i], inv.Holds
		if name == "LTypeOK" {
			es.Invariants = append(es.Invariants, explore.Invariant[sharedext.State]{Name: name, Holds: sp.TypeOK})
			continue
		}
		es.Invariants = append(es.Invariants, explore.Invariant[sharedext.State]{Name: name,
			Holds: func(s *sharedext.State) bool { return holds(&s.State) }})
	}
	for _, lt := range inner.Temporal {
		p, q := lt.P, lt.Q
		es.Temporal = append(es.Temporal, explore.LeadsTo[sharedext.State]{Name: lt.Name, N: lt.N, Param: lt.Param,
			P: func(s *sharedext.State, i int) bool { return p(&s.State, i) },
			Q: func(s *sharedext.State, i int) bool { return q(&s.State, i) }})
	}
	// Fairness is SharedLock's: on its steps only (the lost calls are
	// faults, with no fairness).
	for _, f := range inner.Fairness {
		takes := f.Takes
		es.Fairness = append(es.Fairness, explore.Fairness[sharedext.State]{Name: f.Name,
			Takes: func(s *sharedext.State, l model.Label) bool {
				return sharedext.IsBase(l) && takes(&s.State, l)
			}})
	}
	return es, nil
}
