package timedlock_test

import (
	"errors"
	"testing"

	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/internal/proptest"
	"github.com/zklock/zklock/model/sessiontiming"
	"github.com/zklock/zklock/model/specs"
	"github.com/zklock/zklock/model/timedlock"
)

// base is the TLC configs' scope (Synced).
func base() timedlock.Constants {
	return timedlock.Constants{
		Constants: sessiontiming.Constants{Timeout: 2, SyncLimit: 1, Lag: 2, Rule: sessiontiming.Synced,
			MaxTime: 3, MaxRequests: 2, MaxFaults: 1},
		HName: "H", CName: "C", GrantRule: timedlock.Checked,
	}
}

// TestRulesExhaustively explores the whole state space for each pair of
// rules: the synced loss rule with the checked grant keeps exclusion, the
// deadline and the lock specs' premise; the rule today breaks exclusion
// and the premise, though the checked grant alone still keeps the
// deadline; the unchecked grant hands out a lease past the deadline even
// with the synced rule. Under the synced rule a listing answered after
// the expiry never reaches H (the README's claim that HGone is only
// reachable when the premise fails): the invariant noLateGone holds.
// With -short, the three cases the TLC configs ask.
func TestRulesExhaustively(t *testing.T) {
	noLateGone := func(s *timedlock.State) bool { return !(s.HPC == timedlock.HGranting && s.HSaw == timedlock.SawGone) }
	today := func(k *timedlock.Constants) { k.Rule = sessiontiming.Today }
	for _, tc := range []struct {
		name  string
		short bool
		edit  func(*timedlock.Constants)
		inv   string // the one violated, or "" for a pass
		want  explore.Verdict
	}{
		{"synced", true, func(*timedlock.Constants) {}, "", explore.Pass},
		{"today exclusion", true, today, "MutualExclusion", explore.InvariantViolated},
		{"unchecked deadline", true, func(k *timedlock.Constants) { k.GrantRule = timedlock.Unchecked }, "NoGrantPastDeadline", explore.InvariantViolated},
		{"today premise", false, today, "LossBeforeExpiry", explore.InvariantViolated},
		{"today late gone", false, today, "noLateGone", explore.InvariantViolated},
		{"today deadline", false, func(k *timedlock.Constants) { k.Rule = sessiontiming.Today; k.GrantRule = timedlock.Checked }, "", explore.Pass},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && !tc.short {
				t.Skip("-short: the configs' cases only")
			}
			k := base()
			tc.edit(&k)
			sp, err := timedlock.New(k)
			if err != nil {
				t.Fatal(err)
			}
			invs := []string{"TypeOK", "StandIns"}
			switch {
			case tc.name == "today deadline":
				invs = append(invs, "NoGrantPastDeadline")
			case tc.inv == "":
				invs = append(invs, "MutualExclusion", "NoGrantPastDeadline", "LossBeforeExpiry")
			case tc.inv != "noLateGone":
				invs = append(invs, tc.inv)
			}
			es, err := specs.TimedLockSpec(sp, invs, nil)
			if err != nil {
				t.Fatal(err)
			}
			if tc.inv == "" && tc.name != "today deadline" || tc.inv == "noLateGone" {
				es.Invariants = append(es.Invariants, explore.Invariant[timedlock.State]{Name: "noLateGone", Holds: noLateGone})
			}
			proptest.Explore(t, es, tc.want, tc.inv)
		})
	}
}

// TestNewRejectsBadConstants: a bad grant rule or client names is a
// clear error, and SessionTiming's own checks still apply.
func TestNewRejectsBadConstants(t *testing.T) {
	for name, edit := range map[string]func(*timedlock.Constants){
		"grant rule":   func(k *timedlock.Constants) { k.GrantRule = "reread" },
		"same names":   func(k *timedlock.Constants) { k.CName = k.HName },
		"no name":      func(k *timedlock.Constants) { k.HName = "" },
		"session rule": func(k *timedlock.Constants) { k.Rule = "sometimes" },
	} {
		k := base()
		edit(&k)
		if _, err := timedlock.New(k); err == nil {
			t.Errorf("%s: New accepted %+v", name, k)
		}
	}
	if _, err := timedlock.New(base()); err != nil {
		t.Fatalf("New(base) = %v", errors.Unwrap(err))
	}
}
