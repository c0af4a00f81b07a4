package specs

import (
	"fmt"

	"github.com/zklock/zklock/internal/tlccfg"
	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/sessiontiming"
	"github.com/zklock/zklock/model/tla"
)

func loadSessionTiming(module string, m tlccfg.Model) (Instance, error) {
	if module != "SessionTiming" {
		return nil, fmt.Errorf("specs: no model of module %s", module)
	}
	specName, err := specOf(m)
	if err != nil {
		return nil, err
	}
	if specName != "Spec" {
		return nil, fmt.Errorf("specs: module %s has no specification %s", module, specName)
	}
	r := newConstReader(m)
	k := sessiontiming.Constants{
		Timeout:     r.nat("Timeout"),
		SyncLimit:   r.nat("SyncLimit"),
		Drift:       r.nat("Drift"),
		Lag:         r.nat("Lag"),
		Rule:        sessiontiming.Rule(r.str("Rule")),
		MaxTime:     r.nat("MaxTime"),
		MaxRequests: r.nat("MaxRequests"),
		MaxFaults:   r.nat("MaxFaults"),
	}
	if err := r.done(); err != nil {
		return nil, err
	}
	sp, err := sessiontiming.New(k)
	if err != nil {
		return nil, err
	}
	es, err := SessionTimingSpec(sp, m.Invariants, m.Properties)
	if err != nil {
		return nil, err
	}
	es.Name = module + "!" + specName
	es.CheckDeadlock = m.CheckDeadlock
	return &instance[sessiontiming.State]{spec: es, format: sp.Format}, nil
}

// SessionTimingSpec returns the explorer's view of sp with the named
// invariants; the module has no action or temporal properties.
func SessionTimingSpec(sp *sessiontiming.Spec, invariants, properties []string) (*explore.Spec[sessiontiming.State], error) {
	es := &explore.Spec[sessiontiming.State]{
		Name:        "SessionTiming",
		Init:        func() []sessiontiming.State { return []sessiontiming.State{sp.Init()} },
		Next:        sp.Next,
		Step:        sp.Step,
		Encode:      func(b []byte, s *sessiontiming.State) []byte { return s.AppendEncoding(b) },
		ActionName:  sessiontiming.ActionName,
		LabelString: sp.LabelString,
		View:        func(s *sessiontiming.State) []tla.Binding { return sp.TLA(s) },
	}
	invs := map[string]func(*sessiontiming.State) bool{
		"TypeOK":           sp.TypeOK,
		"HolderLosesFirst": sp.HolderLosesFirst,
		"NeverRenewed":     sp.NeverRenewed,
		"LossBeforeExpiry": sp.LossBeforeExpiry,
	}
	var err error
	es.Invariants, err = invariantsOnly("SessionTiming", invs, invariants, properties)
	if err != nil {
		return nil, err
	}
	return es, nil
}

// invariantsOnly looks the named invariants up in a module's table, for
// the timing modules, which state no action or temporal property.
func invariantsOnly[S any](module string, table map[string]func(*S) bool, names, properties []string) ([]explore.Invariant[S], error) {
	var out []explore.Invariant[S]
	for _, name := range names {
		f, ok := table[name]
		if !ok {
			return nil, fmt.Errorf("specs: %s has no invariant %s", module, name)
		}
		out = append(out, explore.Invariant[S]{Name: name, Holds: f})
	}
	if len(properties) > 0 {
		return nil, fmt.Errorf("specs: %s has no property %s", module, properties[0])
	}
	return out, nil
}
