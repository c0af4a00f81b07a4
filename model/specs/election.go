package specs

import (
	"fmt"

	"github.com/zklock/zklock/internal/tlccfg"
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/election"
	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/predlock"
)

// electionSpecs maps each specification of Election to its module and
// whether it is fair.
var electionSpecs = map[string]variant[election.Module]{
	"Spec":         {election.Base, false},
	"FairSpec":     {election.Base, true},
	"NotifySpec":   {election.Notify, false},
	"KeepSpec":     {election.Keep, false},
	"KeepFairSpec": {election.Keep, true},
	"HandOffSpec":  {election.HandOff, false},
}

func loadElection(module string, m tlccfg.Model) (Instance, error) {
	specName, which, err := specIn(module, m, electionSpecs, nil)
	if err != nil {
		return nil, err
	}
	var e election.Constants
	k, err := predLockConstants(newConstReader(m), func(r *constReader) {
		e = election.Constants{Observers: r.modelValues("Observers"), MaxProclaims: r.nat("MaxProclaims"),
			WatchVacancy: r.bool("WatchVacancy"), LeadersResign: r.bool("LeadersResign"),
			HeadBySeq: r.bool("HeadBySeq"), WithObserverLoss: r.bool("WithObserverLoss"),
			NextOnDelete: r.bool("NextOnDelete"), ReportFilter: r.bool("ReportFilter")}
	})
	if err != nil {
		return nil, err
	}
	sp, err := election.New(k, e, which.variant)
	if err != nil {
		return nil, err
	}
	es, err := electionSpec(sp, which.fair, m.Invariants, m.Properties)
	return newInstance(module, specName, m, es, err, sp.Format)
}

// electionInvariants are Election's invariants: its own, and
// PredecessorLock's under Election's names.
func electionInvariants(sp *election.Spec) map[string]func(*election.State) bool {
	lock := func(f func(*predlock.State) bool) func(*election.State) bool {
		return func(s *election.State) bool { return f(&s.State) }
	}
	return map[string]func(*election.State) bool{
		"TypeOK":          sp.TypeOK,
		"AtMostOneLeader": sp.AtMostOneLeader,
		"NoHerd":          lock(sp.NoHerd),
		"NoOrphans":       lock((*predlock.State).NoOrphans),
		"KnownNodeExists": lock(sp.KnownNodeExists),
		"ObservedIsHead":  sp.ObservedIsHead,
	}
}

// electionSpec is the explorer's view of sp with the config's invariants
// and properties, and with FairSpec's (KeepFairSpec's) fairness if fair.
func electionSpec(sp *election.Spec, fair bool, invariants, properties []string) (*explore.Spec[election.State], error) {
	es := view[election.State]("Election", sp, election.ActionName)
	var err error
	if es.Invariants, err = invariantsNamed("Election", electionInvariants(sp), invariants); err != nil {
		return nil, err
	}
	acts := map[string]func(s, t *election.State) bool{
		"ObservedEpochsIncrease": sp.ObservedEpochsIncrease,
		"FencedLeadership":       func(s, t *election.State) bool { return sp.FencedSafety(&s.State, &t.State) },
	}
	candidates := func(i int) string { return sp.Clients[i] }
	for _, name := range properties {
		if f, ok := acts[name]; ok {
			es.Actions = append(es.Actions, explore.ActionProperty[election.State]{Name: name, Holds: f})
			continue
		}
		switch name {
		case "StarvationFree":
			es.Temporal = append(es.Temporal, explore.LeadsTo[election.State]{Name: name, N: sp.N(), Param: candidates,
				P: func(s *election.State, c int) bool { return s.Acquiring(c) },
				Q: func(s *election.State, c int) bool { return s.Holds(c) }})
		case "ObserversLearn":
			es.Temporal = append(es.Temporal, explore.LeadsTo[election.State]{Name: name, N: len(sp.Observers),
				Param: func(o int) string { return sp.Observers[o] },
				P:     sp.Misreports, Q: sp.Learned})
		case "ObserversLearnEvenLost":
			es.Temporal = append(es.Temporal, explore.LeadsTo[election.State]{Name: name, N: len(sp.Observers),
				Param: func(o int) string { return sp.Observers[o] },
				P:     sp.MisreportsEvenLost, Q: sp.LearnedEvenLost})
		default:
			return nil, fmt.Errorf("specs: Election has no property %s", name)
		}
	}
	if fair {
		es.Fairness = electionFairness(sp)
	}
	return es, nil
}

// electionFairness is FairSpec's (KeepFairSpec's) fairness:
// WF_vars(Progress(c)) for each candidate, the lock's other conditions
// (predLockFairness after its Progress), and WF_vars(Observe(o)) for each
// observer.
func electionFairness(sp *election.Spec) []explore.Fairness[election.State] {
	var fs []explore.Fairness[election.State]
	for c := range sp.Clients {
		fs = append(fs, explore.Fairness[election.State]{
			Name: "Progress(" + sp.Clients[c] + ")",
			Takes: func(_ *election.State, l model.Label) bool {
				return int(l.Client) == c && sp.IsProgress(l)
			},
		})
	}
	for _, f := range predLockFairness(sp.Spec)[sp.N():] {
		takes := f.Takes
		fs = append(fs, explore.Fairness[election.State]{Name: f.Name,
			Takes: func(s *election.State, l model.Label) bool {
				return l.Action < election.ActProclaim && takes(&s.State, l)
			}})
	}
	for o := range sp.Observers {
		fs = append(fs, explore.Fairness[election.State]{
			Name: "Observe(" + sp.Observers[o] + ")",
			Takes: func(_ *election.State, l model.Label) bool {
				return int(l.Client) == o && election.IsObserverAction(l.Action)
			},
		})
	}
	return fs
}
