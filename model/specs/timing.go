package specs

import (
	"fmt"

	"github.com/zklock/zklock/internal/tlccfg"
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/lossclock"
	"github.com/zklock/zklock/model/sessiontiming"
	"github.com/zklock/zklock/model/sessiontimingload"
	"github.com/zklock/zklock/model/timedelection"
	"github.com/zklock/zklock/model/timedlock"
)

// timingMirror is what a timing module's Go mirror gives the explorer:
// its action table (model/timing) names the actions.
type timingMirror[S any] interface {
	mirror[S]
	ActionName(l model.Label) string
}

// timingSpec returns the explorer's view of module's mirror sp with the
// named invariants from its table; the timing modules state no action or
// temporal property.
func timingSpec[S any, P encoder[S]](module string, sp timingMirror[S], table map[string]func(*S) bool,
	invariants, properties []string) (*explore.Spec[S], error) {
	if len(properties) > 0 {
		return nil, fmt.Errorf("specs: %s has no property %s", module, properties[0])
	}
	es := view[S, P](module, sp, sp.ActionName)
	var err error
	es.Invariants, err = invariantsNamed(module, table, invariants)
	return es, err
}

// loadTiming builds the instance of a timing module's config from its
// mirror sp and its invariants' table.
func loadTiming[S any, P encoder[S]](module string, m tlccfg.Model, sp timingMirror[S], table map[string]func(*S) bool) (Instance, error) {
	specName, err := specNamed(module, m, "Spec")
	if err != nil {
		return nil, err
	}
	es, err := timingSpec[S, P](module, sp, table, m.Invariants, m.Properties)
	return newInstance(module, specName, m, es, err, sp.Format)
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

func sessionTimingInvariants(sp *sessiontiming.Spec) map[string]func(*sessiontiming.State) bool {
	return map[string]func(*sessiontiming.State) bool{
		"TypeOK": sp.TypeOK, "HolderLosesFirst": sp.HolderLosesFirst,
		"NeverRenewed": sp.NeverRenewed, "LossBeforeExpiry": sp.LossBeforeExpiry,
	}
}

// SessionTimingSpec returns the explorer's view of sp with the named
// invariants; the module has no action or temporal properties.
func SessionTimingSpec(sp *sessiontiming.Spec, invariants, properties []string) (*explore.Spec[sessiontiming.State], error) {
	return timingSpec[sessiontiming.State]("SessionTiming", sp, sessionTimingInvariants(sp), invariants, properties)
}

func loadSessionTiming(module string, m tlccfg.Model) (Instance, error) {
	r := newConstReader(m)
	sp, err := build(r, r.sessionTimingConstants(), sessiontiming.New)
	if err != nil {
		return nil, err
	}
	return loadTiming[sessiontiming.State](module, m, sp, sessionTimingInvariants(sp))
}

func timedLockInvariants(sp *timedlock.Spec) map[string]func(*timedlock.State) bool {
	return map[string]func(*timedlock.State) bool{
		"TypeOK": sp.TypeOK, "MutualExclusion": sp.MutualExclusion, "NoGrantPastDeadline": sp.NoGrantPastDeadline,
		"LossBeforeExpiry": sp.LossBeforeExpiry, "StandIns": sp.StandIns,
	}
}

// TimedLockSpec returns the explorer's view of sp with the named
// invariants; the module has no action or temporal properties.
func TimedLockSpec(sp *timedlock.Spec, invariants, properties []string) (*explore.Spec[timedlock.State], error) {
	return timingSpec[timedlock.State]("TimedLock", sp, timedLockInvariants(sp), invariants, properties)
}

// timedLockConstants reads TimedLock's constants (TimedElection's too: it
// INSTANCEs TimedLock on its own declarations of them).
func (r *constReader) timedLockConstants() timedlock.Constants {
	k := timedlock.Constants{Constants: r.sessionTimingConstants(), GrantRule: timedlock.GrantRule(r.str("GrantRule"))}
	// H and C are model values: the config assigns each its own name.
	k.HName, _ = r.get("H")
	k.CName, _ = r.get("C")
	return k
}

func loadTimedLock(module string, m tlccfg.Model) (Instance, error) {
	r := newConstReader(m)
	sp, err := build(r, r.timedLockConstants(), timedlock.New)
	if err != nil {
		return nil, err
	}
	return loadTiming[timedlock.State](module, m, sp, timedLockInvariants(sp))
}

func timedElectionInvariants(sp *timedelection.Spec) map[string]func(*timedelection.State) bool {
	return map[string]func(*timedelection.State) bool{
		"TypeOK": sp.TypeOK, "AtMostOneLeader": sp.AtMostOneLeader, "ProclaimedByLeader": sp.ProclaimedByLeader,
		"NoGrantPastDeadline": sp.NoGrantPastDeadline, "LossBeforeExpiry": sp.LossBeforeExpiry, "StandIns": sp.StandIns,
	}
}

// TimedElectionSpec returns the explorer's view of sp with the named
// invariants; the module has no action or temporal properties.
func TimedElectionSpec(sp *timedelection.Spec, invariants, properties []string) (*explore.Spec[timedelection.State], error) {
	return timingSpec[timedelection.State]("TimedElection", sp, timedElectionInvariants(sp), invariants, properties)
}

func loadTimedElection(module string, m tlccfg.Model) (Instance, error) {
	r := newConstReader(m)
	sp, err := build(r, r.timedLockConstants(), timedelection.New)
	if err != nil {
		return nil, err
	}
	return loadTiming[timedelection.State](module, m, sp, timedElectionInvariants(sp))
}

func loadSessionTimingLoad(module string, m tlccfg.Model) (Instance, error) {
	r := newConstReader(m)
	sp, err := build(r, sessiontimingload.Constants{
		Timeout: r.nat("Timeout"), Drift: r.nat("Drift"), Clock: r.lossClockConfig(),
		Delay: r.nat("Delay"), Beat: r.nat("Beat"), MaxInFlight: r.nat("MaxInFlight"), MaxTime: r.nat("MaxTime"),
		Healthy: r.bool("Healthy"),
	}, sessiontimingload.New)
	if err != nil {
		return nil, err
	}
	return loadTiming[sessiontimingload.State](module, m, sp, map[string]func(*sessiontimingload.State) bool{
		"TypeOK": sp.TypeOK, "NoSpuriousLoss": sp.NoSpuriousLoss, "ProvesNoMore": sp.ProvesNoMore,
	})
}
