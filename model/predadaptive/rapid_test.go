package predadaptive_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/zklock/zklock/model/internal/proptest"
	"github.com/zklock/zklock/model/predadaptive"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/predmarked"
	"github.com/zklock/zklock/traceevent"
)

type property = proptest.Property[predmarked.State]

// properties returns the module's properties that hold for its constants:
// PredecessorLockMarked's but OneWatcher (an adaptive waiter watches a
// second node), NaiveExclusion only without pauses, FencedSafety only with
// fencing.
func properties(sp *predadaptive.Spec) []property {
	var ps []property
	for name, f := range sp.Invariants() {
		if name != "OneWatcher" && (name != "NaiveExclusion" || !sp.WithPause) {
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

// walker is the random walks' view of sp.
func walker(sp *predadaptive.Spec) proptest.Spec[predmarked.State] {
	return proptest.Spec[predmarked.State]{Init: sp.Init, Next: sp.Next, Actions: int(predadaptive.ActSkipMark) + 1,
		ActionName: sp.ActionName, LabelString: sp.LabelString, Format: sp.Format}
}

// drawConstants draws constants beyond the TLC configs': each client
// Plain, a pure marker or adaptive, the sound rules, and a grant rule
// under which PredecessorLock's properties hold ("reread" or "checked").
func drawConstants(t *rapid.T) predadaptive.Constants {
	k := predadaptive.Constants{Constants: predmarked.Constants{Constants: predlock.Constants{
		Constants: proptest.DrawConstants(t),
		Fencing:   rapid.Bool().Draw(t, "Fencing"),
		GrantRule: rapid.SampledFrom([]predlock.GrantRule{predlock.GrantReread, predlock.GrantChecked}).Draw(t, "GrantRule"),
	}}}
	for c := range k.Clients {
		switch rapid.IntRange(0, 3).Draw(t, "kind") {
		case 0:
			k.Plain = append(k.Plain, c)
		case 1: // a pure marker
		default:
			k.Adaptive = append(k.Adaptive, c)
		}
	}
	return k
}

// keepsInvariants is one random walk of the sound adaptive marker under
// random constants (up to 6 clients, 4 requests, 5 faults, the three
// kinds of client), checking every property.
func keepsInvariants(t *rapid.T) {
	sp, err := predadaptive.New(drawConstants(t))
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
// unless they took every step of an adaptive client.
func TestRandomWalksLong(t *testing.T) {
	proptest.Long(t, keepsInvariants, &taken, []traceevent.Action{"AListChildren", "AWatchSecond",
		"AWatchPredecessor", "MarkSeen", "Rearm", "SecondMarked", "GrantOnMarkedGone", "AGrantOnHeadGone",
		"APredecessorGone", "Mark", "SkipMark", "WatchOwn"})
}

// TestMutantCaughtByWalks is the random walks' positive control: the
// marker's markIsGrant rule, which adaptive waiters take through the
// marker's own MarkSeen, violates MutualExclusion within 10,000 walks of
// three adaptive clients. (secondChangeIsHead needs the node two ahead to
// mark after the waiter watched it and the predecessor to leave next:
// walks miss it about once in ten runs of 10,000, so its control is the
// exhaustive TestSecondChangeIsHeadCaught.)
func TestMutantCaughtByWalks(t *testing.T) {
	k := constants(predadaptive.Sound, true)
	k.Plain, k.Adaptive, k.MarkRule = nil, []int{0, 1, 2}, predmarked.MarkIsGrant
	sp, err := predadaptive.New(k)
	if err != nil {
		t.Fatal(err)
	}
	only := proptest.Only(properties(sp), "MutualExclusion")
	proptest.Caught(t, "MutualExclusion", func(rt *rapid.T) {
		proptest.WalkChecking(rt, walker(sp), only, rapid.IntRange(20, 60).Draw(rt, "steps"), nil)
	})
}
