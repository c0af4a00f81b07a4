package zklock

import (
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/zklock/zklock/internal/tlccfg"
)

// The sync lag the code counts with, (syncLimit + 1) ticks, is the Lag that
// TLC checked safe in spec/tla/SessionTiming (the "synced" rule), and more
// than every Lag TLC found unsafe for the same syncLimit (LagTooShort: one
// tick less). No test against the ensemble tells these apart: the lag only
// matters while a follower cut off from the leader still answers, within a
// tick of the leader's expiry. So the code's rule is pinned to the spec's
// configs here. Constants are read by name, so configs that gain constants
// still count; a config whose expectation is about availability
// (SyncedRenews, which must show a renewal) says nothing about safety and
// is left out.
func TestSyncLagIsTheSpecsLag(t *testing.T) {
	cfgs, err := tlccfg.Discover(filepath.Join("..", "..", "spec", "tla"))
	if err != nil {
		t.Fatal(err)
	}
	safety := []string{"HolderLosesFirst", "LossBeforeExpiry"}
	checksSafety := func(m tlccfg.Model) bool {
		for _, inv := range safety {
			if slices.Contains(m.Invariants, inv) {
				return true
			}
		}
		return false
	}
	var exact, unsafe int
	for _, c := range cfgs {
		m := c.Model
		if c.Module != "SessionTiming" || m.Deep {
			continue
		}
		if rule, _ := m.Constant("Rule"); rule != `"synced"` {
			continue
		}
		syncLimit, lag := intConstant(t, c, "SyncLimit"), intConstant(t, c, "Lag")
		// One tick: the spec counts in ticks.
		const tick = time.Second
		code := int(sessionConfig{tickTime: tick, syncLimit: syncLimit}.syncLag() / tick)
		switch {
		case m.Pass && checksSafety(m):
			// TLC proved Lag safe; a shorter lag is unproven, and a
			// longer one than every passing config's would be unproven
			// for availability. The code must run a checked rule.
			if code < lag {
				t.Errorf("%s: TLC checked Lag %d safe for SyncLimit %d; the code's lag is %d ticks, which TLC never checked",
					c.ID(), lag, syncLimit, code)
			}
			if code == lag {
				exact++
			}
		case !m.Pass && slices.Contains(safety, m.Violation):
			// TLC found Lag unsafe: any lag at or below it is too.
			if code <= lag {
				t.Errorf("%s: TLC finds Lag %d for SyncLimit %d unsafe (%s violated); the code's lag is %d ticks",
					c.ID(), lag, syncLimit, m.Violation, code)
			}
			unsafe++
		}
	}
	// Without a passing config at the code's very lag the pin proves
	// nothing, and without a failing one it has no teeth.
	if exact == 0 {
		t.Errorf("no passing SessionTiming config with the synced rule checks the code's lag, (SyncLimit + 1) ticks")
	}
	if unsafe == 0 {
		t.Errorf("no failing SessionTiming config with the synced rule: nothing shows a shorter lag unsafe")
	}
}

// intConstant reads an integer constant of a config by name.
func intConstant(t *testing.T, c tlccfg.Config, name string) int {
	t.Helper()
	v, ok := c.Model.Constant(name)
	if !ok {
		t.Fatalf("%s: no constant %s", c.ID(), name)
	}
	n, err := strconv.Atoi(v)
	if err != nil {
		t.Fatalf("%s: %s = %q is not an integer", c.ID(), name, v)
	}
	return n
}
