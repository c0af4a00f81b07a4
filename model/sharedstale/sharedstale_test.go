package sharedstale_test

import (
	"errors"
	"testing"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/replicas"
	"github.com/zklock/zklock/model/sharedlock"
	"github.com/zklock/zklock/model/sharedstale"
	"github.com/zklock/zklock/model/specs"
	"github.com/zklock/zklock/model/zk"
)

func newSpec(t *testing.T, k sharedlock.Constants, sessionOrder bool) *sharedstale.Spec {
	t.Helper()
	sp, err := sharedstale.New(k, sessionOrder)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// two writers or readers, one request each, MaxSeq 2, downgrade.
func twoClients(replyLoss bool) sharedlock.Constants {
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
func walk(sp *sharedstale.Spec, path []model.Label) (sharedstale.State, int, model.Guard) {
	s := sp.Init()
	for i, l := range path {
		var next sharedstale.State
		if g := sp.Step(&s, l, &next); g != model.Enabled {
			return s, i, g
		}
		s = next
	}
	return s, len(path), model.Enabled
}

func l(a uint8, c, arg int16) model.Label { return model.Label{Action: a, Client: c, Arg: arg} }

const read, write = 0, 1 // LRequestLock's Arg: the index in sharedlock.Kinds

// noSessionOrder is the counterexample of SharedLockStaleReads.NoSessionOrder:
// c1 creates write node 0 (zxid 1) and lists from the empty snapshot 0,
// older than its own create; it is granted. c2 creates write node 1 and
// lists from snapshot 0 too: nothing ahead, granted beside c1.
var noSessionOrder = []model.Label{
	l(recipe.ActRequestLock, 0, write), l(recipe.ActCreateOk, 0, 0), l(recipe.ActListChildren, 0, 0), l(recipe.ActGrant, 0, 0),
	l(recipe.ActRequestLock, 1, write), l(recipe.ActCreateOk, 1, 0), l(recipe.ActListChildren, 1, 0), l(recipe.ActGrant, 1, 0),
}

// TestNoSessionOrderCaught is the positive control: a read answered from
// a snapshot older than the client's own create (SessionOrder FALSE)
// takes every step of the run above and violates WriterExclusion; with
// SessionOrder the first such read is refused.
func TestNoSessionOrderCaught(t *testing.T) {
	bad := newSpec(t, twoClients(false), false)
	s, n, g := walk(bad, noSessionOrder)
	if n != len(noSessionOrder) || bad.L.WriterExclusion(&s.State) {
		t.Errorf("control: %d of %d steps taken (stopped by %q), WriterExclusion holds: want every step and a violation",
			n, len(noSessionOrder), g)
	}
	good := newSpec(t, twoClients(false), true)
	const want = `v \in Readable(c)`
	if _, n, g := walk(good, noSessionOrder); n != 2 || g != want {
		t.Errorf("SessionOrder: stopped at step %d by %q; want step 2 refused by %q", n, g, want)
	}
}

// downgradeWatched: c1 holds write node 0; c2's write node 1 waits on it
// (its listing answered from snapshot 2, where node 0 is a write node);
// then c1 downgrades (zxid 3).
var downgradeWatched = []model.Label{
	l(recipe.ActRequestLock, 0, write), l(recipe.ActCreateOk, 0, 0), l(recipe.ActListChildren, 0, 1), l(recipe.ActGrant, 0, 0),
	l(recipe.ActRequestLock, 1, write), l(recipe.ActCreateOk, 1, 0), l(recipe.ActListChildren, 1, 2),
}

// TestDowngradeOneSnapshot: a Downgrade logs ONE snapshot, in which node 0
// is already a read node (no server answers from a state with neither
// node), and its reply raises the downgrader's seen; a lost reply does
// not. c2's watch on the write node, set at a server still at snapshot 2,
// queues its event at once; the event is not the grant of a writer whose
// blocker was a write node, and c2 lists again.
func TestDowngradeOneSnapshot(t *testing.T) {
	for _, lost := range []bool{false, true} {
		sp := newSpec(t, twoClients(lost), true)
		s, n, g := walk(sp, downgradeWatched)
		if n != len(downgradeWatched) {
			t.Fatalf("stopped at step %d by %q", n, g)
		}
		a := sharedlock.ActDowngrade
		if lost {
			a = sharedlock.ActDowngradeReplyLost
		}
		var d sharedstale.State
		if g := sp.Step(&s, l(a, 0, 0), &d); g != model.Enabled {
			t.Fatalf("%s: %q", sp.LabelString(l(a, 0, 0)), g)
		}
		snap, ok := d.At(3)
		switch {
		case len(d.Hist) != len(s.Hist)+1 || !ok:
			t.Fatalf("lost %v: hist %v after the downgrade; want one snapshot more, at zxid 3", lost, d.Hist)
		case len(snap) != 2 || snap[0].Seq != 0 || snap[0].Kind != sharedlock.KindRead:
			t.Fatalf("lost %v: snapshot 3 = %v; want read node 0 and write node 1", lost, snap)
		case !lost && d.Seen[0] != 3, lost && d.Seen[0] != s.Seen[0]:
			t.Fatalf("lost %v: seen[c1] = %d; want 3 after a reply, %d after a lost one", lost, d.Seen[0], s.Seen[0])
		}
		var w, x, y sharedstale.State
		if g := sp.Step(&d, l(recipe.ActWatchPredecessor, 1, 2), &w); g != model.Enabled {
			t.Fatalf("stale watch: %q", g)
		}
		if len(w.Inbox[1]) != 1 || len(w.Watches) != 0 || w.PC[1] != recipe.PCWait {
			t.Fatalf("stale watch: inbox %v, watches %v, pc %v; want the event queued, nothing armed, waiting",
				w.Inbox[1], w.Watches, w.PC[1])
		}
		if g := sp.Step(&w, l(recipe.ActGrantOnHeadGone, 1, 0), &x); g == model.Enabled {
			t.Fatal("a writer took a write node's deletion (a downgrade) as its grant")
		}
		if g := sp.Step(&w, l(recipe.ActPredecessorGone, 1, 0), &x); g != model.Enabled {
			t.Fatalf("PredecessorGone: %q", g)
		}
		// Listed from snapshot 3: the read node blocks the writer.
		if g := sp.Step(&x, l(recipe.ActListChildren, 1, 3), &y); g != model.Enabled || y.PC[1] != recipe.PCWatch ||
			y.Target[1] != (sharedlock.Name{Seq: 0, Kind: sharedlock.KindRead}) || !sp.L.WriterExclusion(&y.State) {
			t.Fatalf("list from snapshot 3: %q, pc %v, target %v", g, y.PC[1], y.Target[1])
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

// TestLostCreateOrphan: the run above is one of SharedLockStaleReads with
// the session order, and it leaves node 0 behind (NoOrphans fails); read
// from the leader (snapshot 1) the search finds node 0 and nothing is left.
func TestLostCreateOrphan(t *testing.T) {
	sp := newSpec(t, twoClients(true), true)
	s, n, g := walk(sp, lostCreateOrphan)
	if n != len(lostCreateOrphan) || s.NoOrphans() {
		t.Fatalf("%d of %d steps taken (stopped by %q), NoOrphans %v: want every step and an orphan",
			n, len(lostCreateOrphan), g, s.NoOrphans())
	}
	fresh := []model.Label{l(recipe.ActRequestLock, 0, read), l(recipe.ActCreateReplyLost, 0, 0), l(recipe.ActFindOwnNode, 0, 1),
		l(recipe.ActListChildren, 0, 1), l(recipe.ActGrant, 0, 0), l(recipe.ActRelease, 0, 0)}
	s, n, g = walk(sp, fresh)
	if n != len(fresh) || !s.NoOrphans() || len(s.Nodes) != 0 {
		t.Fatalf("search from the leader's snapshot: %d of %d steps (%q), nodes %v", n, len(fresh), g, s.Nodes)
	}
}

// TestDuplicateDeleted: with DeleteDuplicates the listing of the run
// above (snapshot 2, which has both nodes) queues the delete of node 0;
// after the release node 0 is still there but queued (StaleNoOrphans
// holds, NoOrphans does not), and LDuplicateLands deletes it in one logged
// transaction that raises no seen. The control (DeleteDuplicates FALSE)
// queues nothing, leaves the orphan (StaleNoOrphans fails) and has no
// LDuplicateLands step.
func TestDuplicateDeleted(t *testing.T) {
	sp := newSpec(t, twoClients(true), true)
	sp.DeleteDuplicates = true
	s, n, g := walk(sp, lostCreateOrphan)
	if n != len(lostCreateOrphan) {
		t.Fatalf("%d of %d steps taken (stopped by %q)", n, len(lostCreateOrphan), g)
	}
	want := replicas.Dupe[sharedlock.Kind]{Sess: zk.Session{C: 0, K: 1}, Name: zk.Name[sharedlock.Kind]{Seq: 0, Kind: sharedlock.KindRead}}
	if len(s.Dupes) != 1 || s.Dupes[0] != want || len(s.Nodes) != 1 || !s.StaleNoOrphans() || s.NoOrphans() {
		t.Fatalf("after the release: dupes %v, nodes %v, StaleNoOrphans %v, NoOrphans %v; want node 0 left, its delete queued",
			s.Dupes, s.Nodes, s.StaleNoOrphans(), s.NoOrphans())
	}
	var u sharedstale.State
	if g := sp.Step(&s, l(sharedstale.ActDuplicateLands, -1, 0), &u); g != model.Enabled {
		t.Fatalf("LDuplicateLands: %q", g)
	}
	if len(u.Nodes) != 0 || len(u.Dupes) != 0 || u.Zxid != s.Zxid+1 || len(u.Hist) != len(s.Hist)+1 ||
		u.Seen[0] != s.Seen[0] || !u.NoOrphans() || !sp.StaleTypeOK(&u) {
		t.Fatalf("after LDuplicateLands: nodes %v, dupes %v, zxid %d, seen %v", u.Nodes, u.Dupes, u.Zxid, u.Seen)
	}

	ctl := newSpec(t, twoClients(true), true)
	s, n, g = walk(ctl, lostCreateOrphan)
	if n != len(lostCreateOrphan) || len(s.Dupes) != 0 || s.StaleNoOrphans() {
		t.Fatalf("control: %d steps (%q), dupes %v, StaleNoOrphans %v: want every step, nothing queued, an orphan",
			n, g, s.Dupes, s.StaleNoOrphans())
	}
	if g := ctl.Step(&s, l(sharedstale.ActDuplicateLands, -1, 0), &u); g == model.Enabled {
		t.Fatal("control: LDuplicateLands enabled with nothing queued")
	}
}

// TestDuplicateDroppedOnExpiry: the expiry of the session drops its
// queued duplicate delete (the node is gone with the session), and a
// delete queued for a node the leader already deleted lands as NoNode:
// no transaction, nothing logged.
func TestDuplicateDroppedOnExpiry(t *testing.T) {
	k := twoClients(true)
	k.WithExpiry, k.MaxFaults = true, 2
	sp := newSpec(t, k, true)
	sp.DeleteDuplicates = true
	s, n, g := walk(sp, lostCreateOrphan[:5]) // up to the listing that queues node 0
	if n != 5 || len(s.Dupes) != 1 {
		t.Fatalf("%d steps (%q), dupes %v", n, g, s.Dupes)
	}
	var u sharedstale.State
	if g := sp.Step(&s, l(recipe.ActExpireSession, 0, 1), &u); g != model.Enabled || len(u.Dupes) != 0 || len(u.Nodes) != 0 {
		t.Fatalf("ExpireSession: %q, dupes %v, nodes %v; want both empty", g, u.Dupes, u.Nodes)
	}
	// Node 0 deleted by a Cancel at the leader; the queued delete then finds nothing.
	k.WithCancel = true
	sp = newSpec(t, k, true)
	sp.DeleteDuplicates = true
	s, _, _ = walk(sp, lostCreateOrphan[:5])
	var v, w sharedstale.State
	if g := sp.Step(&s, l(recipe.ActCancel, 0, 0), &v); g != model.Enabled || len(v.Nodes) != 0 || len(v.Dupes) != 1 {
		t.Fatalf("Cancel: %q, nodes %v, dupes %v", g, v.Nodes, v.Dupes)
	}
	if g := sp.Step(&v, l(sharedstale.ActDuplicateLands, -1, 0), &w); g != model.Enabled ||
		w.Zxid != v.Zxid || len(w.Hist) != len(v.Hist) || len(w.Dupes) != 0 {
		t.Fatalf("LDuplicateLands on NoNode: %q, zxid %d -> %d, hist %d -> %d, dupes %v",
			g, v.Zxid, w.Zxid, len(v.Hist), len(w.Hist), w.Dupes)
	}
}

// TestExploreControl explores the constants of the NoSessionOrder config
// with and without the session order: the control violates
// WriterExclusion with a shortest counterexample of 9 states (TLC's), and
// with SessionOrder and downgrade every invariant of the Safety config
// holds.
func TestExploreControl(t *testing.T) {
	invs := []string{"StaleTypeOK", "WriterExclusion", "MutualExclusion", "NoHerd", "NoOrphans",
		"GrantsInSequenceOrder", "KnownNodeExists", "ReadersNotBlockedByReaders"}
	for _, order := range []bool{false, true} {
		k := twoClients(false)
		checked := invs
		if !order {
			k.WithDowngrade = false
			checked = []string{"StaleTypeOK", "WriterExclusion", "NoHerd", "KnownNodeExists"}
		}
		es, err := specs.SharedStaleSpec(newSpec(t, k, order), checked, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := explore.Check(es, explore.Options{TLCOrder: true})
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case !order && (res.Verdict != explore.InvariantViolated || res.Property != "WriterExclusion" || len(res.Trace) != 9):
			t.Errorf("control: %s %s, %d-state trace; want WriterExclusion violated in 9 states", res.Verdict, res.Property, len(res.Trace))
		case order && res.Verdict != explore.Pass:
			t.Errorf("SessionOrder: %s %s; want pass", res.Verdict, res.Property)
		}
	}
}

// TestRefusesPauses: the module ASSUMEs no pauses and no background
// deletes; New refuses them.
func TestRefusesPauses(t *testing.T) {
	k := twoClients(false)
	k.WithPause = true
	if _, err := sharedstale.New(k, true); !errors.Is(err, sharedstale.ErrAssume) {
		t.Errorf("New with WithPause: %v; want ErrAssume", err)
	}
	k.WithPause, k.AsyncDelete = false, true
	if _, err := sharedstale.New(k, true); !errors.Is(err, sharedstale.ErrAssume) {
		t.Errorf("New with AsyncDelete: %v; want ErrAssume", err)
	}
}
