package specs

import (
	"fmt"

	"github.com/zklock/zklock/internal/tlccfg"
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/lockall"
	"github.com/zklock/zklock/model/tla"
)

func loadLockAll(module string, m tlccfg.Model) (Instance, error) {
	if module != "LockAll" {
		return nil, fmt.Errorf("specs: no model of module %s", module)
	}
	specName, err := specOf(m)
	if err != nil {
		return nil, err
	}
	if specName != "Spec" && specName != "FairSpec" {
		return nil, fmt.Errorf("specs: module %s has no specification %s", module, specName)
	}
	r := newConstReader(m)
	k := lockall.Constants{
		Pairs:            r.nat("Pairs"),
		Singles:          r.nat("Singles"),
		MaxRequests:      r.nat("MaxRequests"),
		MaxFaults:        r.nat("MaxFaults"),
		Order:            lockall.Order(r.str("Order")),
		LostPart:         lockall.LostPart(r.str("LostPart")),
		ReleaseOnFailure: r.bool("ReleaseOnFailure"),
	}
	if err := r.done(); err != nil {
		return nil, err
	}
	sp, err := lockall.New(k)
	if err != nil {
		return nil, err
	}
	es, err := LockAllSpec(sp, specName == "FairSpec", m.Invariants, m.Properties)
	if err != nil {
		return nil, err
	}
	es.Name = module + "!" + specName
	es.CheckDeadlock = m.CheckDeadlock
	return &instance[lockall.State]{spec: es, format: sp.Format}, nil
}

// LockAllSpec returns the explorer's view of sp with the named invariants
// and properties, and with FairSpec's fairness if fair.
func LockAllSpec(sp *lockall.Spec, fair bool, invariants, properties []string) (*explore.Spec[lockall.State], error) {
	es := &explore.Spec[lockall.State]{
		Name:        "LockAll",
		Init:        func() []lockall.State { return []lockall.State{sp.Init()} },
		Next:        sp.Next,
		Step:        sp.Step,
		Encode:      func(b []byte, s *lockall.State) []byte { return s.AppendEncoding(b) },
		ActionName:  lockall.ActionName,
		LabelString: sp.LabelString,
		View:        func(s *lockall.State) []tla.Binding { return sp.TLA(s) },
	}
	invs := map[string]func(*lockall.State) bool{
		"TypeOK":          sp.TypeOK,
		"MutualExclusion": sp.MutualExclusion,
		"NoOrphans":       sp.NoOrphans,
	}
	for _, name := range invariants {
		f, ok := invs[name]
		if !ok {
			return nil, fmt.Errorf("specs: LockAll has no invariant %s", name)
		}
		es.Invariants = append(es.Invariants, explore.Invariant[lockall.State]{Name: name, Holds: f})
	}
	for _, name := range properties {
		switch name {
		case "AllOrNothing":
			es.Actions = append(es.Actions, explore.ActionProperty[lockall.State]{Name: name, Holds: sp.AllOrNothing})
		case "LockAllReturns":
			es.Temporal = append(es.Temporal, explore.LeadsTo[lockall.State]{
				Name: name, N: sp.N(),
				P:     func(s *lockall.State, c int) bool { return s.InLockAll(c) },
				Q:     func(s *lockall.State, c int) bool { return !s.InLockAll(c) },
				Param: func(c int) string { return fmt.Sprint(c + 1) },
			})
		default:
			return nil, fmt.Errorf("specs: LockAll has no property %s", name)
		}
	}
	if fair {
		// FairSpec: WF_vars(Progress(c)) for each client c.
		for c := 0; c < sp.N(); c++ {
			es.Fairness = append(es.Fairness, explore.Fairness[lockall.State]{
				Name: fmt.Sprintf("Progress(%d)", c+1),
				Takes: func(_ *lockall.State, l model.Label) bool {
					return int(l.Client) == c && lockall.IsProgress(l)
				},
			})
		}
	}
	return es, nil
}
