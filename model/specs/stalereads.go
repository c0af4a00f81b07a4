package specs

import (
	"fmt"

	"github.com/zklock/zklock/internal/tlccfg"
	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/stalereads"
	"github.com/zklock/zklock/model/tla"
)

// loadStaleReads builds the model of a PredecessorLockStaleReads config:
// PredecessorLock's constants and SessionOrder, specification StaleSpec.
func loadStaleReads(module string, m tlccfg.Model) (Instance, error) {
	specName, err := specOf(m)
	if err != nil {
		return nil, err
	}
	if specName != "StaleSpec" {
		return nil, fmt.Errorf("specs: module %s has no specification %s", module, specName)
	}
	var order, dupes bool
	k, err := predLockConstants(newConstReader(m), func(r *constReader) {
		order, dupes = r.bool("SessionOrder"), r.bool("DeleteDuplicates")
	})
	if err != nil {
		return nil, err
	}
	sp, err := stalereads.New(k, order)
	if err != nil {
		return nil, err
	}
	sp.DeleteDuplicates = dupes
	es, err := StaleReadsSpec(sp, m.Invariants, m.Properties)
	if err != nil {
		return nil, err
	}
	es.Name = module + "!" + specName
	es.CheckDeadlock = m.CheckDeadlock
	return &instance[stalereads.State]{spec: es, format: sp.Format}, nil
}

// StaleReadsSpec returns the explorer's view of sp with the named
// invariants (StaleTypeOK, and PredecessorLock's safety invariants) and
// action properties (TokensIncrease, FencedSafety).
func StaleReadsSpec(sp *stalereads.Spec, invariants, properties []string) (*explore.Spec[stalereads.State], error) {
	es := &explore.Spec[stalereads.State]{
		Name:        stalereads.Module,
		Init:        func() []stalereads.State { return []stalereads.State{sp.Init()} },
		Next:        sp.Next,
		Step:        sp.Step,
		Encode:      func(b []byte, s *stalereads.State) []byte { return s.AppendEncoding(b) },
		ActionName:  stalereads.ActionName,
		LabelString: sp.LabelString,
		View:        func(s *stalereads.State) []tla.Binding { return sp.TLA(s) },
	}
	p := sp.P
	on := func(f func(*predlock.State) bool) func(*stalereads.State) bool {
		return func(s *stalereads.State) bool { return f(&s.State) }
	}
	invs := map[string]func(*stalereads.State) bool{
		"StaleTypeOK":           sp.StaleTypeOK,
		"MutualExclusion":       on(p.MutualExclusion),
		"NaiveExclusion":        on(p.NaiveExclusion),
		"NoHerd":                on(p.NoHerd),
		"NoOrphans":             on((*predlock.State).NoOrphans),
		"StaleNoOrphans":        (*stalereads.State).StaleNoOrphans,
		"GrantsInSequenceOrder": on(p.GrantsInSequenceOrder),
		"KnownNodeExists":       on(p.KnownNodeExists),
	}
	for _, name := range invariants {
		f, ok := invs[name]
		if !ok {
			return nil, fmt.Errorf("specs: %s has no invariant %s", stalereads.Module, name)
		}
		es.Invariants = append(es.Invariants, explore.Invariant[stalereads.State]{Name: name, Holds: f})
	}
	acts := map[string]func(s, t *predlock.State) bool{"TokensIncrease": p.TokensIncrease, "FencedSafety": p.FencedSafety}
	for _, name := range properties {
		f, ok := acts[name]
		if !ok {
			return nil, fmt.Errorf("specs: %s has no property %s", stalereads.Module, name)
		}
		es.Actions = append(es.Actions, explore.ActionProperty[stalereads.State]{Name: name,
			Holds: func(s, t *stalereads.State) bool { return f(&s.State, &t.State) }})
	}
	return es, nil
}
