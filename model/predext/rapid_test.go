package predext_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/zklock/zklock/model/internal/proptest"
	"github.com/zklock/zklock/model/predext"
	"github.com/zklock/zklock/model/predlock"
)

type property = proptest.Property[predext.State]

// properties returns the module's properties that hold for its constants:
// PredecessorLock's (NaiveExclusion only without pauses, FencedSafety only
// with fencing) on the embedded state, and GuardedExclusion.
func properties(sp *predext.Spec) []property {
	in := func(f func(*predlock.State) bool) func(*predext.State) bool {
		return func(s *predext.State) bool { return f(&s.State) }
	}
	ps := []property{
		{Name: "TypeOK", Inv: sp.TypeOK},
		{Name: "MutualExclusion", Inv: in(sp.MutualExclusion)},
		{Name: "NoHerd", Inv: in(sp.NoHerd)},
		{Name: "NoOrphans", Inv: in((*predlock.State).NoOrphans)},
		{Name: "GrantsInSequenceOrder", Inv: in(sp.GrantsInSequenceOrder)},
		{Name: "KnownNodeExists", Inv: in(sp.KnownNodeExists)},
		{Name: "TokensIncrease", Act: func(s, t *predext.State) bool { return sp.TokensIncrease(&s.State, &t.State) }},
		{Name: "GuardedExclusion", Act: sp.GuardedExclusion},
	}
	if !sp.WithPause {
		ps = append(ps, property{Name: "NaiveExclusion", Inv: in(sp.NaiveExclusion)})
	}
	if sp.Fencing {
		ps = append(ps, property{Name: "FencedSafety", Act: func(s, t *predext.State) bool { return sp.FencedSafety(&s.State, &t.State) }})
	}
	return ps
}

// walker is the random walks' view of sp.
func walker(sp *predext.Spec) proptest.Spec[predext.State] {
	return proptest.Spec[predext.State]{Init: sp.Init, Next: sp.Next, Actions: int(predext.ActFlightLands) + 1,
		ActionName: sp.ActionName, LabelString: sp.LabelString, Format: sp.Format}
}

// drawConstants draws constants beyond the TLC configs', with a grant rule
// under which PredecessorLock's properties hold ("reread" or "checked").
func drawConstants(t *rapid.T) predlock.Constants {
	return predlock.Constants{
		Constants: proptest.DrawConstants(t),
		Fencing:   rapid.Bool().Draw(t, "Fencing"),
		GrantRule: rapid.SampledFrom([]predlock.GrantRule{predlock.GrantReread, predlock.GrantChecked}).Draw(t, "GrantRule"),
	}
}

// TestRandomWalksKeepInvariants: from Init, random walks of the modules
// under random constants (up to 6 clients, 4 requests, 5 faults) keep
// every property, GuardedExclusion included.
func TestRandomWalksKeepInvariants(t *testing.T) {
	for _, m := range []predext.Module{predext.Guard, predext.CancelInFlight} {
		t.Run(m.Name(), func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				sp, err := predext.New(drawConstants(t), m)
				if err != nil {
					t.Fatal(err)
				}
				proptest.WalkChecking(t, walker(sp), properties(sp), rapid.IntRange(50, 600).Draw(t, "steps"), nil)
			})
		})
	}
}

// TestMutantsCaught is the positive control for CancelNoWait: its random
// walks violate NoOrphans, the state form of the orphan that its config's
// NoOrphansEventually finds (walks cannot check liveness). GuardUnchecked's
// control is TestStaleWrite: its violation needs a pause, an expiry and
// the other client's grant lined up, which random walks find too rarely
// for a test that must not be flaky.
func TestMutantsCaught(t *testing.T) {
	k := predlock.Constants{Constants: proptest.Small(0, false, true), GrantRule: predlock.GrantChecked}
	sp, err := predext.New(k, predext.CancelNoWait)
	if err != nil {
		t.Fatal(err)
	}
	only := proptest.Only(properties(sp), "NoOrphans")
	proptest.Caught(t, "NoOrphans", func(rt *rapid.T) {
		proptest.WalkChecking(rt, walker(sp), only, rapid.IntRange(20, 60).Draw(rt, "steps"), nil)
	})
}

// TestUnknownModule: New refuses a module it does not mirror.
func TestUnknownModule(t *testing.T) {
	if _, err := predext.New(predlock.Constants{}, predext.CancelNoWait+1); err == nil {
		t.Fatal("New accepted an unknown module")
	}
}
