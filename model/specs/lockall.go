package specs

import (
	"fmt"

	"github.com/zklock/zklock/internal/tlccfg"
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/lockall"
)

func loadLockAll(module string, m tlccfg.Model) (Instance, error) {
	specName, err := specNamed(module, m, "Spec", "FairSpec")
	if err != nil {
		return nil, err
	}
	r := newConstReader(m)
	sp, err := build(r, lockall.Constants{
		Pairs:            r.nat("Pairs"),
		Singles:          r.nat("Singles"),
		MaxRequests:      r.nat("MaxRequests"),
		MaxFaults:        r.nat("MaxFaults"),
		Order:            lockall.Order(r.str("Order")),
		LostPart:         lockall.LostPart(r.str("LostPart")),
		ReleaseOnFailure: r.bool("ReleaseOnFailure"),
	}, lockall.New)
	if err != nil {
		return nil, err
	}
	es, err := LockAllSpec(sp, specName == "FairSpec", m.Invariants, m.Properties)
	return newInstance(module, specName, m, es, err, sp.Format)
}

// LockAllSpec returns the explorer's view of sp with the named invariants
// and properties, and with FairSpec's fairness if fair.
func LockAllSpec(sp *lockall.Spec, fair bool, invariants, properties []string) (*explore.Spec[lockall.State], error) {
	es := view[lockall.State]("LockAll", sp, lockall.ActionName)
	invs := map[string]func(*lockall.State) bool{
		"TypeOK":          sp.TypeOK,
		"MutualExclusion": sp.MutualExclusion,
		"NoOrphans":       sp.NoOrphans,
	}
	var err error
	if es.Invariants, err = invariantsNamed("LockAll", invs, invariants); err != nil {
		return nil, err
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
