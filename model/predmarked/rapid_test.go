package predmarked_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/zklock/zklock/model/internal/proptest"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/predmarked"
	"github.com/zklock/zklock/traceevent"
)

type property = proptest.Property[predmarked.State]

// properties returns the module's properties that hold for its constants:
// the marker's invariants (OneWatcher only in a queue of marking clients,
// as the configs check it) and PredecessorLock's on the embedded state
// (NaiveExclusion only without pauses, FencedSafety only with fencing).
func properties(sp *predmarked.Spec) []property {
	var ps []property
	for name, f := range sp.Invariants() {
		switch {
		case name == "NaiveExclusion" && sp.WithPause:
		case name == "OneWatcher" && plain(sp):
		default:
			ps = append(ps, property{Name: name, Inv: f})
		}
	}
	for name, f := range sp.ActionProperties() {
		if name != "FencedSafety" || sp.Fencing {
			ps = append(ps, property{Name: name, Act: f})
		}
	}
	return ps
}

// plain reports whether sp has a Plain client.
func plain(sp *predmarked.Spec) bool {
	for _, p := range sp.Plain {
		if p {
			return true
		}
	}
	return false
}

// walker is the random walks' view of sp.
func walker(sp *predmarked.Spec) proptest.Spec[predmarked.State] {
	return proptest.Spec[predmarked.State]{Init: sp.Init, Next: sp.Next, Actions: int(predmarked.ActForgeMark) + 1,
		ActionName: sp.ActionName, LabelString: sp.LabelString, Format: sp.Format}
}

// drawConstants draws constants beyond the TLC configs', a random set of
// Plain clients, the sound rule, and a grant rule under which
// PredecessorLock's properties hold ("reread" or "checked").
func drawConstants(t *rapid.T) predmarked.Constants {
	k := predmarked.Constants{Constants: predlock.Constants{
		Constants: proptest.DrawConstants(t),
		Fencing:   rapid.Bool().Draw(t, "Fencing"),
		GrantRule: rapid.SampledFrom([]predlock.GrantRule{predlock.GrantReread, predlock.GrantChecked}).Draw(t, "GrantRule"),
	}}
	for c := range k.Clients {
		if rapid.IntRange(0, 3).Draw(t, "plain") == 0 {
			k.Plain = append(k.Plain, c)
		}
	}
	return k
}

// keepsInvariants is one random walk of the sound marker under random
// constants (up to 6 clients, 4 requests, 5 faults, some clients Plain),
// checking every property.
func keepsInvariants(t *rapid.T) {
	sp, err := predmarked.New(drawConstants(t), false)
	if err != nil {
		t.Fatal(err)
	}
	proptest.WalkChecking(t, walker(sp), properties(sp), rapid.IntRange(50, 600).Draw(t, "steps"), taken)
}

// taken counts the actions the walks take (TestRandomWalksLong reports it).
var taken map[string]int

// TestRandomWalksKeepInvariants: from MInit, random walks keep every
// property.
func TestRandomWalksKeepInvariants(t *testing.T) { rapid.Check(t, keepsInvariants) }

// TestRandomWalksLong runs 20,000 walks (skipped under -short) and fails
// unless they took every step of the marker and of a Plain client.
func TestRandomWalksLong(t *testing.T) {
	proptest.Long(t, keepsInvariants, &taken, []traceevent.Action{"MListChildren", "MWatchPredecessor",
		"MarkSeen", "Rearm", "GrantOnMarkedGone", "UnmarkedGone", "MGrant", "Mark", "WatchOwn",
		"PListChildren", "PWatchSecond", "PWatchPredecessor", "PPredecessorGone", "PGrantOnHeadGone"})
}

// TestMutantsCaughtByWalks is the random walks' positive control: the
// markIsGrant and unmarkedGrant rules violate MutualExclusion within
// 10,000 walks of three clients that may cancel (their exhaustive controls are TestMarkIsGrantCaught and
// TestUnmarkedGrantCaught; noRearm's violation is a liveness one, which
// walks cannot see: TestNoRearmStarves).
func TestMutantsCaughtByWalks(t *testing.T) {
	for _, rule := range []predmarked.MarkRule{predmarked.MarkIsGrant, predmarked.UnmarkedGrant} {
		t.Run(rule.String(), func(t *testing.T) {
			sp, err := predmarked.New(constants(3, rule, true, false), false)
			if err != nil {
				t.Fatal(err)
			}
			only := proptest.Only(properties(sp), "MutualExclusion")
			proptest.Caught(t, "MutualExclusion", func(rt *rapid.T) {
				proptest.WalkChecking(rt, walker(sp), only, rapid.IntRange(20, 60).Draw(rt, "steps"), nil)
			})
		})
	}
}
