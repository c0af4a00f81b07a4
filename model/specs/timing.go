package specs

import (
	"fmt"

	"github.com/zklock/zklock/internal/tlccfg"
	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/lossclock"
	"github.com/zklock/zklock/model/sessiontiming"
	"github.com/zklock/zklock/model/sessiontimingload"
	"github.com/zklock/zklock/model/timedlock"
	"github.com/zklock/zklock/model/timing"
	"github.com/zklock/zklock/model/tla"
)

// timingModel is what a timing module's Go mirror gives the explorer: its
// initial state, its action table (model/timing), its encoding and view,
// and its invariants by name (the timing modules state no action or
// temporal property).
type timingModel[S any] struct {
	init       func() S
	actions    timing.Actions[S]
	encode     func([]byte, *S) []byte
	view       func(*S) []tla.Binding
	format     func(*S) string
	invariants map[string]func(*S) bool
}

// spec returns the explorer's view of module's model with the named
// invariants.
func (tm timingModel[S]) spec(module string, invariants, properties []string) (*explore.Spec[S], error) {
	es := &explore.Spec[S]{
		Name:        module,
		Init:        func() []S { return []S{tm.init()} },
		Next:        tm.actions.Next,
		Step:        tm.actions.Step,
		Encode:      tm.encode,
		ActionName:  tm.actions.ActionName,
		LabelString: tm.actions.LabelString,
		View:        tm.view,
	}
	var err error
	if es.Invariants, err = invariantsOnly(module, tm.invariants, invariants, properties); err != nil {
		return nil, err
	}
	return es, nil
}

// loadTiming builds the instance of a timing module's config from its
// mirror (the tail every timing loader shares); err is the mirror's
// construction error.
func loadTiming[S any](module string, m tlccfg.Model, tm timingModel[S], err error) (Instance, error) {
	if err != nil {
		return nil, err
	}
	specName, err := specOf(m)
	if err != nil {
		return nil, err
	}
	if specName != "Spec" {
		return nil, fmt.Errorf("specs: module %s has no specification %s", module, specName)
	}
	es, err := tm.spec(module, m.Invariants, m.Properties)
	if err != nil {
		return nil, err
	}
	es.Name = module + "!" + specName
	es.CheckDeadlock = m.CheckDeadlock
	return &instance[S]{spec: es, format: tm.format}, nil
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

// sessionTimingConstants reads SessionTiming's constants (TimedLock's
// too: it INSTANCEs SessionTiming on its own declarations of them).
func (r *constReader) sessionTimingConstants() sessiontiming.Constants {
	return sessiontiming.Constants{
		Timeout: r.nat("Timeout"), SyncLimit: r.nat("SyncLimit"), Drift: r.nat("Drift"), Lag: r.nat("Lag"),
		Rule:    sessiontiming.Rule(r.str("Rule")),
		MaxTime: r.nat("MaxTime"), MaxRequests: r.nat("MaxRequests"), MaxFaults: r.nat("MaxFaults"),
	}
}

// lossClockConfig reads LossClock's constants.
func (r *constReader) lossClockConfig() lossclock.Config {
	return lossclock.Config{Lag: r.nat("Lag"), MaxAcks: r.nat("MaxAcks"), Merge: lossclock.Merge(r.str("Merge"))}
}

// newTiming finishes reading a timing module's constants k and builds its
// mirror with newSpec and its explorer's view with model.
func newTiming[K, Sp, S any](r *constReader, k K, newSpec func(K) (Sp, error), model func(Sp) timingModel[S]) (timingModel[S], error) {
	if err := r.done(); err != nil {
		return timingModel[S]{}, err
	}
	sp, err := newSpec(k)
	if err != nil {
		return timingModel[S]{}, err
	}
	return model(sp), nil
}

func sessionTimingModel(sp *sessiontiming.Spec) timingModel[sessiontiming.State] {
	return timingModel[sessiontiming.State]{
		init: sp.Init, actions: sp.Actions,
		encode: func(b []byte, s *sessiontiming.State) []byte { return s.AppendEncoding(b) },
		view:   sp.TLA, format: sp.Format,
		invariants: map[string]func(*sessiontiming.State) bool{
			"TypeOK": sp.TypeOK, "HolderLosesFirst": sp.HolderLosesFirst,
			"NeverRenewed": sp.NeverRenewed, "LossBeforeExpiry": sp.LossBeforeExpiry,
		},
	}
}

// SessionTimingSpec returns the explorer's view of sp with the named
// invariants; the module has no action or temporal properties.
func SessionTimingSpec(sp *sessiontiming.Spec, invariants, properties []string) (*explore.Spec[sessiontiming.State], error) {
	return sessionTimingModel(sp).spec("SessionTiming", invariants, properties)
}

func loadSessionTiming(module string, m tlccfg.Model) (Instance, error) {
	r := newConstReader(m)
	tm, err := newTiming(r, r.sessionTimingConstants(), sessiontiming.New, sessionTimingModel)
	return loadTiming(module, m, tm, err)
}

func timedLockModel(sp *timedlock.Spec) timingModel[timedlock.State] {
	return timingModel[timedlock.State]{
		init: sp.Init, actions: sp.Actions,
		encode: func(b []byte, s *timedlock.State) []byte { return s.AppendEncoding(b) },
		view:   sp.TLA, format: sp.Format,
		invariants: map[string]func(*timedlock.State) bool{
			"TypeOK": sp.TypeOK, "MutualExclusion": sp.MutualExclusion, "NoGrantPastDeadline": sp.NoGrantPastDeadline,
			"LossBeforeExpiry": sp.LossBeforeExpiry, "StandIns": sp.StandIns,
		},
	}
}

// TimedLockSpec returns the explorer's view of sp with the named
// invariants; the module has no action or temporal properties.
func TimedLockSpec(sp *timedlock.Spec, invariants, properties []string) (*explore.Spec[timedlock.State], error) {
	return timedLockModel(sp).spec("TimedLock", invariants, properties)
}

func loadTimedLock(module string, m tlccfg.Model) (Instance, error) {
	r := newConstReader(m)
	k := timedlock.Constants{Constants: r.sessionTimingConstants(), GrantRule: timedlock.GrantRule(r.str("GrantRule"))}
	// H and C are model values: the config assigns each its own name.
	k.HName, _ = r.get("H")
	k.CName, _ = r.get("C")
	tm, err := newTiming(r, k, timedlock.New, timedLockModel)
	return loadTiming(module, m, tm, err)
}

func loadSessionTimingLoad(module string, m tlccfg.Model) (Instance, error) {
	r := newConstReader(m)
	k := sessiontimingload.Constants{
		Timeout: r.nat("Timeout"), Drift: r.nat("Drift"), Clock: r.lossClockConfig(),
		Delay: r.nat("Delay"), Beat: r.nat("Beat"), MaxInFlight: r.nat("MaxInFlight"), MaxTime: r.nat("MaxTime"),
		Healthy: r.bool("Healthy"),
	}
	tm, err := newTiming(r, k, sessiontimingload.New, func(sp *sessiontimingload.Spec) timingModel[sessiontimingload.State] {
		return timingModel[sessiontimingload.State]{
			init: sp.Init, actions: sp.Actions,
			encode: func(b []byte, s *sessiontimingload.State) []byte { return s.AppendEncoding(b) },
			view:   sp.TLA, format: sp.Format,
			invariants: map[string]func(*sessiontimingload.State) bool{
				"TypeOK": sp.TypeOK, "NoSpuriousLoss": sp.NoSpuriousLoss, "ProvesNoMore": sp.ProvesNoMore,
			},
		}
	})
	return loadTiming(module, m, tm, err)
}
