package specs

import (
	"fmt"

	"github.com/zklock/zklock/internal/tlccfg"
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/lossclock"
	"github.com/zklock/zklock/model/sessiontimingload"
	"github.com/zklock/zklock/model/tla"
)

// timingModel is what a timing module's Go mirror gives the explorer: the
// parts every such module has, and its invariants by name.
type timingModel[S any] struct {
	init        func() S
	next        func(*S, func(model.Label, *S))
	step        func(*S, model.Label, *S) model.Guard
	encode      func([]byte, *S) []byte
	actionName  func(model.Label) string
	labelString func(model.Label) string
	view        func(*S) []tla.Binding
	format      func(*S) string
	invariants  map[string]func(*S) bool
}

// loadTiming builds the instance of a timing module's config from its
// mirror (the tail every timing loader shares).
func loadTiming[S any](module string, m tlccfg.Model, tm timingModel[S]) (Instance, error) {
	specName, err := specOf(m)
	if err != nil {
		return nil, err
	}
	if specName != "Spec" {
		return nil, fmt.Errorf("specs: module %s has no specification %s", module, specName)
	}
	es := &explore.Spec[S]{
		Name:        module + "!" + specName,
		Init:        func() []S { return []S{tm.init()} },
		Next:        tm.next,
		Step:        tm.step,
		Encode:      tm.encode,
		ActionName:  tm.actionName,
		LabelString: tm.labelString,
		View:        tm.view,
	}
	if es.Invariants, err = invariantsOnly(module, tm.invariants, m.Invariants, m.Properties); err != nil {
		return nil, err
	}
	es.CheckDeadlock = m.CheckDeadlock
	return &instance[S]{spec: es, format: tm.format}, nil
}

// lossClockConfig reads LossClock's constants.
func (r *constReader) lossClockConfig() lossclock.Config {
	return lossclock.Config{Lag: r.nat("Lag"), MaxAcks: r.nat("MaxAcks"), Merge: lossclock.Merge(r.str("Merge"))}
}

func loadSessionTimingLoad(module string, m tlccfg.Model) (Instance, error) {
	r := newConstReader(m)
	k := sessiontimingload.Constants{
		Timeout: r.nat("Timeout"), Drift: r.nat("Drift"), Clock: r.lossClockConfig(),
		Delay: r.nat("Delay"), Beat: r.nat("Beat"), MaxInFlight: r.nat("MaxInFlight"), MaxTime: r.nat("MaxTime"),
		Healthy: r.bool("Healthy"),
	}
	if err := r.done(); err != nil {
		return nil, err
	}
	sp, err := sessiontimingload.New(k)
	if err != nil {
		return nil, err
	}
	return loadTiming(module, m, timingModel[sessiontimingload.State]{
		init: sp.Init, next: sp.Next, step: sp.Step,
		encode:      func(b []byte, s *sessiontimingload.State) []byte { return s.AppendEncoding(b) },
		actionName:  sessiontimingload.ActionName,
		labelString: sessiontimingload.ActionName,
		view:        sp.TLA, format: sp.Format,
		invariants: map[string]func(*sessiontimingload.State) bool{
			"TypeOK": sp.TypeOK, "NoSpuriousLoss": sp.NoSpuriousLoss, "ProvesNoMore": sp.ProvesNoMore,
		},
	})
}
