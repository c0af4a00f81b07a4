package specs

import (
	"fmt"

	"github.com/zklock/zklock/internal/tlccfg"
	"github.com/zklock/zklock/model/explore"
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
	if specName != "StaleSpec" {
		return nil, fmt.Errorf("specs: module %s has no specification %s", module, specName)
	}
	r := newConstReader(m)
	k := sharedlock.Constants{Constants: r.lockConstants(), WithDowngrade: r.bool("WithDowngrade")}
	order := r.bool("SessionOrder")
	if err := r.done(); err != nil {
		return nil, err
	}
	sp, err := sharedstale.New(k, order)
	if err != nil {
		return nil, err
	}
	es, err := SharedStaleSpec(sp, m.Invariants, m.Properties)
	if err != nil {
		return nil, err
	}
	es.Name = module + "!" + specName
	es.CheckDeadlock = m.CheckDeadlock
	return &instance[sharedstale.State]{spec: es, format: sp.Format}, nil
}

// SharedStaleSpec returns the explorer's view of sp with the named
// invariants (StaleTypeOK, and SharedLock's safety invariants); the
// module states no action or temporal property.
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
	if len(properties) > 0 {
		return nil, fmt.Errorf("specs: %s has no property %s", sharedstale.Module, properties[0])
	}
	return es, nil
}
