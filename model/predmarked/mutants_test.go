package predmarked_test

import (
	"testing"

	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/internal/proptest"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/predmarked"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/specs"
)

// constants are those of the mutants' configs: n clients, one request
// each, no faults but cancellation if cancel (and, with forgery, one fault
// for the forger).
func constants(n int, rule predmarked.MarkRule, cancel, forgery bool) predmarked.Constants {
	k := recipe.Constants{Clients: []string{"c1", "c2", "c3"}[:n], MaxRequests: 1, MaxSeq: n, WithCancel: cancel}
	if forgery {
		k.MaxFaults = 1
	}
	return predmarked.Constants{Constants: predlock.Constants{Constants: k, Fencing: true},
		MarkRule: rule, WithForgery: forgery}
}

// explored is the explorer's view of the module under k (forged: the
// Forged module; fair: MFairSpec) checking MTypeOK, MutualExclusion and,
// if fair, StarvationFree.
func explored(t *testing.T, k predmarked.Constants, forged, fair bool) *explore.Spec[predmarked.State] {
	t.Helper()
	sp, err := predmarked.New(k, forged)
	if err != nil {
		t.Fatal(err)
	}
	var props []string
	if fair {
		props = []string{"StarvationFree"}
	}
	es, err := specs.PredMarkedSpec(sp, fair, []string{"MTypeOK", "MutualExclusion"}, props)
	if err != nil {
		t.Fatal(err)
	}
	return es
}

// TestMarkIsGrantCaught: the NodeDataChanged event taken as the grant
// grants while the marker holds (the MarkIsGrant config); the control is
// the sound rule on the same constants, which passes.
func TestMarkIsGrantCaught(t *testing.T) {
	proptest.Explore(t, explored(t, constants(2, predmarked.MarkIsGrant, false, false), false, false),
		explore.InvariantViolated, "MutualExclusion")
	proptest.Explore(t, explored(t, constants(2, predmarked.Sound, false, false), false, false), explore.Pass, "")
}

// TestUnmarkedGrantCaught: the deletion of a predecessor never seen
// marked taken as the grant grants while the head holds, once a middle
// waiter cancels (the DeleteIsGrantUnmarked config); the control is the
// sound rule on the same constants.
func TestUnmarkedGrantCaught(t *testing.T) {
	proptest.Explore(t, explored(t, constants(3, predmarked.UnmarkedGrant, true, false), false, false),
		explore.InvariantViolated, "MutualExclusion")
	proptest.Explore(t, explored(t, constants(3, predmarked.Sound, true, false), false, false), explore.Pass, "")
}

// TestNoRearmStarves: a waiter that does not re-arm after the mark's
// NodeDataChanged is never woken by the release (the NoRearm config);
// the control is the sound rule under the same fairness.
func TestNoRearmStarves(t *testing.T) {
	proptest.Explore(t, explored(t, constants(2, predmarked.NoRearm, false, false), false, true),
		explore.TemporalViolated, "StarvationFree")
	proptest.Explore(t, explored(t, constants(2, predmarked.Sound, false, false), false, true), explore.Pass, "")
}

// TestForgedMarkCaught: an outsider's forged mark on a waiting node,
// which then cancels, makes the waiter behind it take the deletion as the
// grant while the head holds (the ForgedMark config); the control is the
// same constants without forgery.
func TestForgedMarkCaught(t *testing.T) {
	proptest.Explore(t, explored(t, constants(3, predmarked.Sound, true, true), true, false),
		explore.InvariantViolated, "MutualExclusion")
	proptest.Explore(t, explored(t, constants(3, predmarked.Sound, true, false), true, false), explore.Pass, "")
}

// TestNewRejectsBadConstants: an unknown rule, or a Plain client that is
// not a client.
func TestNewRejectsBadConstants(t *testing.T) {
	k := constants(2, predmarked.NoRearm+1, false, false)
	if _, err := predmarked.New(k, false); err == nil {
		t.Error("an unknown MarkRule accepted")
	}
	k = constants(2, predmarked.Sound, false, false)
	k.Plain = []int{2}
	if _, err := predmarked.New(k, false); err == nil {
		t.Error("a Plain client outside Clients accepted")
	}
	if _, err := predmarked.ParseMarkRule("markIsGrant"); err != nil {
		t.Error(err)
	}
	if _, err := predmarked.ParseMarkRule("grant"); err == nil {
		t.Error(`MarkRule "grant" parsed`)
	}
}
