package stalereads_test

import (
	"errors"
	"testing"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/replicas"
	"github.com/zklock/zklock/model/sharedlock"
	"github.com/zklock/zklock/model/specs"
	"github.com/zklock/zklock/model/stalereads"
	"github.com/zklock/zklock/model/zk"
)

// The variant over each recipe, as model/specs builds it.
type (
	predStale   = stalereads.Spec[predlock.State, zk.NoKind]
	sharedStale = stalereads.Spec[sharedlock.State, sharedlock.Kind]
)

// must returns the variant over the recipe spec lock (err: the error
// building it), as recipeOf describes it.
func must[L any, S any, K zk.Kind](t *testing.T, k recipe.Constants, order bool, lock L, err error,
	recipeOf func(L) stalereads.Recipe[S, K]) *stalereads.Spec[S, K] {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	sp, err := stalereads.New(k, recipeOf(lock), order)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

func newPred(t *testing.T, k predlock.Constants, sessionOrder bool) (*predStale, *predlock.Spec) {
	p, err := predlock.New(k, predlock.Base)
	return must(t, k.Constants, sessionOrder, p, err, specs.PredLockStale), p
}

func newShared(t *testing.T, k sharedlock.Constants, sessionOrder bool) (*sharedStale, *sharedlock.Spec) {
	l, err := sharedlock.New(k, sharedlock.Base)
	return must(t, k.Constants, sessionOrder, l, err, specs.SharedLockStale), l
}

// two clients, one request each, MaxSeq 2, fencing, the checked grant.
func twoPred() predlock.Constants {
	return predlock.Constants{Constants: recipe.Constants{Clients: []string{"c1", "c2"}, MaxRequests: 1, MaxSeq: 2},
		Fencing: true, GrantRule: predlock.GrantChecked}
}

// two writers or readers, one request each, MaxSeq 2, downgrade.
func twoShared(replyLoss bool) sharedlock.Constants {
	k := sharedlock.Constants{Constants: recipe.Constants{Clients: []string{"c1", "c2"}, MaxRequests: 1, MaxSeq: 2},
		WithDowngrade: true}
	if replyLoss {
		k.WithReplyLoss, k.MaxFaults = true, 1
	}
	return k
}

// walk takes the steps of path from Init and returns the state reached,
// how many steps were enabled and the guard that stopped the walk
// (model.Enabled if none did).
func walk[S any, K zk.Kind](sp *stalereads.Spec[S, K], path []model.Label) (stalereads.State[S, K], int, model.Guard) {
	s := sp.Init()
	for i, l := range path {
		var next stalereads.State[S, K]
		if g := sp.Step(&s, l, &next); g != model.Enabled {
			return s, i, g
		}
		s = next
	}
	return s, len(path), model.Enabled
}

// steps takes path from s and fails the test at the first step refused.
func steps[S any, K zk.Kind](t *testing.T, sp *stalereads.Spec[S, K], s stalereads.State[S, K], path ...model.Label) stalereads.State[S, K] {
	t.Helper()
	for _, x := range path {
		var u stalereads.State[S, K]
		if g := sp.Step(&s, x, &u); g != model.Enabled {
			t.Fatalf("step %s: %q", sp.LabelString(x), g)
		}
		s = u
	}
	return s
}

func l(a uint8, c, arg int16) model.Label { return model.Label{Action: a, Client: c, Arg: arg} }

const read, write = 0, 1 // SharedLock's LRequestLock Arg: the index in sharedlock.Kinds

// noSessionOrder is the counterexample of <Recipe>StaleReads.NoSessionOrder
// (kind: LRequestLock's Arg): c1 creates node 0 (zxid 1) and lists from
// the empty snapshot 0, older than its own create; it is granted. c2
// creates node 1 and lists from snapshot 0 too: nothing ahead, granted
// beside c1.
func noSessionOrder(kind int16) []model.Label {
	return []model.Label{
		l(recipe.ActRequestLock, 0, kind), l(recipe.ActCreateOk, 0, 0), l(recipe.ActListChildren, 0, 0), l(recipe.ActGrant, 0, 0),
		l(recipe.ActRequestLock, 1, kind), l(recipe.ActCreateOk, 1, 0), l(recipe.ActListChildren, 1, 0), l(recipe.ActGrant, 1, 0),
	}
}

// TestNoSessionOrderCaught is the positive control, for each recipe: a
// read answered from a snapshot older than the client's own create
// (SessionOrder FALSE) takes every step of the run above and violates
// MutualExclusion (WriterExclusion); with SessionOrder the first such
// read is refused.
func TestNoSessionOrderCaught(t *testing.T) {
	const want = `v \in Readable(c)`
	bad, p := newPred(t, twoPred(), false)
	if s, n, g := walk(bad, noSessionOrder(0)); n != 8 || p.MutualExclusion(&s.Lock) {
		t.Errorf("PredecessorLock control: %d of 8 steps taken (stopped by %q), MutualExclusion holds", n, g)
	}
	good, _ := newPred(t, twoPred(), true)
	if _, n, g := walk(good, noSessionOrder(0)); n != 2 || g != want {
		t.Errorf("PredecessorLock, SessionOrder: stopped at step %d by %q; want step 2 refused by %q", n, g, want)
	}
	sbad, sl := newShared(t, twoShared(false), false)
	if s, n, g := walk(sbad, noSessionOrder(write)); n != 8 || sl.WriterExclusion(&s.Lock) {
		t.Errorf("SharedLock control: %d of 8 steps taken (stopped by %q), WriterExclusion holds", n, g)
	}
	sgood, _ := newShared(t, twoShared(false), true)
	if _, n, g := walk(sgood, noSessionOrder(write)); n != 2 || g != want {
		t.Errorf("SharedLock, SessionOrder: stopped at step %d by %q; want step 2 refused by %q", n, g, want)
	}
}

// TestStaleWatchDelivers: c2's listing from a snapshot in which c1's node
// still exists, after c1 released it at the leader, arms a watch on that
// lagging server; the event is delivered (queued at once), not lost, and
// it is the hand-off: c2 is granted after c1 let go.
func TestStaleWatchDelivers(t *testing.T) {
	k := twoPred()
	k.WithCancel = true
	sp, p := newPred(t, k, true)
	s := steps(t, sp, sp.Init(),
		l(recipe.ActRequestLock, 0, 0), l(recipe.ActCreateOk, 0, 0), l(recipe.ActListChildren, 0, 1), l(recipe.ActGrant, 0, 0),
		l(recipe.ActRequestLock, 1, 0), l(recipe.ActCreateOk, 1, 0), l(recipe.ActListChildren, 1, 2),
		l(recipe.ActRelease, 0, 0), // zxid 3: node 0 gone at the leader
		l(recipe.ActWatchPredecessor, 1, 2))
	if x := &s.Lock; len(x.Inbox[1]) != 1 || x.Inbox[1][0].Node.Seq != 0 || len(x.Watches) != 0 || x.PC[1] != recipe.PCWait {
		t.Fatalf("after the stale watch: inbox %v, watches %v, pc %v; want node 0's event queued, nothing armed, waiting",
			x.Inbox[1], x.Watches, x.PC[1])
	}
	if v := steps(t, sp, s, l(recipe.ActGrantOnHeadGone, 1, 0), l(recipe.ActGrant, 1, 0)); !p.MutualExclusion(&v.Lock) {
		t.Fatal("MutualExclusion fails after the hand-off")
	}
}

// explored is the TLC-order exploration of sp with the recipe's checks es
// and, before them, StaleTypeOK.
func explored[S any, K zk.Kind](t *testing.T, sp *stalereads.Spec[S, K], es *explore.Spec[S], err error, invs []string) *explore.Result[stalereads.State[S, K]] {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	st, err := specs.StaleSpec(sp, es, append([]string{"StaleTypeOK"}, invs...))
	if err != nil {
		t.Fatal(err)
	}
	res, err := explore.Check(st, explore.Options{TLCOrder: true})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestExploreControl explores the constants of the NoSessionOrder configs
// with and without the session order: the control violates
// MutualExclusion (WriterExclusion) with a shortest counterexample of 9
// states (TLC's; with PredecessorLock's Safety invariants
// GrantsInSequenceOrder, which the config leaves out, fails first, in 7),
// and with SessionOrder every invariant of the Safety configs holds.
func TestExploreControl(t *testing.T) {
	predInvs := []string{"MutualExclusion", "NaiveExclusion", "NoHerd", "NoOrphans", "GrantsInSequenceOrder", "KnownNodeExists"}
	sharedInvs := []string{"WriterExclusion", "MutualExclusion", "NoHerd", "NoOrphans",
		"GrantsInSequenceOrder", "KnownNodeExists", "ReadersNotBlockedByReaders"}
	for _, order := range []bool{false, true} {
		pinvs, sinvs, k := predInvs, sharedInvs, twoShared(false)
		if !order {
			pinvs = []string{"MutualExclusion", "NoHerd", "KnownNodeExists"}
			sinvs = []string{"WriterExclusion", "NoHerd", "KnownNodeExists"}
			k.WithDowngrade = false
		}
		sp, p := newPred(t, twoPred(), order)
		es, err := specs.PredLockSpec(p, false, pinvs, []string{"TokensIncrease", "FencedSafety"})
		res := explored(t, sp, es, err, pinvs)
		ssp, sl := newShared(t, k, order)
		ses, err := specs.SharedLockSpec(sl, false, sinvs, nil)
		sres := explored(t, ssp, ses, err, sinvs)
		switch {
		case !order && (res.Verdict != explore.InvariantViolated || res.Property != "MutualExclusion" || len(res.Trace) != 9):
			t.Errorf("PredecessorLock control: %s %s, %d-state trace; want MutualExclusion violated in 9 states", res.Verdict, res.Property, len(res.Trace))
		case !order && (sres.Verdict != explore.InvariantViolated || sres.Property != "WriterExclusion" || len(sres.Trace) != 9):
			t.Errorf("SharedLock control: %s %s, %d-state trace; want WriterExclusion violated in 9 states", sres.Verdict, sres.Property, len(sres.Trace))
		case order && (res.Verdict != explore.Pass || sres.Verdict != explore.Pass):
			t.Errorf("SessionOrder: %s %s, %s %s; want pass", res.Verdict, res.Property, sres.Verdict, sres.Property)
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

// TestDuplicateAheadDeleted (PredecessorLock): the queued delete of the
// duplicate ahead of c1's node lands, its deletion fires c1's watch, and
// that event is the hand-off: c1 is granted on node 1 with no node left
// behind. The control (DeleteDuplicates FALSE) queues nothing: c1 waits on
// its own first node with no step that could wake it but a cancel or its
// session's end.
func TestDuplicateAheadDeleted(t *testing.T) {
	k := predlock.Constants{Constants: recipe.Constants{Clients: []string{"c1"}, MaxRequests: 1, MaxSeq: 2,
		MaxFaults: 1, WithReplyLoss: true}, Fencing: true, GrantRule: predlock.GrantChecked}
	sp, p := newPred(t, k, true)
	sp.DeleteDuplicates = true
	s, n, g := walk(sp, duplicateAhead)
	if n != len(duplicateAhead) || len(s.Dupes) != 1 || s.Dupes[0].Name.Seq != 0 || s.Lock.PC[0] != recipe.PCWait ||
		!sp.StaleNoOrphans(&s) {
		t.Fatalf("%d of %d steps (%q), dupes %v, pc %v: want node 0's delete queued, c1 waiting on it",
			n, len(duplicateAhead), g, s.Dupes, s.Lock.PC[0])
	}
	s = steps(t, sp, s, l(sp.ActDuplicateLands, -1, 0), l(recipe.ActGrantOnHeadGone, 0, 0), l(recipe.ActGrant, 0, 0))
	if s.Lock.PC[0] != recipe.PCHold || !p.MutualExclusion(&s.Lock) || !p.GrantsInSequenceOrder(&s.Lock) {
		t.Fatalf("after Grant: pc %v", s.Lock.PC[0])
	}
	s = steps(t, sp, s, l(recipe.ActRelease, 0, 0))
	if len(s.Lock.Nodes) != 0 || len(s.Dupes) != 0 || !s.Lock.NoOrphans() {
		t.Fatalf("after the release: nodes %v, dupes %v", s.Lock.Nodes, s.Dupes)
	}

	ctl, _ := newPred(t, k, true)
	s, n, g = walk(ctl, duplicateAhead)
	if n != len(duplicateAhead) || len(s.Dupes) != 0 {
		t.Fatalf("control: %d steps (%q), dupes %v", n, g, s.Dupes)
	}
	ctl.Next(&s, func(x model.Label, _ *stalereads.State[predlock.State, zk.NoKind]) {
		if x.Action != recipe.ActLearnExpiry && x.Action != recipe.ActExpireSession && x.Action != recipe.ActCancel {
			t.Fatalf("control: c1 has a step other than a cancel or a session's end: %s", ctl.LabelString(x))
		}
	})
}

// downgradeWatched: c1 holds write node 0; c2's write node 1 waits on it
// (its listing answered from snapshot 2, where node 0 is a write node);
// then c1 downgrades (zxid 3).
var downgradeWatched = []model.Label{
	l(recipe.ActRequestLock, 0, write), l(recipe.ActCreateOk, 0, 0), l(recipe.ActListChildren, 0, 1), l(recipe.ActGrant, 0, 0),
	l(recipe.ActRequestLock, 1, write), l(recipe.ActCreateOk, 1, 0), l(recipe.ActListChildren, 1, 2),
}

// TestDowngradeOneSnapshot (SharedLock): a Downgrade logs ONE snapshot, in
// which node 0 is already a read node (no server answers from a state with
// neither node), and its reply raises the downgrader's seen; a lost reply
// does not. c2's watch on the write node, set at a server still at
// snapshot 2, queues its event at once; the event is not the grant of a
// writer whose blocker was a write node, and c2 lists again.
func TestDowngradeOneSnapshot(t *testing.T) {
	for _, lost := range []bool{false, true} {
		sp, sl := newShared(t, twoShared(lost), true)
		s := steps(t, sp, sp.Init(), downgradeWatched...)
		a := sharedlock.ActDowngrade
		if lost {
			a = sharedlock.ActDowngradeReplyLost
		}
		d := steps(t, sp, s, l(a, 0, 0))
		snap, ok := d.At(3)
		switch {
		case len(d.Hist) != len(s.Hist)+1 || !ok:
			t.Fatalf("lost %v: hist %v after the downgrade; want one snapshot more, at zxid 3", lost, d.Hist)
		case len(snap) != 2 || snap[0].Seq != 0 || snap[0].Kind != sharedlock.KindRead:
			t.Fatalf("lost %v: snapshot 3 = %v; want read node 0 and write node 1", lost, snap)
		case !lost && d.Seen[0] != 3, lost && d.Seen[0] != s.Seen[0]:
			t.Fatalf("lost %v: seen[c1] = %d; want 3 after a reply, %d after a lost one", lost, d.Seen[0], s.Seen[0])
		}
		w := steps(t, sp, d, l(recipe.ActWatchPredecessor, 1, 2))
		if len(w.Lock.Inbox[1]) != 1 || len(w.Lock.Watches) != 0 || w.Lock.PC[1] != recipe.PCWait {
			t.Fatalf("stale watch: inbox %v, watches %v, pc %v; want the event queued, nothing armed, waiting",
				w.Lock.Inbox[1], w.Lock.Watches, w.Lock.PC[1])
		}
		var x stalereads.State[sharedlock.State, sharedlock.Kind]
		if g := sp.Step(&w, l(recipe.ActGrantOnHeadGone, 1, 0), &x); g == model.Enabled {
			t.Fatal("a writer took a write node's deletion (a downgrade) as its grant")
		}
		// Listed from snapshot 3: the read node blocks the writer.
		y := steps(t, sp, w, l(recipe.ActPredecessorGone, 1, 0), l(recipe.ActListChildren, 1, 3))
		if y.Lock.PC[1] != recipe.PCWatch || y.Lock.Target[1] != (sharedlock.Name{Seq: 0, Kind: sharedlock.KindRead}) ||
			!sl.WriterExclusion(&y.Lock) {
			t.Fatalf("list from snapshot 3: pc %v, target %v", y.Lock.PC[1], y.Lock.Target[1])
		}
	}
}

// lostCreateOrphan is the counterexample of SharedLockStaleReads.Orphan: a
// reader's create lands (zxid 1) and its reply is lost; the search for
// its node is answered from snapshot 0, before the create; it creates
// again (node 1), lists, holds and releases node 1 only.
var lostCreateOrphan = []model.Label{
	l(recipe.ActRequestLock, 0, read), l(recipe.ActCreateReplyLost, 0, 0), l(recipe.ActFindOwnNode, 0, 0),
	l(recipe.ActCreateOk, 0, 0), l(recipe.ActListChildren, 0, 2), l(recipe.ActGrant, 0, 0), l(recipe.ActRelease, 0, 0),
}

// TestLostCreateOrphan (SharedLock): the run above is one of
// SharedLockStaleReads with the session order, and it leaves node 0
// behind (NoOrphans fails); read from the leader (snapshot 1) the search
// finds node 0 and nothing is left.
func TestLostCreateOrphan(t *testing.T) {
	sp, _ := newShared(t, twoShared(true), true)
	if s := steps(t, sp, sp.Init(), lostCreateOrphan...); s.Lock.NoOrphans() {
		t.Fatal("NoOrphans holds: want an orphan")
	}
	s := steps(t, sp, sp.Init(), l(recipe.ActRequestLock, 0, read), l(recipe.ActCreateReplyLost, 0, 0), l(recipe.ActFindOwnNode, 0, 1),
		l(recipe.ActListChildren, 0, 1), l(recipe.ActGrant, 0, 0), l(recipe.ActRelease, 0, 0))
	if !s.Lock.NoOrphans() || len(s.Lock.Nodes) != 0 {
		t.Fatalf("search from the leader's snapshot: nodes %v", s.Lock.Nodes)
	}
}

// TestDuplicateDeleted (SharedLock): with DeleteDuplicates the listing of
// the run above (snapshot 2, which has both nodes) queues the delete of
// node 0; after the release node 0 is still there but queued
// (StaleNoOrphans holds, NoOrphans does not), and LDuplicateLands deletes
// it in one logged transaction that raises no seen. The control
// (DeleteDuplicates FALSE) queues nothing, leaves the orphan
// (StaleNoOrphans fails) and has no LDuplicateLands step.
func TestDuplicateDeleted(t *testing.T) {
	sp, _ := newShared(t, twoShared(true), true)
	sp.DeleteDuplicates = true
	s := steps(t, sp, sp.Init(), lostCreateOrphan...)
	want := replicas.Dupe[sharedlock.Kind]{Sess: zk.Session{C: 0, K: 1}, Name: zk.Name[sharedlock.Kind]{Seq: 0, Kind: sharedlock.KindRead}}
	if len(s.Dupes) != 1 || s.Dupes[0] != want || len(s.Lock.Nodes) != 1 || !sp.StaleNoOrphans(&s) || s.Lock.NoOrphans() {
		t.Fatalf("after the release: dupes %v, nodes %v, StaleNoOrphans %v, NoOrphans %v; want node 0 left, its delete queued",
			s.Dupes, s.Lock.Nodes, sp.StaleNoOrphans(&s), s.Lock.NoOrphans())
	}
	u := steps(t, sp, s, l(sp.ActDuplicateLands, -1, 0))
	if len(u.Lock.Nodes) != 0 || len(u.Dupes) != 0 || u.Lock.Zxid != s.Lock.Zxid+1 || len(u.Hist) != len(s.Hist)+1 ||
		u.Seen[0] != s.Seen[0] || !u.Lock.NoOrphans() || !sp.StaleTypeOK(&u) {
		t.Fatalf("after LDuplicateLands: nodes %v, dupes %v, zxid %d, seen %v", u.Lock.Nodes, u.Dupes, u.Lock.Zxid, u.Seen)
	}

	ctl, _ := newShared(t, twoShared(true), true)
	s = steps(t, ctl, ctl.Init(), lostCreateOrphan...)
	if len(s.Dupes) != 0 || ctl.StaleNoOrphans(&s) {
		t.Fatalf("control: dupes %v, StaleNoOrphans %v: want nothing queued, an orphan", s.Dupes, ctl.StaleNoOrphans(&s))
	}
	if g := ctl.Step(&s, l(ctl.ActDuplicateLands, -1, 0), &u); g == model.Enabled {
		t.Fatal("control: LDuplicateLands enabled with nothing queued")
	}
}

// TestDuplicateDroppedOnExpiry (SharedLock): the expiry of the session
// drops its queued duplicate delete (the node is gone with the session),
// and a delete queued for a node the leader already deleted lands as
// NoNode: no transaction, nothing logged.
func TestDuplicateDroppedOnExpiry(t *testing.T) {
	k := twoShared(true)
	k.WithExpiry, k.MaxFaults = true, 2
	sp, _ := newShared(t, k, true)
	sp.DeleteDuplicates = true
	s := steps(t, sp, sp.Init(), lostCreateOrphan[:5]...) // up to the listing that queues node 0
	if len(s.Dupes) != 1 {
		t.Fatalf("dupes %v", s.Dupes)
	}
	if u := steps(t, sp, s, l(recipe.ActExpireSession, 0, 1)); len(u.Dupes) != 0 || len(u.Lock.Nodes) != 0 {
		t.Fatalf("ExpireSession: dupes %v, nodes %v; want both empty", u.Dupes, u.Lock.Nodes)
	}
	// Node 0 deleted by a Cancel at the leader; the queued delete then finds nothing.
	k.WithCancel = true
	sp, _ = newShared(t, k, true)
	sp.DeleteDuplicates = true
	v := steps(t, sp, sp.Init(), append(lostCreateOrphan[:5:5], l(recipe.ActCancel, 0, 0))...)
	if len(v.Lock.Nodes) != 0 || len(v.Dupes) != 1 {
		t.Fatalf("Cancel: nodes %v, dupes %v", v.Lock.Nodes, v.Dupes)
	}
	if w := steps(t, sp, v, l(sp.ActDuplicateLands, -1, 0)); w.Lock.Zxid != v.Lock.Zxid || len(w.Hist) != len(v.Hist) || len(w.Dupes) != 0 {
		t.Fatalf("LDuplicateLands on NoNode: zxid %d -> %d, hist %d -> %d, dupes %v",
			v.Lock.Zxid, w.Lock.Zxid, len(v.Hist), len(w.Hist), w.Dupes)
	}
}

// TestRefusesPauses: the stale modules ASSUME no pauses and no background
// deletes; New refuses them.
func TestRefusesPauses(t *testing.T) {
	l, err := sharedlock.New(twoShared(false), sharedlock.Base)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []recipe.Constants{{WithPause: true}, {AsyncDelete: true}} {
		if _, err := stalereads.New(k, specs.SharedLockStale(l), true); !errors.Is(err, stalereads.ErrAssume) {
			t.Errorf("New with %+v: %v; want ErrAssume", k, err)
		}
	}
}

// TestNames: the variant names the recipe's steps as its modules do ("L"
// before a logged step, "Stale" before a read, LDuplicateLands after the
// recipe's actions), and its labels keep the recipe's parameters.
func TestNames(t *testing.T) {
	sp, _ := newShared(t, twoShared(false), true)
	for x, want := range map[model.Label]string{
		l(recipe.ActRequestLock, 0, write):  `LRequestLock(c1, "write")`,
		l(recipe.ActListChildren, 1, 2):     "StaleListChildren(c2) from snapshot 2",
		l(recipe.ActExpireSession, 0, 1):    "LExpireSession(<<c1, 1>>)",
		l(sharedlock.ActDowngrade, 0, 0):    "LDowngrade(c1)",
		l(sp.ActDuplicateLands, -1, 0):      "LDuplicateLands(dupes element 0)",
		l(recipe.ActWatchPredecessor, 0, 0): "StaleWatchPredecessor(c1) from snapshot 0",
	} {
		if got := sp.LabelString(x); got != want {
			t.Errorf("LabelString: %s; want %s", got, want)
		}
	}
	p, _ := newPred(t, twoPred(), true)
	if got := p.ActionName(l(predlock.ActWatchSecond, 0, 0)); got != "StaleWatchSecond" {
		t.Errorf("ActionName(WatchSecond) = %s", got)
	}
}

// TestCancelUnsyncedOrphan (PredecessorLock, then SharedLock) is the
// counterexample of the CancelUnsynced configs: c1's create makes node 0
// (zxid 1) and its reply is lost, so seen stays 0; it cancels. Without
// CancelSync its listing may be answered from snapshot 0, before the
// create: it deletes nothing, goes idle, and node 0 is an orphan (even for
// StaleNoOrphans). From snapshot 1 the listing shows node 0, which goes.
// With CancelSync (impl/zklock's Sync in removeOwnNodes) the cancel lists
// at the leader: no snapshot to choose (a label's Arg is not a snapshot),
// and node 0 goes.
func TestCancelUnsyncedOrphan(t *testing.T) {
	k := predlock.Constants{Constants: recipe.Constants{Clients: []string{"c1"}, MaxRequests: 1, MaxSeq: 2, MaxFaults: 1,
		WithReplyLoss: true, WithCancel: true}, Fencing: true, GrantRule: predlock.GrantChecked}
	lost := []model.Label{l(recipe.ActRequestLock, 0, 0), l(recipe.ActCreateReplyLost, 0, 0)}
	sp, _ := newPred(t, k, true)
	sp.DeleteDuplicates, sp.CancelSync = true, false
	s := steps(t, sp, sp.Init(), lost...)
	var got []int16
	sp.Next(&s, func(x model.Label, _ *stalereads.State[predlock.State, zk.NoKind]) {
		if x.Action == recipe.ActCancel {
			got = append(got, x.Arg)
		}
	})
	if len(got) != 2 || got[0] != 0 || got[1] != 1 {
		t.Fatalf("unsynced LCancel's snapshots %v; want [0 1]", got)
	}
	u := steps(t, sp, s, l(recipe.ActCancel, 0, 0))
	if u.Lock.PC[0] != recipe.PCIdle || len(u.Lock.Nodes) != 1 || u.Lock.Zxid != 1 || sp.StaleNoOrphans(&u) || u.Seen[0] != 0 {
		t.Fatalf("cancel listed from snapshot 0: pc %v, nodes %v, zxid %d, seen %v; want idle, node 0 orphaned",
			u.Lock.PC[0], u.Lock.Nodes, u.Lock.Zxid, u.Seen)
	}
	u = steps(t, sp, s, l(recipe.ActCancel, 0, 1))
	if len(u.Lock.Nodes) != 0 || u.Lock.Zxid != 2 || !sp.StaleNoOrphans(&u) || u.Seen[0] != 2 || !sp.StaleTypeOK(&u) {
		t.Fatalf("cancel listed from snapshot 1: nodes %v, zxid %d, seen %v", u.Lock.Nodes, u.Lock.Zxid, u.Seen)
	}

	synced, _ := newPred(t, k, true)
	synced.DeleteDuplicates = true
	s = steps(t, synced, synced.Init(), lost...)
	if u := steps(t, synced, s, l(recipe.ActCancel, 0, 0)); len(u.Lock.Nodes) != 0 || !synced.StaleNoOrphans(&u) {
		t.Fatalf("synced cancel: nodes %v; want node 0 deleted", u.Lock.Nodes)
	}

	// SharedLockStaleReads.CancelUnsynced: the same with a reader.
	sk := sharedlock.Constants{Constants: k.Constants}
	sh, _ := newShared(t, sk, true)
	sh.DeleteDuplicates, sh.CancelSync = true, false
	v := steps(t, sh, sh.Init(), l(recipe.ActRequestLock, 0, read), l(recipe.ActCreateReplyLost, 0, 0), l(recipe.ActCancel, 0, 0))
	if len(v.Lock.Nodes) != 1 || sh.StaleNoOrphans(&v) {
		t.Fatalf("SharedLock, cancel listed from snapshot 0: nodes %v; want the read node orphaned", v.Lock.Nodes)
	}
}
