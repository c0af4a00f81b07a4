package predadaptive_test

import (
	"slices"
	"testing"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/internal/proptest"
	"github.com/zklock/zklock/model/predadaptive"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/predmarked"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/specs"
)

// constants are those of the mutants' configs: c1 and c3 adaptive, c2
// Plain, one request each, no fault but cancellation if cancel.
func constants(rule predadaptive.AdaptRule, cancel bool) predadaptive.Constants {
	k := recipe.Constants{Clients: []string{"c1", "c2", "c3"}, MaxRequests: 1, MaxSeq: 3, WithCancel: cancel}
	return predadaptive.Constants{
		Constants: predmarked.Constants{Constants: predlock.Constants{Constants: k, Fencing: true}, Plain: []int{1}},
		Adaptive:  []int{0, 2}, AdaptRule: rule}
}

// explored is the explorer's view of the module under k (fair: AFairSpec)
// checking MTypeOK, MutualExclusion and, if fair, StarvationFree.
func explored(t *testing.T, k predadaptive.Constants, fair bool) *explore.Spec[predmarked.State] {
	t.Helper()
	sp, err := predadaptive.New(k)
	if err != nil {
		t.Fatal(err)
	}
	var props []string
	if fair {
		props = []string{"StarvationFree"}
	}
	es, err := specs.PredAdaptiveSpec(sp, fair, []string{"MTypeOK", "MutualExclusion"}, props)
	if err != nil {
		t.Fatal(err)
	}
	return es
}

// TestSecondChangeIsHeadCaught: the NodeDataChanged of the node two ahead
// taken to mean that the predecessor is the head grants the waiter on the
// predecessor's deletion while the node two ahead holds (the
// SecondChangeIsHead config): the shortest counterexample is a
// SecondMarked, the predecessor's cancel and then AGrantOnHeadGone. The
// control is the sound rule on the same constants, which passes.
func TestSecondChangeIsHeadCaught(t *testing.T) {
	res, err := explore.Check(explored(t, constants(predadaptive.SecondChangeIsHead, true), false),
		explore.Options{TLCOrder: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != explore.InvariantViolated || res.Property != "MutualExclusion" {
		t.Fatalf("%s %s after %d states, want MutualExclusion violated", res.Verdict, res.Property, res.Distinct)
	}
	var acts []string
	for _, st := range res.Trace {
		acts = append(acts, st.Action)
	}
	i, j := slices.Index(acts, "SecondMarked"), slices.Index(acts, "AGrantOnHeadGone")
	if i < 0 || j < i || !slices.Contains(acts[:j], "MCancel") {
		t.Fatalf("counterexample %v: want SecondMarked, a cancel, then AGrantOnHeadGone", acts)
	}
	t.Logf("counterexample of %d states: %v", len(acts), acts)
	proptest.Explore(t, explored(t, constants(predadaptive.Sound, true), false), explore.Pass, "")
}

// TestSecondDropsTargetStarves: a waiter that stops listening on its
// predecessor at the mark of the node two ahead is never woken (the
// SecondDropsTarget config); the control is the sound rule under the same
// fairness.
func TestSecondDropsTargetStarves(t *testing.T) {
	proptest.Explore(t, explored(t, constants(predadaptive.SecondDropsTarget, false), true),
		explore.TemporalViolated, "StarvationFree")
	proptest.Explore(t, explored(t, constants(predadaptive.Sound, false), true), explore.Pass, "")
}

// TestSecondMarkedTaken: the sound rule's state space has a SecondMarked
// step whose waiter is then granted by GrantOnMarkedGone without a
// listing in between (the O(1) drain the rule exists for), in a queue of
// three adaptive clients without faults. The control is the same queue of
// pure marking clients (no adaptive one), where no such run exists.
func TestSecondMarkedTaken(t *testing.T) {
	k := constants(predadaptive.Sound, false)
	k.Plain, k.Adaptive = nil, []int{0, 1, 2}
	if n, ok := drainsWithoutListing(t, k); !ok {
		t.Fatalf("no GrantOnMarkedGone after a SecondMarked without a listing in %d states", n)
	}
	k.Adaptive = nil
	if _, ok := drainsWithoutListing(t, k); ok {
		t.Fatal("control: a queue without adaptive clients took SecondMarked")
	}
}

// drainsWithoutListing searches the state space of k breadth-first for a
// SecondMarked whose waiter is next granted by GrantOnMarkedGone without
// listing (AListChildren, APredecessorGone) in between; it returns the
// number of states it visited.
func drainsWithoutListing(t *testing.T, k predadaptive.Constants) (int, bool) {
	t.Helper()
	sp, err := predadaptive.New(k)
	if err != nil {
		t.Fatal(err)
	}
	type node struct {
		s       predmarked.State
		pending [3]bool // per client: took SecondMarked, has not listed since
	}
	seen := map[string]bool{}
	queue := []node{{s: sp.Init()}}
	found := false
	for len(queue) > 0 && !found {
		n := queue[0]
		queue = queue[1:]
		sp.Next(&n.s, func(l model.Label, t *predmarked.State) {
			p, c := n.pending, int(l.Client)
			switch predadaptive.ActionName(l) {
			case "SecondMarked":
				p[c] = true
			case "AListChildren", "APredecessorGone":
				p[c] = false
			case "GrantOnMarkedGone":
				found = found || p[c]
			}
			key := string(t.AppendEncoding(nil)) + string([]byte{b(p[0]), b(p[1]), b(p[2])})
			if !seen[key] {
				seen[key] = true
				queue = append(queue, node{s: *t, pending: p})
			}
		})
	}
	return len(seen), found
}

// b is 1 for true.
func b(x bool) byte {
	if x {
		return 1
	}
	return 0
}

// TestNewRejectsBadConstants: an unknown rule, an adaptive client that is
// Plain or not a client, a forger.
func TestNewRejectsBadConstants(t *testing.T) {
	k := constants(predadaptive.SecondDropsTarget+1, false)
	if _, err := predadaptive.New(k); err == nil {
		t.Error("an unknown AdaptRule accepted")
	}
	k = constants(predadaptive.Sound, false)
	k.Adaptive = []int{1}
	if _, err := predadaptive.New(k); err == nil {
		t.Error("a Plain client accepted as Adaptive")
	}
	k.Adaptive = []int{3}
	if _, err := predadaptive.New(k); err == nil {
		t.Error("an Adaptive client outside Clients accepted")
	}
	k = constants(predadaptive.Sound, false)
	k.WithForgery = true
	if _, err := predadaptive.New(k); err == nil {
		t.Error("a forger accepted")
	}
	if _, err := predadaptive.ParseAdaptRule("secondChangeIsHead"); err != nil {
		t.Error(err)
	}
	if _, err := predadaptive.ParseAdaptRule("secondChangeRelist"); err == nil {
		t.Error(`AdaptRule "secondChangeRelist" parsed`)
	}
}
