package predlock_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/zklock/zklock/model/internal/proptest"
	"github.com/zklock/zklock/model/predlock"
)

// property is an invariant or an action property of the spec, by name.
type property = proptest.Property[predlock.State]

// properties returns the spec's properties that hold for constants k:
// NaiveExclusion only without pauses, FencedSafety only with fencing.
func properties(sp *predlock.Spec) []property {
	ps := []property{
		{Name: "TypeOK", Inv: sp.TypeOK},
		{Name: "MutualExclusion", Inv: sp.MutualExclusion},
		{Name: "NoHerd", Inv: sp.NoHerd},
		{Name: "NoOrphans", Inv: (*predlock.State).NoOrphans},
		{Name: "GrantsInSequenceOrder", Inv: sp.GrantsInSequenceOrder},
		{Name: "KnownNodeExists", Inv: sp.KnownNodeExists},
		{Name: "TokensIncrease", Act: sp.TokensIncrease},
	}
	if !sp.WithPause {
		ps = append(ps, property{Name: "NaiveExclusion", Inv: sp.NaiveExclusion})
	}
	if sp.Fencing {
		ps = append(ps, property{Name: "FencedSafety", Act: sp.FencedSafety})
	}
	return ps
}

// drawConstants draws constants beyond the TLC configs' (3 clients, one or
// two requests, MaxSeq <= 6, MaxFaults <= 2), with a grant rule under which
// every property holds: "reread" or "checked" ("local" fails
// TokensIncrease: TestGrantRuleStaleToken).
func drawConstants(t *rapid.T) predlock.Constants {
	return predlock.Constants{
		Constants: proptest.DrawConstants(t),
		Fencing:   rapid.Bool().Draw(t, "Fencing"),
		GrantRule: rapid.SampledFrom([]predlock.GrantRule{predlock.GrantReread, predlock.GrantChecked}).Draw(t, "GrantRule"),
	}
}

// walkChecking takes a random walk of up to steps steps from Init and
// fails t at the first state or step that violates one of props.
func walkChecking(t *rapid.T, sp *predlock.Spec, props []property, steps int) {
	proptest.WalkChecking(t, proptest.Lock(sp, predlock.ActionNames, predlock.ActionName), props, steps, taken)
}

// taken counts the actions the walks take (TestRandomWalksLong reports it).
var taken map[string]int

// keepsInvariants is the property: from Init, a random sequence of enabled
// actions under random constants keeps every invariant and action property.
func keepsInvariants(t *rapid.T) {
	sp, err := predlock.New(drawConstants(t), predlock.Base)
	if err != nil {
		t.Fatal(err)
	}
	walkChecking(t, sp, properties(sp), rapid.IntRange(50, 600).Draw(t, "steps"))
}

// TestRandomWalksKeepInvariants runs rapid's default number of walks (100,
// 20 under -short).
func TestRandomWalksKeepInvariants(t *testing.T) { rapid.Check(t, keepsInvariants) }

// TestRandomWalksParentReset: the same walks with the empty parent deleted
// and re-created (PredecessorLockParentReset): czxid tokens keep every
// property while sequence numbers restart.
func TestRandomWalksParentReset(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		sp, err := predlock.New(drawConstants(t), predlock.ParentReset)
		if err != nil {
			t.Fatal(err)
		}
		walkChecking(t, sp, properties(sp), rapid.IntRange(50, 600).Draw(t, "steps"))
	})
}

// TestRandomWalksLong runs 20,000 walks (skipped under -short).
func TestRandomWalksLong(t *testing.T) {
	proptest.Long(t, keepsInvariants, &taken, predlock.ActionNames[:predlock.ActListChildrenWatchParent])
}

// TestMutantsCaught is the positive control (StaleEvent's is
// TestStaleEventCaught: random walks rarely line its run up): each mutant's random walks,
// with constants a little larger than its TLC config's, violate the
// property its config expects, and rapid shrinks the walk to a short one.
func TestMutantsCaught(t *testing.T) {
	for _, tc := range []struct {
		variant predlock.Variant
		k       predlock.Constants
		prop    string
	}{
		{predlock.HerdParent, predlock.Constants{Constants: proptest.Small(0, false, false)}, "NoHerd"},
		{predlock.NotifyIsGrant, predlock.Constants{Constants: proptest.Small(0, false, true)}, "MutualExclusion"},
		{predlock.BlindRetry, predlock.Constants{Constants: proptest.Small(2, true, true)}, "NoOrphans"},
		{predlock.SeqToken, predlock.Constants{Constants: proptest.Small(0, false, false)}, "TokensIncrease"},
	} {
		t.Run(tc.variant.Module(), func(t *testing.T) {
			sp, err := predlock.New(tc.k, tc.variant)
			if err != nil {
				t.Fatal(err)
			}
			only := proptest.Only(properties(sp), tc.prop)
			proptest.Caught(t, tc.prop, func(rt *rapid.T) {
				walkChecking(rt, sp, only, rapid.IntRange(20, 60).Draw(rt, "steps"))
			})
		})
	}
}
