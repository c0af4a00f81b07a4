package specs

import (
	"fmt"
	"slices"

	"github.com/zklock/zklock/internal/tlccfg"
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/predmarked"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/zk"
)

// predMarkedSpecs maps each specification of the marker's modules
// (model/predmarked) to whether it is the Forged module's and whether it
// is fair.
var predMarkedSpecs = map[string]struct{ forged, fair bool }{
	"MSpec":     {false, false},
	"MFairSpec": {false, true},
	"FSpec":     {true, false},
}

// isPredMarked reports whether module is mirrored by model/predmarked.
func isPredMarked(module string) bool {
	return module == "PredecessorLockMarked" || module == "PredecessorLockMarkedForged"
}

func loadPredMarked(module string, m tlccfg.Model) (Instance, error) {
	specName, which, err := specIn(module, m, predMarkedSpecs, func(_ string, w struct{ forged, fair bool }) bool {
		return w.forged == (module == "PredecessorLockMarkedForged")
	})
	if err != nil {
		return nil, err
	}
	var plain []string
	var rule string
	var forgery bool
	r := newConstReader(m)
	k, err := predLockConstants(r, func(r *constReader) {
		plain = r.modelValues("Plain")
		rule = r.str("MarkRule")
		forgery = r.bool("WithForgery")
	})
	if err != nil {
		return nil, err
	}
	mk := predmarked.Constants{Constants: k, WithForgery: forgery}
	if mk.MarkRule, err = predmarked.ParseMarkRule(rule); err != nil {
		return nil, err
	}
	for _, p := range plain {
		i := slices.Index(k.Clients, p)
		if i < 0 {
			return nil, fmt.Errorf("specs: Plain client %s is not in Clients", p)
		}
		mk.Plain = append(mk.Plain, i)
	}
	sp, err := predmarked.New(mk, which.forged)
	if err != nil {
		return nil, err
	}
	es, err := PredMarkedSpec(sp, which.fair, m.Invariants, m.Properties)
	return newInstance(module, specName, m, es, err, sp.Format)
}

// PredMarkedSpec is the explorer's view of sp with the named invariants
// and properties, and with MFairSpec's fairness if fair.
func PredMarkedSpec(sp *predmarked.Spec, fair bool, invariants, properties []string) (*explore.Spec[predmarked.State], error) {
	return markedSpec(sp, sp, predmarked.ActionName, fair, invariants, properties)
}

// markedMirror is a Go mirror whose state is predmarked's: the marker's
// and the adaptive marker's.
type markedMirror interface {
	mirror[predmarked.State]
	Module() string
	Invariants() map[string]func(*predmarked.State) bool
	ActionProperties() map[string]func(s, t *predmarked.State) bool
	IsProgress(model.Label) bool
}

// markedSpec is the explorer's view of sp, whose constants and clients are
// base's, with the named invariants and properties, and with its
// fairness (the progress steps sp names) if fair.
func markedSpec(sp markedMirror, base *predmarked.Spec, actionName func(model.Label) string, fair bool, invariants, properties []string) (*explore.Spec[predmarked.State], error) {
	es := view[predmarked.State](sp.Module(), sp, actionName)
	var err error
	if es.Invariants, err = invariantsNamed(sp.Module(), sp.Invariants(), invariants); err != nil {
		return nil, err
	}
	acts := sp.ActionProperties()
	for _, name := range properties {
		if f, ok := acts[name]; ok {
			es.Actions = append(es.Actions, explore.ActionProperty[predmarked.State]{Name: name, Holds: f})
			continue
		}
		lt, ok := lockLeadsTo(name, &base.Constants.Constants, func(s *predmarked.State) *recipe.State[zk.NoKind] { return &s.State.State })
		if !ok {
			return nil, fmt.Errorf("specs: %s has no property %s", sp.Module(), name)
		}
		es.Temporal = append(es.Temporal, lt)
	}
	if fair {
		es.Fairness = recipeFairness(base.Clients, sp.IsProgress,
			func(s *predmarked.State, x zk.Session) bool { return s.Abandoned(x) }, true)
	}
	return es, nil
}

var _ model.Machine[predmarked.State] = (*predmarked.Spec)(nil)
