package specs

import (
	"fmt"

	"github.com/zklock/zklock/internal/tlccfg"
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/predext"
)

// predExtSpecs maps each specification of the modules that extend
// PredecessorLock with a variable (model/predext) to its module and
// whether it is fair.
var predExtSpecs = map[string]struct {
	module predext.Module
	fair   bool
}{
	"GSpec":      {predext.Guard, false},
	"USpec":      {predext.GuardUnchecked, false},
	"FSpec":      {predext.CancelInFlight, false},
	"FFairSpec":  {predext.CancelInFlight, true},
	"NWFairSpec": {predext.CancelNoWait, true},
	"LSpec":      {predext.ConnLoss, false},
	"LFairSpec":  {predext.ConnLoss, true},
	"LWFairSpec": {predext.LostWatchWaits, true},
}

// isPredExt reports whether module is mirrored by model/predext.
func isPredExt(module string) bool {
	for _, w := range predExtSpecs {
		if w.module.Name() == module {
			return true
		}
	}
	return false
}

func loadPredExt(module string, m tlccfg.Model) (Instance, error) {
	specName, err := specOf(m)
	if err != nil {
		return nil, err
	}
	which, ok := predExtSpecs[specName]
	if !ok || which.module.Name() != module {
		return nil, fmt.Errorf("specs: module %s has no specification %s", module, specName)
	}
	var more func(*constReader)
	maxLost := 0
	if which.module == predext.ConnLoss || which.module == predext.LostWatchWaits {
		more = func(r *constReader) { maxLost = r.nat("MaxLost") }
	}
	k, err := predLockConstants(newConstReader(m), more)
	if err != nil {
		return nil, err
	}
	sp, err := predext.New(k, which.module)
	if err != nil {
		return nil, err
	}
	sp.MaxLost = maxLost
	es, err := predExtSpec(sp, which.fair, m.Invariants, m.Properties)
	if err != nil {
		return nil, err
	}
	es.Name = module + "!" + specName
	es.CheckDeadlock = m.CheckDeadlock
	return &instance[predext.State]{spec: es, format: sp.Format}, nil
}

// predExtSpec is the explorer's view of sp: PredecessorLock's properties
// and fairness (PredLockSpec) on the embedded state, and the module's own.
func predExtSpec(sp *predext.Spec, fair bool, invariants, properties []string) (*explore.Spec[predext.State], error) {
	var innerInvs, innerProps []string
	es := &explore.Spec[predext.State]{
		Name:        sp.Module.Name(),
		Init:        func() []predext.State { return []predext.State{sp.Init()} },
		Next:        sp.Next,
		Step:        sp.Step,
		Encode:      func(b []byte, s *predext.State) []byte { return s.AppendEncoding(b) },
		ActionName:  sp.ActionName,
		LabelString: sp.LabelString,
		View:        sp.TLA,
	}
	// Split off the module's own properties; the rest are PredecessorLock's.
	for _, name := range invariants {
		if name == "GTypeOK" || name == "FTypeOK" || name == "LTypeOK" {
			innerInvs = append(innerInvs, "TypeOK")
		} else {
			innerInvs = append(innerInvs, name)
		}
	}
	for _, name := range properties {
		if name != "GuardedExclusion" {
			innerProps = append(innerProps, name)
		}
	}
	inner, err := PredLockSpec(sp.Spec, false, innerInvs, innerProps)
	if err != nil {
		return nil, err
	}
	for i, inv := range inner.Invariants {
		name, holds := invariants[i], inv.Holds
		if inv.Name == "TypeOK" {
			es.Invariants = append(es.Invariants, explore.Invariant[predext.State]{Name: name, Holds: sp.TypeOK})
			continue
		}
		es.Invariants = append(es.Invariants, explore.Invariant[predext.State]{Name: name,
			Holds: func(s *predext.State) bool { return holds(&s.State) }})
	}
	acts := map[string]explore.ActionProperty[predext.State]{
		"GuardedExclusion": {Name: "GuardedExclusion", Holds: sp.GuardedExclusion}}
	for _, a := range inner.Actions {
		holds := a.Holds
		acts[a.Name] = explore.ActionProperty[predext.State]{Name: a.Name,
			Holds: func(s, t *predext.State) bool { return holds(&s.State, &t.State) }}
	}
	for _, name := range properties {
		if a, ok := acts[name]; ok {
			es.Actions = append(es.Actions, a)
		}
	}
	for _, lt := range inner.Temporal {
		p, q := lt.P, lt.Q
		es.Temporal = append(es.Temporal, explore.LeadsTo[predext.State]{Name: lt.Name, N: lt.N, Param: lt.Param,
			P: func(s *predext.State, i int) bool { return p(&s.State, i) },
			Q: func(s *predext.State, i int) bool { return q(&s.State, i) }})
	}
	if fair {
		for _, f := range predLockFairness(sp.Spec) {
			takes := f.Takes
			es.Fairness = append(es.Fairness, explore.Fairness[predext.State]{Name: f.Name,
				Takes: func(s *predext.State, l model.Label) bool {
					return l.Action < predext.ActGuardedWrite && takes(&s.State, l)
				}})
		}
	}
	return es, nil
}
