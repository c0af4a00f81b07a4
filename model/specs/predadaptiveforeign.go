package specs

import (
	"fmt"

	"github.com/zklock/zklock/internal/tlccfg"
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/predadaptiveforeign"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/zk"
)

// predAdaptiveForeignSpecs maps each specification of
// PredecessorLockAdaptiveForeign to whether it is fair.
var predAdaptiveForeignSpecs = map[string]bool{"AFSpec": false, "AFFairSpec": true}

// loadPredAdaptiveForeign builds the instance of a
// PredecessorLockAdaptiveForeign config: PredecessorLock's constants with
// DataRule and MaxForeignSets.
func loadPredAdaptiveForeign(module string, m tlccfg.Model) (Instance, error) {
	specName, fair, err := specIn(module, m, predAdaptiveForeignSpecs, nil)
	if err != nil {
		return nil, err
	}
	var rule string
	var budget int
	k, err := predLockConstants(newConstReader(m), func(r *constReader) {
		rule = r.str("DataRule")
		budget = r.nat("MaxForeignSets")
	})
	if err != nil {
		return nil, err
	}
	kf := predadaptiveforeign.Constants{Constants: k, MaxForeignSets: budget}
	if kf.DataRule, err = predadaptiveforeign.ParseDataRule(rule); err != nil {
		return nil, err
	}
	sp, err := predadaptiveforeign.New(kf)
	if err != nil {
		return nil, err
	}
	es, err := PredAdaptiveForeignSpec(sp, fair, m.Invariants, m.Properties)
	return newInstance(module, specName, m, es, err, sp.Format)
}

// PredAdaptiveForeignSpec is the explorer's view of sp with the named
// invariants and properties, and with AFFairSpec's fairness if fair.
func PredAdaptiveForeignSpec(sp *predadaptiveforeign.Spec, fair bool, invariants, properties []string) (*explore.Spec[predadaptiveforeign.State], error) {
	type S = predadaptiveforeign.State
	es := view[S](sp.Module(), sp, predadaptiveforeign.ActionName)
	var err error
	if es.Invariants, err = invariantsNamed(sp.Module(), sp.Invariants(), invariants); err != nil {
		return nil, err
	}
	acts := sp.ActionProperties()
	for _, name := range properties {
		if f, ok := acts[name]; ok {
			es.Actions = append(es.Actions, explore.ActionProperty[S]{Name: name, Holds: f})
			continue
		}
		lt, ok := lockLeadsTo(name, &sp.Constants.Constants, func(s *S) *recipe.State[zk.NoKind] { return &s.State.State.State })
		if !ok {
			return nil, fmt.Errorf("specs: %s has no property %s", sp.Module(), name)
		}
		es.Temporal = append(es.Temporal, lt)
	}
	if fair {
		es.Fairness = recipeFairness(sp.Clients, sp.IsProgress,
			func(s *S, x zk.Session) bool { return s.Abandoned(x) }, true)
	}
	return es, nil
}

var _ model.Machine[predadaptiveforeign.State] = (*predadaptiveforeign.Spec)(nil)
