package specs

import (
	"fmt"

	"github.com/zklock/zklock/internal/tlccfg"
	"github.com/zklock/zklock/model/election"
	"github.com/zklock/zklock/model/electionstale"
	"github.com/zklock/zklock/model/explore"
)

// loadElectionStale builds the model of a config of ElectionStaleReads:
// Election's constants and SessionOrder, under StaleSpec.
func loadElectionStale(module string, m tlccfg.Model) (Instance, error) {
	specName, err := specNamed(module, m, "StaleSpec")
	if err != nil {
		return nil, err
	}
	var e election.Constants
	var order bool
	k, err := predLockConstants(newConstReader(m), func(r *constReader) {
		e = election.Constants{Observers: r.modelValues("Observers"), MaxProclaims: r.nat("MaxProclaims"),
			WatchVacancy: r.bool("WatchVacancy"), LeadersResign: r.bool("LeadersResign"),
			HeadBySeq: r.bool("HeadBySeq"), WithObserverLoss: r.bool("WithObserverLoss"),
			NextOnDelete: r.bool("NextOnDelete"), ReportFilter: r.bool("ReportFilter")}
		order = r.bool("SessionOrder")
	})
	if err != nil {
		return nil, err
	}
	el, err := election.New(k, e, election.Base)
	if err != nil {
		return nil, err
	}
	sp, err := electionstale.New(el, order)
	if err != nil {
		return nil, err
	}
	es, err := electionStaleSpec(sp, m.Invariants, m.Properties)
	return newInstance(module, specName, m, es, err, sp.Format)
}

// electionStaleSpec is the explorer's view of sp with the config's
// invariants (StaleTypeOK the module's, the others Election's on its part
// of the state) and action properties (Election's).
func electionStaleSpec(sp *electionstale.Spec, invariants, properties []string) (*explore.Spec[electionstale.State], error) {
	type state = electionstale.State
	es := view[state]("ElectionStaleReads", sp, electionstale.ActionName)
	table := map[string]func(*state) bool{"StaleTypeOK": sp.StaleTypeOK}
	for name, f := range electionInvariants(sp.E) {
		table[name] = func(s *state) bool { return f(&s.E) }
	}
	var err error
	if es.Invariants, err = invariantsNamed("ElectionStaleReads", table, invariants); err != nil {
		return nil, err
	}
	acts := map[string]func(s, t *election.State) bool{
		"ObservedEpochsIncrease": sp.E.ObservedEpochsIncrease,
		"FencedLeadership":       func(s, t *election.State) bool { return sp.E.FencedSafety(&s.State, &t.State) },
	}
	for _, name := range properties {
		f, ok := acts[name]
		if !ok {
			return nil, fmt.Errorf("specs: ElectionStaleReads has no property %s", name)
		}
		es.Actions = append(es.Actions, explore.ActionProperty[state]{Name: name,
			Holds: func(s, t *state) bool { return f(&s.E, &t.E) }})
	}
	return es, nil
}
