package election_test

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/zklock/zklock/model/election"
	"github.com/zklock/zklock/model/internal/proptest"
	"github.com/zklock/zklock/model/predlock"
)

type property = proptest.Property[election.State]

// properties returns Election's safety properties that hold for sp's
// constants (FencedLeadership only with fencing).
func properties(sp *election.Spec) []property {
	in := func(f func(*predlock.State) bool) func(*election.State) bool {
		return func(s *election.State) bool { return f(&s.State) }
	}
	ps := []property{
		{Name: "TypeOK", Inv: sp.TypeOK},
		{Name: "AtMostOneLeader", Inv: sp.AtMostOneLeader},
		{Name: "NoHerd", Inv: in(sp.NoHerd)},
		{Name: "NoOrphans", Inv: in((*predlock.State).NoOrphans)},
		{Name: "KnownNodeExists", Inv: in(sp.KnownNodeExists)},
		{Name: "ObservedIsHead", Inv: sp.ObservedIsHead},
		{Name: "ObservedEpochsIncrease", Act: sp.ObservedEpochsIncrease},
	}
	if sp.Fencing {
		ps = append(ps, property{Name: "FencedLeadership",
			Act: func(s, t *election.State) bool { return sp.FencedSafety(&s.State, &t.State) }})
	}
	return ps
}

func walker(sp *election.Spec) proptest.Spec[election.State] {
	return proptest.Spec[election.State]{Init: sp.Init, Next: sp.Next, Actions: election.NumActions,
		ActionName: election.ActionName, LabelString: sp.LabelString, Format: sp.Format}
}

// drawElection draws Election's own constants: 0-3 observers, 1-3
// proclaims per node.
func drawElection(t *rapid.T) election.Constants {
	e := election.Constants{MaxProclaims: rapid.IntRange(1, 3).Draw(t, "MaxProclaims"), WatchVacancy: true, HeadBySeq: true, NextOnDelete: true, ReportFilter: true}
	for o := 1; o <= rapid.IntRange(0, 3).Draw(t, "observers"); o++ {
		e.Observers = append(e.Observers, fmt.Sprintf("o%d", o))
	}
	return e
}

// TestRandomWalksKeepInvariants: random walks of Election under random
// constants beyond the TLC configs' (up to 6 candidates, 4 requests, 5
// faults, 3 observers) keep every safety property.
func TestRandomWalksKeepInvariants(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		k := predlock.Constants{Constants: proptest.DrawConstants(t), Fencing: rapid.Bool().Draw(t, "Fencing")}
		sp, err := election.New(k, drawElection(t), election.Base)
		if err != nil {
			t.Fatal(err)
		}
		proptest.WalkChecking(t, walker(sp), properties(sp), rapid.IntRange(50, 600).Draw(t, "steps"), nil)
	})
}

// TestNotifyCaught is the positive control of NotifySpec: its walks
// violate AtMostOneLeader (a waiter behind a cancelled one leads beside
// the leader).
func TestNotifyCaught(t *testing.T) {
	k := predlock.Constants{Constants: proptest.Small(0, false, true)}
	sp, err := election.New(k, election.Constants{Observers: []string{"o1"}, MaxProclaims: 1, WatchVacancy: true, HeadBySeq: true, NextOnDelete: true, ReportFilter: true}, election.Notify)
	if err != nil {
		t.Fatal(err)
	}
	only := proptest.Only(properties(sp), "AtMostOneLeader")
	proptest.Caught(t, "AtMostOneLeader", func(rt *rapid.T) {
		proptest.WalkChecking(rt, walker(sp), only, rapid.IntRange(20, 60).Draw(rt, "steps"), nil)
	})
}

// TestNextOnChangeCaught is the positive control of NextOnDelete: an
// observer that moves on to its listed successor on any event of its
// watch (the leader's Proclaim too) reports a candidate while the leader's
// node stands before it: ObservedIsHead fails in its walks.
func TestNextOnChangeCaught(t *testing.T) {
	k := predlock.Constants{Constants: proptest.Small(0, false, false)}
	sp, err := election.New(k, election.Constants{Observers: []string{"o1"}, MaxProclaims: 1, WatchVacancy: true, HeadBySeq: true, ReportFilter: true}, election.Base)
	if err != nil {
		t.Fatal(err)
	}
	only := proptest.Only(properties(sp), "ObservedIsHead")
	proptest.Caught(t, "ObservedIsHead", func(rt *rapid.T) {
		proptest.WalkChecking(rt, walker(sp), only, rapid.IntRange(20, 80).Draw(rt, "steps"), nil)
	})
}

// TestNew: New refuses an unknown module and a grant rule other than
// "reread" (the epoch is the token read at Grant).
func TestNew(t *testing.T) {
	k := predlock.Constants{Constants: proptest.Small(0, false, false)}
	if _, err := election.New(k, election.Constants{}, election.HandOff+1); err == nil {
		t.Error("New accepted an unknown module")
	}
	k.GrantRule = predlock.GrantLocal
	if _, err := election.New(k, election.Constants{}, election.Base); err == nil {
		t.Error("New accepted GrantRule \"local\"")
	}
}
