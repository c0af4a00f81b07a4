package specs

import (
	"fmt"

	"github.com/zklock/zklock/internal/tlccfg"
	"github.com/zklock/zklock/model/election"
	"github.com/zklock/zklock/model/elforeign"
	"github.com/zklock/zklock/model/explore"
)

// loadElForeign builds the instance of an ElectionForeign config
// (ForeignSpec): Election's invariants and action properties on the
// module's steps, and the module's own (FTypeOK for TypeOK).
func loadElForeign(module string, m tlccfg.Model) (Instance, error) {
	if _, err := specNamed(module, m, "ForeignSpec"); err != nil {
		return nil, err
	}
	var e election.Constants
	var f elforeign.Constants
	k, err := predLockConstants(newConstReader(m), func(r *constReader) {
		e = election.Constants{Observers: r.modelValues("Observers"), MaxProclaims: r.nat("MaxProclaims"),
			WatchVacancy: r.bool("WatchVacancy"), LeadersResign: r.bool("LeadersResign"),
			HeadBySeq: r.bool("HeadBySeq"), WithObserverLoss: r.bool("WithObserverLoss"),
			NextOnDelete: r.bool("NextOnDelete"), ReportFilter: r.bool("ReportFilter")}
		f.WatchOwn = r.bool("WatchOwn")
		f.Stranger, _ = r.get("Stranger")
	})
	if err != nil {
		return nil, err
	}
	sp, err := elforeign.New(k, e, f)
	if err != nil {
		return nil, err
	}
	table := electionInvariants(sp.Spec)
	table["FTypeOK"] = sp.FTypeOK
	table["BelievesOnlyWhileNotified"] = sp.BelievesOnlyWhileNotified
	table["LeaderBeliefExclusion"] = sp.LeaderBeliefExclusion
	es := view[election.State](module, sp, sp.ActionName)
	if es.Invariants, err = invariantsNamed(module, table, m.Invariants); err != nil {
		return nil, err
	}
	for _, name := range m.Properties {
		if name != "FencedLeadership" {
			return nil, fmt.Errorf("specs: %s has no property %s", module, name)
		}
		es.Actions = append(es.Actions, explore.ActionProperty[election.State]{Name: name,
			Holds: func(s, t *election.State) bool { return sp.FencedSafety(&s.State, &t.State) }})
	}
	return newInstance(module, "ForeignSpec", m, es, nil, sp.Format)
}
