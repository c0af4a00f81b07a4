package specs

import (
	"fmt"
	"slices"

	"github.com/zklock/zklock/internal/tlccfg"
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/predadaptive"
	"github.com/zklock/zklock/model/predmarked"
)

// predAdaptiveSpecs maps each specification of PredecessorLockAdaptive to
// whether it is fair.
var predAdaptiveSpecs = map[string]bool{"ASpec": false, "AFairSpec": true}

// loadPredAdaptive builds the instance of a PredecessorLockAdaptive config:
// PredecessorLockMarked's constants with Adaptive and AdaptRule.
func loadPredAdaptive(module string, m tlccfg.Model) (Instance, error) {
	specName, fair, err := specIn(module, m, predAdaptiveSpecs, nil)
	if err != nil {
		return nil, err
	}
	var plain, adaptive []string
	var rule, adapt string
	var forgery bool
	k, err := predLockConstants(newConstReader(m), func(r *constReader) {
		plain = r.modelValues("Plain")
		adaptive = r.modelValues("Adaptive")
		rule = r.str("MarkRule")
		adapt = r.str("AdaptRule")
		forgery = r.bool("WithForgery")
	})
	if err != nil {
		return nil, err
	}
	ka := predadaptive.Constants{Constants: predmarked.Constants{Constants: k, WithForgery: forgery}}
	if ka.MarkRule, err = predmarked.ParseMarkRule(rule); err != nil {
		return nil, err
	}
	if ka.AdaptRule, err = predadaptive.ParseAdaptRule(adapt); err != nil {
		return nil, err
	}
	index := func(names []string) ([]int, error) {
		var is []int
		for _, p := range names {
			i := slices.Index(k.Clients, p)
			if i < 0 {
				return nil, fmt.Errorf("specs: client %s is not in Clients", p)
			}
			is = append(is, i)
		}
		return is, nil
	}
	if ka.Plain, err = index(plain); err != nil {
		return nil, err
	}
	if ka.Adaptive, err = index(adaptive); err != nil {
		return nil, err
	}
	sp, err := predadaptive.New(ka)
	if err != nil {
		return nil, err
	}
	es, err := PredAdaptiveSpec(sp, fair, m.Invariants, m.Properties)
	return newInstance(module, specName, m, es, err, sp.Format)
}

// PredAdaptiveSpec is the explorer's view of sp with the named invariants
// and properties, and with AFairSpec's fairness if fair.
func PredAdaptiveSpec(sp *predadaptive.Spec, fair bool, invariants, properties []string) (*explore.Spec[predmarked.State], error) {
	return markedSpec(sp, sp.Spec, predadaptive.ActionName, fair, invariants, properties)
}

var _ model.Machine[predmarked.State] = (*predadaptive.Spec)(nil)
