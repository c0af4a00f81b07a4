package specs

import (
	"fmt"

	"github.com/zklock/zklock/internal/tlccfg"
	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/sessiontiming"
	"github.com/zklock/zklock/model/timedlock"
	"github.com/zklock/zklock/model/tla"
)

func loadTimedLock(module string, m tlccfg.Model) (Instance, error) {
	specName, err := specOf(m)
	if err != nil {
		return nil, err
	}
	if specName != "Spec" {
		return nil, fmt.Errorf("specs: module %s has no specification %s", module, specName)
	}
	r := newConstReader(m)
	k := timedlock.Constants{
		Constants: sessiontiming.Constants{
			Timeout:     r.nat("Timeout"),
			SyncLimit:   r.nat("SyncLimit"),
			Drift:       r.nat("Drift"),
			Lag:         r.nat("Lag"),
			Rule:        sessiontiming.Rule(r.str("Rule")),
			MaxTime:     r.nat("MaxTime"),
			MaxRequests: r.nat("MaxRequests"),
			MaxFaults:   r.nat("MaxFaults"),
		},
		GrantRule: timedlock.GrantRule(r.str("GrantRule")),
	}
	// H and C are model values: the config assigns each its own name.
	k.HName, _ = r.get("H")
	k.CName, _ = r.get("C")
	if err := r.done(); err != nil {
		return nil, err
	}
	sp, err := timedlock.New(k)
	if err != nil {
		return nil, err
	}
	es, err := TimedLockSpec(sp, m.Invariants, m.Properties)
	if err != nil {
		return nil, err
	}
	es.Name = module + "!" + specName
	es.CheckDeadlock = m.CheckDeadlock
	return &instance[timedlock.State]{spec: es, format: sp.Format}, nil
}

// TimedLockSpec returns the explorer's view of sp with the named
// invariants; the module has no action or temporal properties.
func TimedLockSpec(sp *timedlock.Spec, invariants, properties []string) (*explore.Spec[timedlock.State], error) {
	es := &explore.Spec[timedlock.State]{
		Name:        "TimedLock",
		Init:        func() []timedlock.State { return []timedlock.State{sp.Init()} },
		Next:        sp.Next,
		Step:        sp.Step,
		Encode:      func(b []byte, s *timedlock.State) []byte { return s.AppendEncoding(b) },
		ActionName:  timedlock.ActionName,
		LabelString: sp.LabelString,
		View:        func(s *timedlock.State) []tla.Binding { return sp.TLA(s) },
	}
	invs := map[string]func(*timedlock.State) bool{
		"TypeOK":              sp.TypeOK,
		"MutualExclusion":     sp.MutualExclusion,
		"NoGrantPastDeadline": sp.NoGrantPastDeadline,
		"LossBeforeExpiry":    sp.LossBeforeExpiry,
		"StandIns":            sp.StandIns,
	}
	var err error
	es.Invariants, err = invariantsOnly("TimedLock", invs, invariants, properties)
	if err != nil {
		return nil, err
	}
	return es, nil
}
