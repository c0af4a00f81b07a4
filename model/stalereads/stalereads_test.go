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

// duplicateAhead: c1's create lands as node 0 (zxid 1) and its reply is
// lost; the search is answered from snapshot 0, before the create, so c1
// creates again (node 1, zxid 2). Its listing from snapshot 2 shows node 0
// ahead: it waits on it (the code's run() does the same) and, with
// DeleteDuplicates, queues its delete.
var duplicateAhead = []model.Label{
	l(recipe.ActRequestLock, 0, 0), l(recipe.ActCreateReplyLost, 0, 0), l(recipe.ActFindOwnNode, 0, 0),
	l(recipe.ActCreateOk, 0, 0), l(recipe.ActListChildren, 0, 2), l(recipe.ActWatchPredecessor, 0, 2),
}

// TestDuplicateAheadDeleted: the queued delete of the duplicate ahead of
// c1's node lands, its deletion fires c1's watch, and that event is the
// hand-off: c1 is granted on node 1 with no node left behind. The control
// (DeleteDuplicates FALSE) queues nothing: c1 waits on its own first node
// with no step that could wake it but a cancel or its session's end.
func TestDuplicateAheadDeleted(t *testing.T) {
	k := predlock.Constants{Constants: recipe.Constants{Clients: []string{"c1"}, MaxRequests: 1, MaxSeq: 2,
		MaxFaults: 1, WithReplyLoss: true}, Fencing: true, GrantRule: predlock.GrantChecked}
	sp, err := stalereads.New(k, true)
	if err != nil {
		t.Fatal(err)
	}
	sp.DeleteDuplicates = true
	s, n, g := walk(sp, duplicateAhead)
	if n != len(duplicateAhead) || len(s.Dupes) != 1 || s.Dupes[0].Name.Seq != 0 || s.PC[0] != recipe.PCWait ||
		!s.StaleNoOrphans() {
		t.Fatalf("%d of %d steps (%q), dupes %v, pc %v: want node 0's delete queued, c1 waiting on it",
			n, len(duplicateAhead), g, s.Dupes, s.PC[0])
	}
	rest := []model.Label{l(stalereads.ActDuplicateLands, -1, 0), l(recipe.ActGrantOnHeadGone, 0, 0), l(recipe.ActGrant, 0, 0),
		l(recipe.ActRelease, 0, 0)}
	for i, x := range rest {
		var u stalereads.State
		if g := sp.Step(&s, x, &u); g != model.Enabled {
			t.Fatalf("step %s: %q", sp.LabelString(x), g)
		}
		s = u
		if i == 2 && (s.PC[0] != recipe.PCHold || !sp.P.MutualExclusion(&s.State) || !sp.P.GrantsInSequenceOrder(&s.State)) {
			t.Fatalf("after Grant: pc %v", s.PC[0])
		}
	}
	if len(s.Nodes) != 0 || len(s.Dupes) != 0 || !s.NoOrphans() {
		t.Fatalf("after the release: nodes %v, dupes %v", s.Nodes, s.Dupes)
	}

	ctl, err := stalereads.New(k, true)
	if err != nil {
		t.Fatal(err)
	}
	s, n, g = walk(ctl, duplicateAhead)
	if n != len(duplicateAhead) || len(s.Dupes) != 0 {
		t.Fatalf("control: %d steps (%q), dupes %v", n, g, s.Dupes)
	}
	stuck := true
	ctl.Next(&s, func(x model.Label, _ *stalereads.State) {
		if x.Action != recipe.ActLearnExpiry && x.Action != recipe.ActExpireSession && x.Action != recipe.ActCancel {
			stuck = false
		}
	})
	if !stuck {
		t.Fatal("control: c1 has a step other than a cancel or a session's end")
	}
}
