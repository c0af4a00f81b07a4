package specs

import (
	"fmt"

	"github.com/zklock/zklock/internal/tlccfg"
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/sharedlock"
	"github.com/zklock/zklock/model/sharedstale"
	"github.com/zklock/zklock/model/tla"
)

// loadSharedStale builds the model of a SharedLockStaleReads config:
// SharedLock's constants and SessionOrder, specification StaleSpec.
func loadSharedStale(module string, m tlccfg.Model) (Instance, error) {
	specName, err := specOf(m)
	if err != nil {
		return nil, err
	}
	if specName != "StaleSpec" && specName != "StaleFairSpec" {
		return nil, fmt.Errorf("specs: module %s has no specification %s", module, specName)
	}
	r := newConstReader(m)
	k := sharedlock.Constants{Constants: r.lockConstants(), WithDowngrade: r.bool("WithDowngrade")}
	order := r.bool("SessionOrder")
	dupes := r.bool("DeleteDuplicates")
	if err := r.done(); err != nil {
		return nil, err
	}
	sp, err := sharedstale.New(k, order)
	if err != nil {
		return nil, err
	}
	sp.DeleteDuplicates = dupes
	es, err := SharedStaleSpec(sp, m.Invariants, m.Properties)
	if err != nil {
		return nil, err
	}
	if specName == "StaleFairSpec" {
		es.Fairness = sharedStaleFairness(sp)
	}
	es.Name = module + "!" + specName
	es.CheckDeadlock = m.CheckDeadlock
	return &instance[sharedstale.State]{spec: es, format: sp.Format}, nil
}

// SharedStaleSpec returns the explorer's view of sp with the named
// invariants (StaleTypeOK, StaleNoOrphans, and SharedLock's safety
// invariants) and temporal properties (NoOrphansEventually); the module
// states no action property.
func SharedStaleSpec(sp *sharedstale.Spec, invariants, properties []string) (*explore.Spec[sharedstale.State], error) {
	es := &explore.Spec[sharedstale.State]{
		Name:        sharedstale.Module,
		Init:        func() []sharedstale.State { return []sharedstale.State{sp.Init()} },
		Next:        sp.Next,
		Step:        sp.Step,
		Encode:      func(b []byte, s *sharedstale.State) []byte { return s.AppendEncoding(b) },
		ActionName:  sharedstale.ActionName,
		LabelString: sp.LabelString,
		View:        func(s *sharedstale.State) []tla.Binding { return sp.TLA(s) },
	}
	l := sp.L
	on := func(f func(*sharedlock.State) bool) func(*sharedstale.State) bool {
		return func(s *sharedstale.State) bool { return f(&s.State) }
	}
	invs := map[string]func(*sharedstale.State) bool{
		"StaleTypeOK":                sp.StaleTypeOK,
		"WriterExclusion":            on(l.WriterExclusion),
		"MutualExclusion":            on(l.MutualExclusion),
		"ReadersShare":               on(l.ReadersShare),
		"NoHerd":                     on(l.NoHerd),
		"NoOrphans":                  on((*sharedlock.State).NoOrphans),
		"StaleNoOrphans":             (*sharedstale.State).StaleNoOrphans,
		"GrantsInSequenceOrder":      on(l.GrantsInSequenceOrder),
		"KnownNodeExists":            on(l.KnownNodeExists),
		"ReadersNotBlockedByReaders": on(l.ReadersNotBlockedByReaders),
	}
	for _, name := range invariants {
		f, ok := invs[name]
		if !ok {
			return nil, fmt.Errorf("specs: %s has no invariant %s", sharedstale.Module, name)
		}
		es.Invariants = append(es.Invariants, explore.Invariant[sharedstale.State]{Name: name, Holds: f})
	}
	for _, name := range properties {
		if name != "NoOrphansEventually" {
			return nil, fmt.Errorf("specs: %s has no property %s", sharedstale.Module, name)
		}
		es.Temporal = append(es.Temporal, explore.LeadsTo[sharedstale.State]{
			Name: name, N: l.N() * l.MaxRequests,
			P: func(s *sharedstale.State, i int) bool { return s.Orphaned(l.RequestParam(i)) },
			Q: func(s *sharedstale.State, i int) bool { return s.NoNodeOf(l.RequestParam(i)) },
			Param: func(i int) string {
				u := l.RequestParam(i)
				return fmt.Sprintf("<<%s, %d>>", l.Clients[u.C], u.R)
			}})
	}
	return es, nil
}

// sharedStaleFairness is StaleFairness: WF_allVars(LDuplicateLands) and
// WF_allVars(\E s \in Sessions : Abandoned(s) /\ LExpireSession(s)).
func sharedStaleFairness(sp *sharedstale.Spec) []explore.Fairness[sharedstale.State] {
	return []explore.Fairness[sharedstale.State]{
		{Name: "LDuplicateLands", Takes: func(_ *sharedstale.State, l model.Label) bool {
			return l.Action == sharedstale.ActDuplicateLands
		}},
		{Name: `\E s \in Sessions : Abandoned(s) /\ LExpireSession(s)`, Takes: func(s *sharedstale.State, l model.Label) bool {
			return l.Action == recipe.ActExpireSession && s.Abandoned(sharedlock.Session{C: int(l.Client), K: int(l.Arg)})
		}},
	}
}
