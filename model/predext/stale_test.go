package predext_test

import (
	"testing"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/predext"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/recipe"
)

// TestStaleWrite replays PredecessorLockGuardUnchecked's counterexample in
// both Guard modules: c1 holds, pauses, its session expires, c2 is granted,
// c1 resumes and writes. Through Guard (the check first in the multi) the
// write does not land and c1 learns its session is gone; without the check
// it lands beside c2's lease and GuardedExclusion fails (the control).
func TestStaleWrite(t *testing.T) {
	k := predlock.Constants{Constants: recipe.Constants{Clients: []string{"c1", "c2"}, MaxRequests: 1,
		MaxSeq: 2, MaxFaults: 2, WithExpiry: true, WithPause: true}, Fencing: true, GrantRule: predlock.GrantChecked}
	c1 := func(a uint8) model.Label { return model.Label{Action: a, Client: 0} }
	c2 := func(a uint8) model.Label { return model.Label{Action: a, Client: 1} }
	run := []model.Label{
		c1(recipe.ActRequestLock), c1(recipe.ActCreateOk), c1(recipe.ActListChildren), c1(recipe.ActGrant),
		c1(recipe.ActPauseClient), {Action: recipe.ActExpireSession, Client: 0, Arg: 1},
		c2(recipe.ActRequestLock), c2(recipe.ActCreateOk), c2(recipe.ActListChildren), c2(recipe.ActGrant),
		c1(recipe.ActResumeClient),
	}
	for _, tc := range []struct {
		module predext.Module
		write  uint8
		lands  bool
	}{
		{predext.Guard, predext.ActGuardedWrite, false},
		{predext.GuardUnchecked, predext.ActUnguardedWrite, true},
	} {
		t.Run(tc.module.Name(), func(t *testing.T) {
			sp, err := predext.New(k, tc.module)
			if err != nil {
				t.Fatal(err)
			}
			s := sp.Init()
			for _, l := range append(run, c1(tc.write)) {
				var next predext.State
				if g := sp.Step(&s, l, &next); g != model.Enabled {
					t.Fatalf("%s is disabled: %s", sp.LabelString(l), g)
				}
				if !sp.GuardedExclusion(&s, &next) {
					if !tc.lands {
						t.Fatalf("GuardedExclusion violated by %s:\n%s", sp.LabelString(l), sp.Format(&next))
					}
					t.Logf("caught: %s lands while c2 holds", sp.LabelString(l))
					return
				}
				s = next
			}
			if tc.lands {
				t.Fatalf("the unguarded write did not violate GuardedExclusion:\n%s", sp.Format(&s))
			}
			if s.PC[0] != recipe.PCIdle || s.Guarded != 0 {
				t.Fatalf("the refused guarded write should end c1's lease and change nothing:\n%s", sp.Format(&s))
			}
		})
	}
}
