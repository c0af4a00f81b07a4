package specs

import (
	"github.com/zklock/zklock/internal/tlccfg"
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/predext"
	"github.com/zklock/zklock/model/predlock"
)

// predExtSpecs maps each specification of the modules that extend
// PredecessorLock with a variable (model/predext) to its module and
// whether it is fair.
var predExtSpecs = map[string]variant[predext.Module]{
	"GSpec":      {predext.Guard, false},
	"USpec":      {predext.GuardUnchecked, false},
	"FSpec":      {predext.CancelInFlight, false},
	"FFairSpec":  {predext.CancelInFlight, true},
	"NWFairSpec": {predext.CancelNoWait, true},
}

// isPredExt reports whether module is mirrored by model/predext.
func isPredExt(module string) bool {
	for _, w := range predExtSpecs {
		if w.variant.Name() == module {
			return true
		}
	}
	return false
}

func loadPredExt(module string, m tlccfg.Model) (Instance, error) {
	specName, which, err := specIn(module, m, predExtSpecs, func(_ string, which variant[predext.Module]) bool {
		return which.variant.Name() == module
	})
	if err != nil {
		return nil, err
	}
	k, err := predLockConstants(newConstReader(m), nil)
	if err != nil {
		return nil, err
	}
	sp, err := predext.New(k, which.variant)
	if err != nil {
		return nil, err
	}
	es, err := predExtSpec(sp, which.fair, m.Invariants, m.Properties)
	return newInstance(module, specName, m, es, err, sp.Format)
}

// predExtSpec is the explorer's view of sp: PredecessorLock's properties
// and fairness (PredLockSpec) on the embedded state (lift), and the
// module's own GuardedExclusion.
func predExtSpec(sp *predext.Spec, fair bool, invariants, properties []string) (*explore.Spec[predext.State], error) {
	es := view[predext.State](sp.Module.Name(), sp, sp.ActionName)
	// GTypeOK and FTypeOK are PredecessorLock's TypeOK with the module's
	// variable (lift puts sp.TypeOK in its place); GuardedExclusion is the
	// module's own.
	var innerInvs, innerProps []string
	for _, name := range invariants {
		if name == "GTypeOK" || name == "FTypeOK" {
			name = "TypeOK"
		}
		innerInvs = append(innerInvs, name)
	}
	for _, name := range properties {
		if name != "GuardedExclusion" {
			innerProps = append(innerProps, name)
		}
	}
	inner, err := PredLockSpec(sp.Spec, fair, innerInvs, innerProps)
	if err != nil {
		return nil, err
	}
	lift(es, inner, func(s *predext.State) *predlock.State { return &s.State }, invariants, sp.TypeOK,
		func(l model.Label) bool { return l.Action < predext.ActGuardedWrite })
	// The action properties in the config's order, as TLC checks them.
	acts := map[string]explore.ActionProperty[predext.State]{
		"GuardedExclusion": {Name: "GuardedExclusion", Holds: sp.GuardedExclusion}}
	for _, a := range es.Actions {
		acts[a.Name] = a
	}
	es.Actions = nil
	for _, name := range properties {
		if a, ok := acts[name]; ok {
			es.Actions = append(es.Actions, a)
		}
	}
	return es, nil
}
