package stalereads_test

import (
	"testing"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/specs"
	"github.com/zklock/zklock/model/stalereads"
)

func newSpec(t *testing.T, sessionOrder bool) *stalereads.Spec {
	t.Helper()
	sp, err := stalereads.New(predlock.Constants{Constants: recipe.Constants{Clients: []string{"c1", "c2"},
		MaxRequests: 1, MaxSeq: 2, WithCancel: true}, Fencing: true, GrantRule: predlock.GrantChecked}, sessionOrder)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// walk takes the steps of path from Init and returns the state reached,
// how many steps were enabled and the guard that stopped the walk
// (model.Enabled if none did).
func walk(sp *stalereads.Spec, path []model.Label) (stalereads.State, int, model.Guard) {
	s := sp.Init()
	for i, l := range path {
		var next stalereads.State
		if g := sp.Step(&s, l, &next); g != model.Enabled {
			return s, i, g
		}
		s = next
	}
	return s, len(path), model.Enabled
}

func l(a uint8, c, arg int16) model.Label { return model.Label{Action: a, Client: c, Arg: arg} }

// noSessionOrder is the counterexample of PredecessorLockStaleReads.NoSessionOrder:
// c1 creates node 0 (zxid 1) and lists from the empty snapshot 0, older
// than its own create; it is granted. c2 creates node 1 and lists from
// snapshot 0 too: nothing ahead, granted beside c1.
var noSessionOrder = []model.Label{
	l(recipe.ActRequestLock, 0, 0), l(recipe.ActCreateOk, 0, 0), l(recipe.ActListChildren, 0, 0), l(recipe.ActGrant, 0, 0),
	l(recipe.ActRequestLock, 1, 0), l(recipe.ActCreateOk, 1, 0), l(recipe.ActListChildren, 1, 0), l(recipe.ActGrant, 1, 0),
}

// TestNoSessionOrderCaught is the positive control: a read answered from
// a snapshot older than the client's own create (SessionOrder FALSE)
// takes every step of the run above and violates MutualExclusion; with
// SessionOrder the first such read is refused.
func TestNoSessionOrderCaught(t *testing.T) {
	bad := newSpec(t, false)
	s, n, g := walk(bad, noSessionOrder)
	if n != len(noSessionOrder) || bad.P.MutualExclusion(&s.State) {
		t.Errorf("control: %d of %d steps taken (stopped by %q), MutualExclusion holds: want every step and a violation",
			n, len(noSessionOrder), g)
	}
	good := newSpec(t, true)
	const want = `v \in Readable(c)`
	if _, n, g := walk(good, noSessionOrder); n != 2 || g != want {
		t.Errorf("SessionOrder: stopped at step %d by %q; want step 2 refused by %q", n, g, want)
	}
}

// TestStaleWatchDelivers: c2's listing from a snapshot in which c1's node
// still exists, after c1 released it at the leader, arms a watch on that
// lagging server; the event is delivered (queued at once), not lost, and
// it is the hand-off: c2 is granted after c1 let go.
func TestStaleWatchDelivers(t *testing.T) {
	sp := newSpec(t, true)
	path := []model.Label{
		l(recipe.ActRequestLock, 0, 0), l(recipe.ActCreateOk, 0, 0), l(recipe.ActListChildren, 0, 1), l(recipe.ActGrant, 0, 0),
		l(recipe.ActRequestLock, 1, 0), l(recipe.ActCreateOk, 1, 0), l(recipe.ActListChildren, 1, 2),
		l(recipe.ActRelease, 0, 0), // zxid 3: node 0 gone at the leader
		l(recipe.ActWatchPredecessor, 1, 2),
	}
	s, n, g := walk(sp, path)
	if n != len(path) {
		t.Fatalf("stopped at step %d by %q", n, g)
	}
	if len(s.Inbox[1]) != 1 || s.Inbox[1][0].Node.Seq != 0 || len(s.Watches) != 0 || s.PC[1] != recipe.PCWait {
		t.Fatalf("after the stale watch: inbox %v, watches %v, pc %v; want node 0's event queued, nothing armed, waiting",
			s.Inbox[1], s.Watches, s.PC[1])
	}
	var u, v stalereads.State
	if g := sp.Step(&s, l(recipe.ActGrantOnHeadGone, 1, 0), &u); g != model.Enabled {
		t.Fatalf("GrantOnHeadGone: %q", g)
	}
	if g := sp.Step(&u, l(recipe.ActGrant, 1, 0), &v); g != model.Enabled || !sp.P.MutualExclusion(&v.State) {
		t.Fatalf("Grant: %q, MutualExclusion %v", g, sp.P.MutualExclusion(&v.State))
	}
}

// TestExploreControl explores the constants of the NoSessionOrder config
// with and without the session order: the control violates
// MutualExclusion with a shortest counterexample of 9 states (TLC's; with
// the config's invariants: GrantsInSequenceOrder, which it leaves out,
// fails first, in 7), and with SessionOrder every invariant of the Safety
// configs holds.
func TestExploreControl(t *testing.T) {
	invs := []string{"StaleTypeOK", "MutualExclusion", "NaiveExclusion", "NoHerd", "NoOrphans",
		"GrantsInSequenceOrder", "KnownNodeExists"}
	props := []string{"TokensIncrease", "FencedSafety"}
	for _, order := range []bool{false, true} {
		sp, err := stalereads.New(predlock.Constants{Constants: recipe.Constants{Clients: []string{"c1", "c2"},
			MaxRequests: 1, MaxSeq: 2}, Fencing: true, GrantRule: predlock.GrantChecked}, order)
		if err != nil {
			t.Fatal(err)
		}
		checked := invs
		if !order {
			checked = []string{"StaleTypeOK", "MutualExclusion", "NoHerd", "KnownNodeExists"}
		}
		es, err := specs.StaleReadsSpec(sp, checked, props)
		if err != nil {
			t.Fatal(err)
		}
		res, err := explore.Check(es, explore.Options{TLCOrder: true})
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case !order && (res.Verdict != explore.InvariantViolated || res.Property != "MutualExclusion" || len(res.Trace) != 9):
			t.Errorf("control: %s %s, %d-state trace; want MutualExclusion violated in 9 states", res.Verdict, res.Property, len(res.Trace))
		case order && res.Verdict != explore.Pass:
			t.Errorf("SessionOrder: %s %s; want pass", res.Verdict, res.Property)
		}
	}
}
