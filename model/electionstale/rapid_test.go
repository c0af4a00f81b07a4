package electionstale_test

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/zklock/zklock/model/election"
	"github.com/zklock/zklock/model/electionstale"
	"github.com/zklock/zklock/model/internal/proptest"
	"github.com/zklock/zklock/model/predlock"
)

type property = proptest.Property[electionstale.State]

// properties returns ElectionStaleReads' safety properties for sp: its
// StaleTypeOK and Election's on its part of the state (FencedLeadership
// only with fencing).
func properties(sp *electionstale.Spec) []property {
	in := func(f func(*election.State) bool) func(*electionstale.State) bool {
		return func(s *electionstale.State) bool { return f(&s.E) }
	}
	lock := func(f func(*predlock.State) bool) func(*electionstale.State) bool {
		return func(s *electionstale.State) bool { return f(&s.E.State) }
	}
	ps := []property{
		{Name: "StaleTypeOK", Inv: sp.StaleTypeOK},
		{Name: "AtMostOneLeader", Inv: in(sp.E.AtMostOneLeader)},
		{Name: "NoHerd", Inv: lock(sp.E.NoHerd)},
		{Name: "NoOrphans", Inv: lock((*predlock.State).NoOrphans)},
		{Name: "KnownNodeExists", Inv: lock(sp.E.KnownNodeExists)},
		{Name: "ObservedIsHead", Inv: in(sp.E.ObservedIsHead)},
		{Name: "ObservedEpochsIncrease", Act: func(s, t *electionstale.State) bool {
			return sp.E.ObservedEpochsIncrease(&s.E, &t.E)
		}},
	}
	if sp.E.Fencing {
		ps = append(ps, property{Name: "FencedLeadership",
			Act: func(s, t *electionstale.State) bool { return sp.E.FencedSafety(&s.E.State, &t.E.State) }})
	}
	return ps
}

func walker(sp *electionstale.Spec) proptest.Spec[electionstale.State] {
	return proptest.Spec[electionstale.State]{Init: sp.Init, Next: sp.Next, Actions: election.NumActions,
		ActionName: electionstale.ActionName, LabelString: sp.LabelString, Format: sp.Format}
}

// newSpec returns the stale-read spec over Election's Base spec with
// constants k and e.
func newSpec(t interface{ Fatal(...any) }, k predlock.Constants, e election.Constants, order bool) *electionstale.Spec {
	el, err := election.New(k, e, election.Base)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := electionstale.New(el, order)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// TestRandomWalksKeepInvariants: random walks under random constants
// beyond the TLC configs' (up to 6 candidates, 4 requests, 5 faults, 1-3
// observers, 1-3 proclaims per node), every observer read answered from a
// snapshot at or after what it saw, keep every safety property, and
// ObservedIsHead with them (a stale listing's head has no live node
// before it).
func TestRandomWalksKeepInvariants(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		k := predlock.Constants{Constants: proptest.DrawConstants(t), Fencing: rapid.Bool().Draw(t, "Fencing")}
		e := election.Constants{MaxProclaims: rapid.IntRange(1, 3).Draw(t, "MaxProclaims"), WatchVacancy: true, HeadBySeq: true, NextOnDelete: true, ReportFilter: true}
		for o := 1; o <= rapid.IntRange(1, 3).Draw(t, "observers"); o++ {
			e.Observers = append(e.Observers, fmt.Sprintf("o%d", o))
		}
		sp := newSpec(t, k, e, true)
		proptest.WalkChecking(t, walker(sp), properties(sp), rapid.IntRange(50, 600).Draw(t, "steps"), nil)
	})
}

// TestNoSessionOrderCaught is the positive control of NoSessionOrder: with
// reads from any snapshot and no report filter (ReportFilter false), walks
// violate ObservedEpochsIncrease (a stale head or version reported after a
// newer one).
func TestNoSessionOrderCaught(t *testing.T) { unfilteredCaught(t, false) }

// TestNoFilterCaught is the positive control of NoFilter: with the session
// order but no report filter, the read after ObserveNext may come from a
// snapshot before the leader's deletion, and a later listing there shows
// the old leader again: walks violate ObservedEpochsIncrease.
func TestNoFilterCaught(t *testing.T) { unfilteredCaught(t, true) }

// unfilteredCaught: walks of one observer without the report filter, its
// reads in the session order or not, violate ObservedEpochsIncrease.
func unfilteredCaught(t *testing.T, sessionOrder bool) {
	k := predlock.Constants{Constants: proptest.Small(0, false, false)}
	sp := newSpec(t, k, election.Constants{Observers: []string{"o1"}, MaxProclaims: 1, WatchVacancy: true,
		LeadersResign: true, HeadBySeq: true, NextOnDelete: true}, sessionOrder)
	only := proptest.Only(properties(sp), "ObservedEpochsIncrease")
	proptest.Caught(t, "ObservedEpochsIncrease", func(rt *rapid.T) {
		proptest.WalkChecking(rt, walker(sp), only, rapid.IntRange(20, 80).Draw(rt, "steps"), nil)
	})
}

// TestNew: New refuses the HeadBySeq mutant (ASSUME HeadBySeq) and a
// mutant specification of Election.
func TestNew(t *testing.T) {
	k := predlock.Constants{Constants: proptest.Small(0, false, false)}
	el, err := election.New(k, election.Constants{HeadBySeq: false}, election.Base)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := electionstale.New(el, true); err == nil {
		t.Error("New accepted HeadBySeq = FALSE")
	}
	el, err = election.New(k, election.Constants{HeadBySeq: true}, election.Notify)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := electionstale.New(el, true); err == nil {
		t.Error("New accepted NotifySpec")
	}
}
