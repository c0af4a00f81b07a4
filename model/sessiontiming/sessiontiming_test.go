package sessiontiming_test

import (
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/internal/proptest"
	"github.com/zklock/zklock/model/sessiontiming"
	"github.com/zklock/zklock/model/specs"
)

type property = proptest.Property[sessiontiming.State]

func properties(sp *sessiontiming.Spec) []property {
	return []property{
		{Name: "TypeOK", Inv: sp.TypeOK},
		{Name: "HolderLosesFirst", Inv: sp.HolderLosesFirst},
		{Name: "LossBeforeExpiry", Inv: sp.LossBeforeExpiry},
	}
}

// drawSynced draws constants beyond the TLC configs' for the synced rule
// with Lag >= SyncLimit + 1 and any margin.
func drawSynced(t *rapid.T) sessiontiming.Constants {
	sl := rapid.IntRange(0, 4).Draw(t, "SyncLimit")
	return sessiontiming.Constants{
		Timeout:     rapid.IntRange(1, 12).Draw(t, "Timeout"),
		SyncLimit:   sl,
		Drift:       rapid.IntRange(0, 2).Draw(t, "Drift"),
		Lag:         sl + rapid.IntRange(1, 3).Draw(t, "extra lag"),
		Rule:        sessiontiming.Synced,
		MaxTime:     rapid.IntRange(1, 30).Draw(t, "MaxTime"),
		MaxRequests: rapid.IntRange(0, 8).Draw(t, "MaxRequests"),
		MaxFaults:   rapid.IntRange(0, 4).Draw(t, "MaxFaults"),
	}
}

func walk(t *rapid.T, sp *sessiontiming.Spec, props []property, steps int) {
	proptest.WalkChecking(t, proptest.Spec[sessiontiming.State]{
		Init: sp.Init, Next: sp.Next, Actions: len(sp.Actions),
		ActionName: sp.ActionName, LabelString: sp.LabelString, Format: sp.Format,
	}, props, steps, nil)
}

// TestRandomWalksSyncedRule: random walks under random constants keep
// HolderLosesFirst under the synced rule with Lag > SyncLimit.
func TestRandomWalksSyncedRule(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sp, err := sessiontiming.New(drawSynced(t))
		if err != nil {
			t.Fatal(err)
		}
		walk(t, sp, properties(sp), rapid.IntRange(20, 300).Draw(t, "steps"))
	})
}

// TestRulesCaught is the positive control of the random walks: the rule
// today is caught and shrunk. (Today with a margin, the lagged rule and
// Lag = SyncLimit are narrower windows that random walks find only
// sometimes; the exhaustive TestRulesExhaustively catches them every time.)
func TestRulesCaught(t *testing.T) {
	for name, k := range map[string]sessiontiming.Constants{
		"today": {Timeout: 4, SyncLimit: 1, Rule: sessiontiming.Today, MaxTime: 8, MaxRequests: 3, MaxFaults: 1},
	} {
		t.Run(name, func(t *testing.T) {
			sp, err := sessiontiming.New(k)
			if err != nil {
				t.Fatal(err)
			}
			report := proptest.ExpectFailure(t, 20000, func(rt *rapid.T) {
				walk(rt, sp, properties(sp), rapid.IntRange(10, 40).Draw(rt, "steps"))
			})
			// LossBeforeExpiry, the premise, fails one step before
			// HolderLosesFirst (the expiry, before the grant): either will do.
			if !strings.Contains(report, "HolderLosesFirst violated") && !strings.Contains(report, "LossBeforeExpiry violated") {
				t.Errorf("failed, but not on HolderLosesFirst or LossBeforeExpiry:\n%s", report)
			}
			t.Logf("caught; shrunk counterexample:\n%s", proptest.FirstLines(report, 16))
		})
	}
}

func TestLossDeadline(t *testing.T) {
	const today, lagged, synced = sessiontiming.Today, sessiontiming.Lagged, sessiontiming.Synced
	acks := []sessiontiming.Ack{{Sent: 1, Acked: 1}, {Sent: 3, Acked: 4}, {Sent: 5, Acked: 5}}
	// The same, the request sent at 5 a sync, and a read sent at 6.
	withSync := []sessiontiming.Ack{{Sent: 1, Acked: 1}, {Sent: 3, Acked: 4}, {Sent: 5, Acked: 5, Sync: true}, {Sent: 6, Acked: 6}}
	for _, tc := range []struct {
		rule                      sessiontiming.Rule
		base, timeout, drift, lag int64
		acks                      []sessiontiming.Ack
		want                      int64
	}{
		{today, 0, 10, 1, 3, acks, 5 + 10 - 1},      // the newest send time
		{lagged, 0, 10, 1, 3, acks, 1 + 10 - 1},     // acked at 1 <= 5 - 3; acked at 4 is too late
		{lagged, 0, 10, 1, 1, acks, 3 + 10 - 1},     // acked at 4 <= 5 - 1
		{lagged, 2, 10, 0, 3, acks, 2 + 10},         // the base is newer than the acked-early send
		{lagged, 0, 10, 0, 3, nil, 10},              // only the base
		{today, 7, 10, 0, 3, nil, 17},               // only the base
		{synced, 0, 10, 1, 1, acks, 0 + 10 - 1},     // no sync: only the base
		{synced, 0, 10, 1, 1, withSync, 3 + 10 - 1}, // acked at 4 <= 5 - 1 (the sync's send), not 6 - 1
		{synced, 0, 10, 1, 3, withSync, 1 + 10 - 1}, // acked at 1 <= 5 - 3
		{synced, 0, 10, 0, 0, withSync, 5 + 10},     // the sync proves itself with no lag; the read at 6 does not
		{lagged, 0, 10, 0, 0, withSync, 6 + 10},     // the lagged rule counts the read at 6
	} {
		if got := sessiontiming.LossDeadline(tc.rule, tc.base, tc.acks, tc.timeout, tc.drift, tc.lag); got != tc.want {
			t.Errorf("LossDeadline(%v, %d, %v, %d, %d, %d) = %d, want %d",
				tc.rule, tc.base, tc.acks, tc.timeout, tc.drift, tc.lag, got, tc.want)
		}
	}
}

func TestNewRejectsBadConstants(t *testing.T) {
	for _, k := range []sessiontiming.Constants{
		{Rule: "sometimes"},
		{Rule: sessiontiming.Today, Timeout: -1},
	} {
		if _, err := sessiontiming.New(k); err == nil {
			t.Errorf("New(%+v) accepted", k)
		}
	}
}

// TestRulesExhaustively explores every state under each rule, with bounds
// beside the TLC configs' (SyncLimit 2, Timeout 7; under -short SyncLimit
// 1, Timeout 5): the synced rule with Lag = SyncLimit + 1 keeps
// HolderLosesFirst and LossBeforeExpiry (the lock specs' premise) and
// renews the lease (NeverRenewed is violated: the pass is not vacuous);
// the premise fails under the rule today and the lagged rule; the rule
// today, today with a margin of SyncLimit + 1, the lagged rule, and the
// synced rule with Lag = SyncLimit are caught.
func TestRulesExhaustively(t *testing.T) {
	base := sessiontiming.Constants{Timeout: 7, SyncLimit: 2, Lag: 3, Rule: sessiontiming.Synced,
		MaxTime: 9, MaxRequests: 2, MaxFaults: 1}
	if testing.Short() {
		base.Timeout, base.SyncLimit, base.Lag, base.MaxTime = 5, 1, 2, 8
	}
	for _, tc := range []struct {
		name string
		edit func(*sessiontiming.Constants)
		inv  string
		want explore.Verdict
	}{
		{"synced", func(*sessiontiming.Constants) {}, "HolderLosesFirst", explore.Pass},
		{"synced renews", func(*sessiontiming.Constants) {}, "NeverRenewed", explore.InvariantViolated},
		{"synced premise", func(*sessiontiming.Constants) {}, "LossBeforeExpiry", explore.Pass},
		{"today premise", func(k *sessiontiming.Constants) { k.Rule = sessiontiming.Today }, "LossBeforeExpiry", explore.InvariantViolated},
		{"lagged premise", func(k *sessiontiming.Constants) { k.Rule = sessiontiming.Lagged }, "LossBeforeExpiry", explore.InvariantViolated},
		{"lag=synclimit", func(k *sessiontiming.Constants) { k.Lag = k.SyncLimit }, "HolderLosesFirst", explore.InvariantViolated},
		{"lagged", func(k *sessiontiming.Constants) { k.Rule = sessiontiming.Lagged }, "HolderLosesFirst", explore.InvariantViolated},
		{"today", func(k *sessiontiming.Constants) { k.Rule = sessiontiming.Today }, "HolderLosesFirst", explore.InvariantViolated},
		{"today+margin", func(k *sessiontiming.Constants) { k.Rule, k.Drift = sessiontiming.Today, k.SyncLimit+1 }, "HolderLosesFirst", explore.InvariantViolated},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := base
			tc.edit(&k)
			sp, err := sessiontiming.New(k)
			if err != nil {
				t.Fatal(err)
			}
			es, err := specs.SessionTimingSpec(sp, []string{"TypeOK", tc.inv}, nil)
			if err != nil {
				t.Fatal(err)
			}
			proptest.Explore(t, es, tc.want, tc.inv)
		})
	}
}
