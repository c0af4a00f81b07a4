package specs

import (
	"fmt"

	"github.com/zklock/zklock/internal/tlccfg"
	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/semaphore"
)

func loadSemaphore(module string, m tlccfg.Model) (Instance, error) {
	specName, err := specNamed(module, m, "Spec", "FairSpec")
	if err != nil {
		return nil, err
	}
	r := newConstReader(m)
	sp, err := build(r, semaphore.Constants{
		Constants:    r.recipeConstants(),
		MaxLeases:    r.nat("MaxLeases"),
		InternalLock: r.bool("InternalLock"),
		CountFirst:   r.bool("CountFirst"),
		BlindRetry:   r.bool("BlindRetry"),
	}, semaphore.New)
	if err != nil {
		return nil, err
	}
	es, err := SemaphoreSpec(sp, specName == "FairSpec", m.Invariants, m.Properties)
	return newInstance(module, specName, m, es, err, sp.Format)
}

// SemaphoreSpec returns the explorer's view of sp with the named
// invariants and properties, and with FairSpec's fairness if fair.
func SemaphoreSpec(sp *semaphore.Spec, fair bool, invariants, properties []string) (*explore.Spec[semaphore.State], error) {
	type S = semaphore.State
	es := view[S]("Semaphore", sp, semaphore.ActionName)
	invs := map[string]func(*S) bool{
		"TypeOK":                 sp.TypeOK,
		"AtMostMaxHolders":       sp.AtMostMaxHolders,
		"AtMostMaxFencedHolders": sp.AtMostMaxFencedHolders,
		"KnownLeaseExists":       (*S).KnownLeaseExists,
		"NoLeakedLeases":         (*S).NoLeakedLeases,
		"NoHerd":                 (*S).NoHerd,
		"WaiterHoldsInternal":    (*S).WaiterHoldsInternal,
	}
	var err error
	if es.Invariants, err = invariantsNamed("Semaphore", invs, invariants); err != nil {
		return nil, err
	}
	for _, name := range properties {
		if name != "StarvationFree" {
			return nil, fmt.Errorf("specs: Semaphore has no property %s", name)
		}
		// \A c : pc[c] \in Acquiring ~> pc[c] \notin Acquiring
		es.Temporal = append(es.Temporal, explore.LeadsTo[S]{
			Name: name, N: sp.N(),
			P:     func(s *S, c int) bool { return s.PC[c].Acquiring() },
			Q:     func(s *S, c int) bool { return !s.PC[c].Acquiring() },
			Param: func(c int) string { return sp.Clients[c] },
		})
	}
	if fair {
		es.Fairness = semaphoreFairness(sp)
	}
	return es, nil
}

// semaphoreFairness is FairSpec's (lockFairness without DeleteLands).
func semaphoreFairness(sp *semaphore.Spec) []explore.Fairness[semaphore.State] {
	return lockFairness[semaphore.State]{
		clients: sp.Clients, progress: semaphore.IsProgress,
		resume: semaphore.ActResumeClient, expire: semaphore.ActExpireSession,
		abandoned: (*semaphore.State).Abandoned,
	}.conditions()
}
