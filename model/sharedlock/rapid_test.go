package sharedlock_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/zklock/zklock/model/internal/proptest"
	"github.com/zklock/zklock/model/sharedlock"
)

// property is an invariant or an action property of the spec, by name.
type property = proptest.Property[sharedlock.State]

// properties returns the spec's invariants that hold for sp's constants:
// WriterExclusion only without pauses (ReadersShare is a witness that must
// fail, see TestReadersShareWitness).
func properties(sp *sharedlock.Spec) []property {
	ps := []property{
		{Name: "TypeOK", Inv: sp.TypeOK},
		{Name: "MutualExclusion", Inv: sp.MutualExclusion},
		{Name: "NoHerd", Inv: sp.NoHerd},
		{Name: "NoOrphans", Inv: (*sharedlock.State).NoOrphans},
		{Name: "GrantsInSequenceOrder", Inv: sp.GrantsInSequenceOrder},
		{Name: "KnownNodeExists", Inv: sp.KnownNodeExists},
		{Name: "ReadersNotBlockedByReaders", Inv: sp.ReadersNotBlockedByReaders},
	}
	if !sp.WithPause {
		ps = append(ps, property{Name: "WriterExclusion", Inv: sp.WriterExclusion})
	}
	return ps
}

// drawConstants draws constants beyond the TLC configs'.
func drawConstants(t *rapid.T) sharedlock.Constants {
	return sharedlock.Constants{Constants: proptest.DrawConstants(t), WithDowngrade: rapid.Bool().Draw(t, "WithDowngrade")}
}

// walkChecking takes a random walk of up to steps steps from Init and
// fails t at the first state or step that violates one of props.
func walkChecking(t *rapid.T, sp *sharedlock.Spec, props []property, steps int) {
	proptest.WalkChecking(t, proptest.Lock(sp, sharedlock.ActionNames, sharedlock.ActionName), props, steps, taken)
}

// taken counts the actions the walks take (TestRandomWalksLong reports it).
var taken map[string]int

func keepsInvariants(t *rapid.T) {
	sp, err := sharedlock.New(drawConstants(t), sharedlock.Base)
	if err != nil {
		t.Fatal(err)
	}
	walkChecking(t, sp, properties(sp), rapid.IntRange(50, 600).Draw(t, "steps"))
}

// TestRandomWalksKeepInvariants: from Init, random sequences of enabled
// actions under random constants keep every invariant.
func TestRandomWalksKeepInvariants(t *testing.T) { rapid.Check(t, keepsInvariants) }

// TestRandomWalksLong runs 20,000 walks (skipped under -short).
func TestRandomWalksLong(t *testing.T) {
	proptest.Long(t, keepsInvariants, &taken, sharedlock.ActionNames[:sharedlock.ActDowngradeByReleaseAcquire])
}

// TestMutantsCaught is the positive control: each mutant's random walks
// violate the property its TLC config expects, in a shrunk counterexample;
// and the ReadersShare witness fails in SharedLock itself (readers share).
func TestMutantsCaught(t *testing.T) {
	for _, tc := range []struct {
		variant sharedlock.Variant
		k       sharedlock.Constants
		prop    string
	}{
		{sharedlock.DowngradeReleaseAcquire, sharedlock.Constants{Constants: proptest.Small(0, false, false), WithDowngrade: true}, "WriterExclusion"},
		{sharedlock.ReaderWatchesPredecessor, sharedlock.Constants{Constants: proptest.Small(0, false, false)}, "ReadersNotBlockedByReaders"},
		{sharedlock.WriterShortcut, sharedlock.Constants{Constants: proptest.Small(0, false, false), WithDowngrade: true}, "WriterExclusion"},
		{sharedlock.DowngradeLost, sharedlock.Constants{Constants: proptest.Small(2, true, false), WithDowngrade: true}, "WriterExclusion"},
		{sharedlock.Base, sharedlock.Constants{Constants: proptest.Small(0, false, false)}, "ReadersShare"},
	} {
		t.Run(tc.variant.Module()+"/"+tc.prop, func(t *testing.T) {
			sp, err := sharedlock.New(tc.k, tc.variant)
			if err != nil {
				t.Fatal(err)
			}
			props := append(properties(sp), property{Name: "ReadersShare", Inv: sp.ReadersShare})
			check := proptest.Only(props, tc.prop)
			proptest.Caught(t, tc.prop, func(rt *rapid.T) {
				walkChecking(rt, sp, check, rapid.IntRange(20, 60).Draw(rt, "steps"))
			})
		})
	}
}
