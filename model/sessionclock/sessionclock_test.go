package sessionclock_test

import (
	"testing"

	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/internal/proptest"
	"github.com/zklock/zklock/model/sessionclock"
	"github.com/zklock/zklock/model/specs"
)

// TestRulesExhaustively explores every state with bounds beside the TLC
// configs' (a longer suspend, more timeouts, a larger margin): CLOCK_BOOTTIME
// with the smallest timeout keeps LossBeforeExpiry; a stopping clock, the
// latest timeout, and a reattach below every earlier timeout are caught;
// a healthy session keeps NoSpuriousLoss unless its beat is the whole
// room.
func TestRulesExhaustively(t *testing.T) {
	base := sessionclock.Constants{Created: 4, Timeouts: []int{3, 4, 6}, Drift: 1,
		Clock: sessionclock.Boottime, Rule: sessionclock.Smallest, Beat: 2,
		MaxTime: 10, MaxSuspend: 4, MaxReattaches: 2, MaxLeaderChanges: 1}
	if testing.Short() {
		base.MaxTime, base.Timeouts = 8, []int{4, 6}
	}
	for _, tc := range []struct {
		name string
		edit func(*sessionclock.Constants)
		inv  string
		want explore.Verdict
	}{
		{"boottime smallest", func(*sessionclock.Constants) {}, "LossBeforeExpiry", explore.Pass},
		{"renews", func(*sessionclock.Constants) {}, "NeverRenewed", explore.InvariantViolated},
		{"monotonic", func(k *sessionclock.Constants) { k.Clock = sessionclock.Monotonic }, "LossBeforeExpiry", explore.InvariantViolated},
		{"latest", func(k *sessionclock.Constants) { k.Rule = sessionclock.Latest }, "LossBeforeExpiry", explore.InvariantViolated},
		{"shorter", func(k *sessionclock.Constants) { k.Shorter, k.Timeouts = true, []int{2} }, "LossBeforeExpiry", explore.InvariantViolated},
		{"healthy", func(k *sessionclock.Constants) { k.Healthy = true }, "NoSpuriousLoss", explore.Pass},
		{"healthy beat too long", func(k *sessionclock.Constants) { k.Healthy, k.Beat = true, 3 }, "NoSpuriousLoss", explore.InvariantViolated},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := base
			tc.edit(&k)
			sp, err := sessionclock.New(k)
			if err != nil {
				t.Fatal(err)
			}
			es, err := specs.SessionClockSpec(sp, []string{"TypeOK", tc.inv}, nil)
			if err != nil {
				t.Fatal(err)
			}
			proptest.Explore(t, es, tc.want, tc.inv)
		})
	}
}

func TestNewRejectsBadConstants(t *testing.T) {
	for _, k := range []sessionclock.Constants{
		{Clock: "wall", Rule: sessionclock.Smallest},
		{Clock: sessionclock.Boottime, Rule: "oldest"},
		{Clock: sessionclock.Boottime, Rule: sessionclock.Smallest, Drift: -1},
		{Clock: sessionclock.Boottime, Rule: sessionclock.Smallest, Timeouts: []int{-3}},
	} {
		if _, err := sessionclock.New(k); err == nil {
			t.Errorf("New(%+v) accepted", k)
		}
	}
}
