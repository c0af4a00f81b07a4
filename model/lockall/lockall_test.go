package lockall_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/internal/proptest"
	"github.com/zklock/zklock/model/lockall"
	"github.com/zklock/zklock/model/specs"
)

type property = proptest.Property[lockall.State]

func properties(sp *lockall.Spec) []property {
	return []property{
		{Name: "TypeOK", Inv: sp.TypeOK},
		{Name: "MutualExclusion", Inv: sp.MutualExclusion},
		{Name: "NoOrphans", Inv: sp.NoOrphans},
		{Name: "AllOrNothing", Act: sp.AllOrNothing},
	}
}

// impl are the rules impl/zklock's LockAll follows.
func impl(k lockall.Constants) lockall.Constants {
	k.Order, k.LostPart, k.ReleaseOnFailure = lockall.Path, lockall.Checked, true
	return k
}

// TestRandomWalks: random walks of 20-400 steps under constants beyond the
// TLC configs' (up to 5 pairs and 3 singles, 4 calls each, 6 faults) keep
// every safety property under impl/zklock's rules.
func TestRandomWalks(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		k := impl(lockall.Constants{
			Pairs:       rapid.IntRange(0, 5).Draw(t, "Pairs"),
			Singles:     rapid.IntRange(0, 3).Draw(t, "Singles"),
			MaxRequests: rapid.IntRange(1, 4).Draw(t, "MaxRequests"),
			MaxFaults:   rapid.IntRange(0, 6).Draw(t, "MaxFaults"),
		})
		if k.Pairs+k.Singles == 0 {
			k.Pairs = 1
		}
		sp, err := lockall.New(k)
		if err != nil {
			t.Fatal(err)
		}
		proptest.WalkChecking(t, proptest.Spec[lockall.State]{
			Init: sp.Init, Next: sp.Next, Actions: len(lockall.ActionNames),
			ActionName: lockall.ActionName, LabelString: sp.LabelString, Format: sp.Format,
		}, properties(sp), rapid.IntRange(20, 400).Draw(t, "steps"), nil)
	})
}

// check explores sp exhaustively with the named properties, under
// FairSpec's fairness when fair.
func check(t *testing.T, k lockall.Constants, fair, deadlock bool, invs, props []string) *explore.Result[lockall.State] {
	t.Helper()
	sp, err := lockall.New(k)
	if err != nil {
		t.Fatal(err)
	}
	es, err := specs.LockAllSpec(sp, fair, invs, props)
	if err != nil {
		t.Fatal(err)
	}
	es.CheckDeadlock = deadlock
	res, err := explore.Check(es, explore.Options{TLCOrder: true})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestRulesExhaustively explores every state beside the TLC configs'
// bounds (three pairs and a single, one call each, two faults; under
// -short two pairs): impl/zklock's rules keep every property, and each
// control is caught: the caller's order deadlocks (and LockAllReturns
// fails under fairness), a lost part ignored or only watched lets LockAll
// return a MultiLease with a part missing (AllOrNothing), and a failure
// that keeps what it took leaves an orphan node (NoOrphans).
func TestRulesExhaustively(t *testing.T) {
	base := impl(lockall.Constants{Pairs: 3, Singles: 1, MaxRequests: 1, MaxFaults: 2})
	if testing.Short() {
		base.Pairs = 2
	}
	safety := []string{"TypeOK", "MutualExclusion", "NoOrphans"}
	for _, tc := range []struct {
		name           string
		edit           func(*lockall.Constants)
		fair, deadlock bool
		invs, props    []string
		want           explore.Verdict
		prop           string
	}{
		{"impl safety", func(*lockall.Constants) {}, false, true, safety, []string{"AllOrNothing"}, explore.Pass, ""},
		{"impl returns", func(*lockall.Constants) {}, true, false, nil, []string{"LockAllReturns"}, explore.Pass, ""},
		{"impl returns, no faults", func(k *lockall.Constants) { k.MaxFaults, k.MaxRequests = 0, 2 }, true, false, nil, []string{"LockAllReturns"}, explore.Pass, ""},
		{"given order deadlocks", func(k *lockall.Constants) { k.Order, k.MaxFaults = lockall.Given, 0 }, false, true, safety, nil, explore.Deadlock, ""},
		{"given order hangs", func(k *lockall.Constants) { k.Order, k.MaxFaults = lockall.Given, 0 }, true, false, nil, []string{"LockAllReturns"}, explore.TemporalViolated, "LockAllReturns"},
		{"lost part ignored", func(k *lockall.Constants) { k.LostPart = lockall.Ignored }, false, false, safety, []string{"AllOrNothing"}, explore.ActionPropertyViolated, "AllOrNothing"},
		{"lost part watched", func(k *lockall.Constants) { k.LostPart = lockall.Watched }, false, false, safety, []string{"AllOrNothing"}, explore.ActionPropertyViolated, "AllOrNothing"},
		{"keep on failure", func(k *lockall.Constants) { k.ReleaseOnFailure = false }, false, false, safety, nil, explore.InvariantViolated, "NoOrphans"},
		{"keep on failure, action", func(k *lockall.Constants) { k.ReleaseOnFailure = false }, false, false, nil, []string{"AllOrNothing"}, explore.ActionPropertyViolated, "AllOrNothing"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := base
			tc.edit(&k)
			res := check(t, k, tc.fair, tc.deadlock, tc.invs, tc.props)
			if res.Verdict != tc.want || res.Property != tc.prop {
				t.Fatalf("%s %s after %d states, want %s %s", res.Verdict, res.Property, res.Distinct, tc.want, tc.prop)
			}
			t.Logf("%s %s: %d distinct states, counterexample of %d states", res.Verdict, res.Property, res.Distinct, len(res.Trace))
		})
	}
}

// TestSingleSessionLossIsCovered: the control "ignored" fails even when
// only lock 1's session is lost and nothing else goes wrong: one client,
// one call, one fault.
func TestSingleSessionLossIsCovered(t *testing.T) {
	k := lockall.Constants{Pairs: 1, MaxRequests: 1, MaxFaults: 1, Order: lockall.Path, LostPart: lockall.Ignored, ReleaseOnFailure: true}
	res := check(t, k, false, false, nil, []string{"AllOrNothing"})
	if res.Verdict != explore.ActionPropertyViolated {
		t.Fatalf("%s, want AllOrNothing violated", res.Verdict)
	}
	var path []string
	for _, st := range res.Trace[1:] {
		path = append(path, st.Action)
	}
	want := []string{"Start", "Enqueue", "Grant", "Enqueue", "LoseSession", "Grant"}
	if len(path) != len(want) {
		t.Fatalf("counterexample %v, want %v", path, want)
	}
	for i := range want {
		if path[i] != want[i] {
			t.Fatalf("counterexample %v, want %v", path, want)
		}
	}
}

func TestNewRejectsBadConstants(t *testing.T) {
	ok := impl(lockall.Constants{Pairs: 1, MaxRequests: 1})
	for name, edit := range map[string]func(*lockall.Constants){
		"no clients":     func(k *lockall.Constants) { k.Pairs = 0 },
		"negative":       func(k *lockall.Constants) { k.MaxFaults = -1 },
		"unknown order":  func(k *lockall.Constants) { k.Order = "random" },
		"unknown rule":   func(k *lockall.Constants) { k.LostPart = "hoped" },
		"empty rule":     func(k *lockall.Constants) { k.LostPart = "" },
		"negative pairs": func(k *lockall.Constants) { k.Pairs, k.Singles = -1, 2 },
	} {
		k := ok
		edit(&k)
		if _, err := lockall.New(k); err == nil {
			t.Errorf("%s: New(%+v) accepted", name, k)
		}
	}
	if _, err := lockall.New(ok); err != nil {
		t.Errorf("New(%+v): %v", ok, err)
	}
}

// TestPlans: the path order sorts a pair given as <<2, 1>>; the given
// order keeps it.
func TestPlans(t *testing.T) {
	for _, tc := range []struct {
		order lockall.Order
		want  [3][]int
	}{
		{lockall.Path, [3][]int{{1, 2}, {1, 2}, {2}}},
		{lockall.Given, [3][]int{{1, 2}, {2, 1}, {2}}},
	} {
		sp, err := lockall.New(lockall.Constants{Pairs: 2, Singles: 1, MaxRequests: 1, Order: tc.order, LostPart: lockall.Checked})
		if err != nil {
			t.Fatal(err)
		}
		for c, want := range tc.want {
			got := sp.Plan(c)
			if len(got) != len(want) || got[0] != want[0] || got[len(got)-1] != want[len(want)-1] {
				t.Errorf("%s: Plan(%d) = %v, want %v", tc.order, c+1, got, want)
			}
		}
	}
}
