package specs

import (
	"strconv"
	"strings"

	"github.com/zklock/zklock/internal/tlccfg"
	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/sessionclock"
)

// natSet reads a set of natural numbers ("{3, 5}").
func (r *constReader) natSet(name string) []int {
	v, ok := r.get(name)
	if !ok {
		return nil
	}
	inner, found := strings.CutPrefix(v, "{")
	inner, found2 := strings.CutSuffix(inner, "}")
	if !found || !found2 {
		r.fail("specs: constant %s = %s: want a set of natural numbers", name, v)
		return nil
	}
	var out []int
	for _, e := range strings.Split(inner, ",") {
		if e = strings.TrimSpace(e); e == "" {
			continue
		}
		n, err := strconv.Atoi(e)
		if err != nil || n < 0 {
			r.fail("specs: constant %s: %s is not a natural number", name, e)
			return nil
		}
		out = append(out, n)
	}
	return out
}

func sessionClockInvariants(sp *sessionclock.Spec) map[string]func(*sessionclock.State) bool {
	return map[string]func(*sessionclock.State) bool{
		"TypeOK": sp.TypeOK, "LossBeforeExpiry": sp.LossBeforeExpiry,
		"NoSpuriousLoss": sp.NoSpuriousLoss, "NeverRenewed": sp.NeverRenewed,
	}
}

// SessionClockSpec returns the explorer's view of sp with the named
// invariants; the module has no action or temporal properties.
func SessionClockSpec(sp *sessionclock.Spec, invariants, properties []string) (*explore.Spec[sessionclock.State], error) {
	return timingSpec[sessionclock.State]("SessionClock", sp, sessionClockInvariants(sp), invariants, properties)
}

func loadSessionClock(module string, m tlccfg.Model) (Instance, error) {
	r := newConstReader(m)
	sp, err := build(r, sessionclock.Constants{
		Created: r.nat("Created"), Timeouts: r.natSet("Timeouts"), Shorter: r.bool("Shorter"),
		Drift: r.nat("Drift"), Clock: sessionclock.Clock(r.str("Clock")), Rule: sessionclock.Rule(r.str("Rule")),
		Healthy: r.bool("Healthy"), Beat: r.nat("Beat"), MaxTime: r.nat("MaxTime"),
		MaxSuspend: r.nat("MaxSuspend"), MaxReattaches: r.nat("MaxReattaches"),
		MaxLeaderChanges: r.nat("MaxLeaderChanges"),
	}, sessionclock.New)
	if err != nil {
		return nil, err
	}
	return loadTiming[sessionclock.State](module, m, sp, sessionClockInvariants(sp))
}
