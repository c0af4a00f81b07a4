package predadaptiveforeign_test

import (
	"slices"
	"testing"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/internal/proptest"
	"github.com/zklock/zklock/model/predadaptiveforeign"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/specs"
)

// constants are those of the configs: n clients, one request each, no
// fault but cancellation, one operator setData.
func constants(rule predadaptiveforeign.DataRule, n int) predadaptiveforeign.Constants {
	k := recipe.Constants{Clients: []string{"c1", "c2", "c3"}[:n], MaxRequests: 1, MaxSeq: n, WithCancel: true}
	return predadaptiveforeign.Constants{Constants: predlock.Constants{Constants: k, Fencing: true},
		DataRule: rule, MaxForeignSets: 1}
}

// explored is the explorer's view of the module under k, checking AFTypeOK
// and MutualExclusion.
func explored(t *testing.T, k predadaptiveforeign.Constants) (*predadaptiveforeign.Spec, *explore.Spec[predadaptiveforeign.State]) {
	t.Helper()
	sp, err := predadaptiveforeign.New(k)
	if err != nil {
		t.Fatal(err)
	}
	es, err := specs.PredAdaptiveForeignSpec(sp, false, []string{"AFTypeOK", "MutualExclusion"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return sp, es
}

// TestAnyVersionCaught: with the rule before the fix (the AnyVersion
// config) the shortest counterexample is the innocent operator's story:
// ForeignSetData on a node that is not the head
// (its owner waits in the queue), that owner's cancel, then its
// successor's grant without listing while the head holds. Controls: the
// same steps under the verified rule stop before that grant (its step is
// disabled), and the verified rule passes with two clients and cancel
// (Short; the three-client DeepSafety is the deep set's).
func TestAnyVersionCaught(t *testing.T) {
	sp, es := explored(t, constants(predadaptiveforeign.AnyVersion, 3))
	res, err := explore.Check(es, explore.Options{TLCOrder: true})
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
	set := slices.Index(acts, "ForeignSetData")
	if set < 1 || !slices.Contains(acts[set:], "MCancel") || acts[len(acts)-1] != "MGrant" {
		t.Fatalf("counterexample %v: want ForeignSetData, a cancel, then a grant", acts)
	}
	before := &res.Trace[set-1].State
	written := int(res.Trace[set].Label.Arg)
	if len(before.Nodes) == 0 || before.Nodes[0].Seq == written {
		t.Fatalf("counterexample %v: the operator wrote the head's node %d, not a waiting one", acts, written)
	}
	for c := range sp.N() {
		if before.Node[c] == written && before.PC[c] == recipe.PCHold {
			t.Fatalf("counterexample %v: the operator wrote %s's node, which holds", acts, sp.Clients[c])
		}
	}
	t.Logf("counterexample of %d states: %v", len(acts), acts)

	vsp, _ := explored(t, constants(predadaptiveforeign.Verified, 3))
	s := vsp.Init()
	var next predadaptiveforeign.State
	for i, st := range res.Trace[1:] {
		if g := vsp.Step(&s, st.Label, &next); g != model.Enabled {
			t.Logf("verified rule: step %d, %s, disabled (%s)", i+1, vsp.LabelString(st.Label), g)
			break
		}
		if i == len(res.Trace)-2 {
			t.Fatalf("verified rule takes the whole counterexample %v", acts)
		}
		s = next
	}
	_, short := explored(t, constants(predadaptiveforeign.Verified, 2))
	proptest.Explore(t, short, explore.Pass, "")
}
