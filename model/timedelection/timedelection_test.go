package timedelection_test

import (
	"slices"
	"testing"

	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/internal/proptest"
	"github.com/zklock/zklock/model/sessiontiming"
	"github.com/zklock/zklock/model/specs"
	"github.com/zklock/zklock/model/timedelection"
	"github.com/zklock/zklock/model/timedlock"
)

// base is the TLC configs' scope (Synced's constants; TodayFence and
// TodayRule have the rule today and no link cut, DeepSynced MaxTime 3).
func base() timedelection.Constants {
	return timedelection.Constants{
		Constants: sessiontiming.Constants{Timeout: 2, SyncLimit: 1, Lag: 2, Rule: sessiontiming.Synced,
			MaxTime: 2, MaxRequests: 3, MaxFaults: 1},
		HName: "H", CName: "C", GrantRule: timedlock.Checked,
	}
}

// fenced is the witness, expected to be violated under the rule today,
// that the fence acts: never does H's proclaim pass through the leader
// (replied) without landing. Its violation is a deposed leader, still
// believing it leads or not, whose proclaim the multi's check refused.
func fenced(s *timedelection.State) bool {
	for _, r := range s.TL.ST.Reqs {
		if r.Kind == sessiontiming.Proclaim && (r.State == sessiontiming.Replied || r.State == sessiontiming.Acked) &&
			!slices.ContainsFunc(s.Proclaimed, func(p timedelection.Proclaimed) bool { return p.Epoch == s.HEpoch }) {
			return false
		}
	}
	return true
}

// landed is the witness, expected to be violated, that both leaders'
// proclaims land: never is there a proclaim of each.
func landed(s *timedelection.State) bool { return len(s.Proclaimed) < 2 }

// TestRulesExhaustively explores the whole state space for each case: the
// synced loss rule keeps at most one leader and the fence (the CI configs'
// scope under -short, the deep config's third tick otherwise); the rule
// today breaks AtMostOneLeader but not ProclaimedByLeader, whose check on
// the server refuses a deposed leader's proclaim (fenced is violated: the
// check did refuse one), also with a link cut and a third tick; both
// leaders' proclaims can land.
func TestRulesExhaustively(t *testing.T) {
	today := func(k *timedelection.Constants) { k.Rule = sessiontiming.Today; k.MaxFaults = 0 }
	noFaults := func(k *timedelection.Constants) { k.MaxFaults = 0 }
	deep := func(k *timedelection.Constants) { k.MaxTime = 3 }
	todayDeep := func(k *timedelection.Constants) { k.Rule = sessiontiming.Today; k.MaxTime = 3 }
	for _, tc := range []struct {
		name  string
		short bool
		edit  func(*timedelection.Constants)
		invs  []string // the invariants checked besides TypeOK
		more  func(*timedelection.State) bool
		want  string // the one violated, or "" for a pass
	}{
		{"synced", true, func(*timedelection.Constants) {}, []string{"AtMostOneLeader", "ProclaimedByLeader", "NoGrantPastDeadline", "LossBeforeExpiry", "StandIns"}, nil, ""},
		{"today leaders", true, today, []string{"ProclaimedByLeader", "AtMostOneLeader"}, nil, "AtMostOneLeader"},
		{"today fence", true, today, []string{"ProclaimedByLeader", "NoGrantPastDeadline", "StandIns"}, nil, ""},
		{"today fence acts", true, today, []string{"ProclaimedByLeader"}, fenced, "fenced"},
		{"deep synced", false, deep, []string{"AtMostOneLeader", "ProclaimedByLeader", "NoGrantPastDeadline", "LossBeforeExpiry", "StandIns"}, nil, ""},
		{"today fence cut", false, todayDeep, []string{"ProclaimedByLeader", "StandIns"}, nil, ""},
		{"both land", true, noFaults, []string{"ProclaimedByLeader"}, landed, "landed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if testing.Short() && !tc.short {
				t.Skip("-short: the CI configs' cases only")
			}
			k := base()
			tc.edit(&k)
			sp, err := timedelection.New(k)
			if err != nil {
				t.Fatal(err)
			}
			es, err := specs.TimedElectionSpec(sp, append([]string{"TypeOK"}, tc.invs...), nil)
			if err != nil {
				t.Fatal(err)
			}
			if tc.more != nil {
				es.Invariants = append(es.Invariants, explore.Invariant[timedelection.State]{Name: tc.want, Holds: tc.more})
			}
			want := explore.Pass
			if tc.want != "" {
				want = explore.InvariantViolated
			}
			proptest.Explore(t, es, want, tc.want)
		})
	}
}

// TestNewRejectsBadConstants: TimedLock's checks apply.
func TestNewRejectsBadConstants(t *testing.T) {
	for name, edit := range map[string]func(*timedelection.Constants){
		"grant rule":   func(k *timedelection.Constants) { k.GrantRule = "reread" },
		"same names":   func(k *timedelection.Constants) { k.CName = k.HName },
		"session rule": func(k *timedelection.Constants) { k.Rule = "sometimes" },
	} {
		k := base()
		edit(&k)
		if _, err := timedelection.New(k); err == nil {
			t.Errorf("%s: New accepted %+v", name, k)
		}
	}
	if _, err := timedelection.New(base()); err != nil {
		t.Fatalf("New(base) = %v", err)
	}
}
