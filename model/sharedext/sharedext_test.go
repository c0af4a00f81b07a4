package sharedext_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/internal/proptest"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/sharedext"
	"github.com/zklock/zklock/model/sharedlock"
)

type property = proptest.Property[sharedext.State]

// properties returns SharedLock's invariants that hold for sp's constants
// (WriterExclusion only without pauses) on the embedded state, and LTypeOK.
func properties(sp *sharedext.Spec) []property {
	in := func(f func(*sharedlock.State) bool) func(*sharedext.State) bool {
		return func(s *sharedext.State) bool { return f(&s.State) }
	}
	ps := []property{
		{Name: "LTypeOK", Inv: sp.TypeOK},
		{Name: "MutualExclusion", Inv: in(sp.MutualExclusion)},
		{Name: "NoHerd", Inv: in(sp.NoHerd)},
		{Name: "NoOrphans", Inv: in((*sharedlock.State).NoOrphans)},
		{Name: "GrantsInSequenceOrder", Inv: in(sp.GrantsInSequenceOrder)},
		{Name: "KnownNodeExists", Inv: in(sp.KnownNodeExists)},
		{Name: "ReadersNotBlockedByReaders", Inv: in(sp.ReadersNotBlockedByReaders)},
	}
	if !sp.WithPause {
		ps = append(ps, property{Name: "WriterExclusion", Inv: in(sp.WriterExclusion)})
	}
	return ps
}

func walker(sp *sharedext.Spec) proptest.Spec[sharedext.State] {
	return proptest.Spec[sharedext.State]{Init: sp.Init, Next: sp.Next, Actions: int(sharedext.ActWatchPredecessorLostWaits) + 1,
		ActionName: sp.ActionName, LabelString: sp.LabelString, Format: sp.Format}
}

// TestRandomWalksKeepInvariants: from Init, random walks of SharedLockConnLoss
// under random constants (up to 6 clients, 4 requests, 5 faults, 6 lost
// calls) keep every safety property of SharedLock.
func TestRandomWalksKeepInvariants(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		k := sharedlock.Constants{Constants: proptest.DrawConstants(t), WithDowngrade: rapid.Bool().Draw(t, "WithDowngrade")}
		sp, err := sharedext.New(k, sharedext.ConnLoss, rapid.IntRange(0, 6).Draw(t, "MaxLost"))
		if err != nil {
			t.Fatal(err)
		}
		proptest.WalkChecking(t, walker(sp), properties(sp), rapid.IntRange(50, 600).Draw(t, "steps"), nil)
	})
}

// two is two clients, one request each, no fault, downgrade on.
func two(t *testing.T, m sharedext.Module, maxLost int) *sharedext.Spec {
	t.Helper()
	k := sharedlock.Constants{Constants: recipe.Constants{Clients: []string{"c1", "c2"}, MaxRequests: 1, MaxSeq: 3}, WithDowngrade: true}
	sp, err := sharedext.New(k, m, maxLost)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// step is one scripted step: an action of a client (Arg: RequestLock's kind).
type step struct {
	act    uint8
	client int16
	arg    int16
}

// run takes the steps from Init, failing t on one that is not enabled.
func run(t *testing.T, sp *sharedext.Spec, steps ...step) sharedext.State {
	t.Helper()
	s := sp.Init()
	for _, x := range steps {
		var u sharedext.State
		l := model.Label{Action: x.act, Client: x.client, Arg: x.arg}
		if g := sp.Step(&s, l, &u); g != model.Enabled {
			t.Fatalf("%s not enabled (%s) in\n%s", sp.LabelString(l), g, sp.Format(&s))
		}
		s = u
	}
	return s
}

// reachable calls visit on every state reachable from s (s included).
func reachable(sp *sharedext.Spec, s sharedext.State, visit func(*sharedext.State)) {
	seen := map[string]bool{}
	queue := []sharedext.State{s}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		key := string(x.AppendEncoding(nil))
		if seen[key] {
			continue
		}
		seen[key] = true
		visit(&x)
		sp.Next(&x, func(_ model.Label, t *sharedext.State) { queue = append(queue, *t) })
	}
}

// writerHolds, then a reader queues behind it and chose the writer's node
// to watch: c1 holds the write lock, c2 is about to getData+watch it.
var writerHolds = []step{
	{recipe.ActRequestLock, 0, 1}, {recipe.ActCreateOk, 0, 0}, {recipe.ActListChildren, 0, 0}, {recipe.ActGrant, 0, 0},
	{recipe.ActRequestLock, 1, 0}, {recipe.ActCreateOk, 1, 0}, {recipe.ActListChildren, 1, 0},
}

// TestLostWatchListsAgain: in SharedLockConnLoss a reader whose getData on
// the writer it waits for is lost lists again, and once the writer has
// released it holds.
func TestLostWatchListsAgain(t *testing.T) {
	sp := two(t, sharedext.ConnLoss, 1)
	steps := append(append([]step(nil), writerHolds...), step{sharedext.ActWatchPredecessorLost, 1, 0},
		step{recipe.ActRelease, 0, 0}, step{recipe.ActListChildren, 1, 0}, step{recipe.ActGrant, 1, 0})
	s := run(t, sp, steps...)
	if !s.Holding(1, sharedlock.KindRead) || s.Lost != 1 {
		t.Fatalf("c2 does not hold a read lease after one lost call:\n%s", sp.Format(&s))
	}
}

// TestLostWatchWaitsStarves is the positive control the liveness check
// (SharedLockLostWatchWaits.Starve) rests on: the reader that takes its
// lost getData for a watch set waits with nothing armed, and once the
// writer has released no state reachable from there has it holding.
func TestLostWatchWaitsStarves(t *testing.T) {
	sp := two(t, sharedext.LostWatchWaits, 2) // the second lost call: HandOffLost, still waiting
	steps := append(append([]step(nil), writerHolds...), step{sharedext.ActWatchPredecessorLostWaits, 1, 0},
		step{recipe.ActRelease, 0, 0})
	s := run(t, sp, steps...)
	n := 0
	reachable(sp, s, func(x *sharedext.State) {
		n++
		if x.PC[1] != recipe.PCWait {
			t.Fatalf("c2 left its wait with no event:\n%s", sp.Format(x))
		}
	})
	if n < 2 {
		t.Fatalf("only %d states reachable: c1 should still be able to move", n)
	}
}

// TestHandOffLostOnlyWhenHandOff: HandOffLost is enabled only where
// RWMutex arms the watch on its own node: a reader, or a writer whose only
// blocker is a read node; not a writer behind a write node (it lists again
// anyway, SharedLockWriterShortcut).
func TestHandOffLostOnlyWhenHandOff(t *testing.T) {
	sp := two(t, sharedext.ConnLoss, 1)
	var u sharedext.State
	lost := model.Label{Action: sharedext.ActHandOffLost, Client: 1}
	reader := run(t, sp, writerHolds...)
	if g := sp.Step(&reader, lost, &u); g != model.Enabled || u.SoleBlocker[1] || u.Lost != 1 {
		t.Fatalf("a reader behind the writer: HandOffLost %s", g)
	}
	writer := append(append([]step(nil), writerHolds[:4]...),
		step{recipe.ActRequestLock, 1, 1}, step{recipe.ActCreateOk, 1, 0}, step{recipe.ActListChildren, 1, 0})
	w := run(t, sp, writer...)
	if g := sp.Step(&w, lost, &u); g == model.Enabled {
		t.Fatal("HandOffLost enabled for a writer whose only blocker is a write node")
	}
	spent := run(t, sp, append(append([]step(nil), writerHolds...), step{sharedext.ActHandOffLost, 1, 0})...)
	if g := sp.Step(&spent, model.Label{Action: sharedext.ActWatchPredecessorLost, Client: 1}, &u); g == model.Enabled {
		t.Fatal("a lost call beyond MaxLost")
	}
}

// TestNames: TLC's names for the steps (LBase for SharedLock's) and the
// labels that keep the inner name.
func TestNames(t *testing.T) {
	sp := two(t, sharedext.ConnLoss, 1)
	if got := sp.ActionName(model.Label{Action: recipe.ActGrant}); got != "LBase" {
		t.Errorf("Grant is %q in TLC, want LBase", got)
	}
	if got := sp.ActionName(model.Label{Action: sharedext.ActHandOffLost}); got != "HandOffLost" {
		t.Errorf("ActionName %q", got)
	}
	if got := sp.LabelString(model.Label{Action: recipe.ActGrant, Client: 1}); got != "LBase: Grant(c2)" {
		t.Errorf("LabelString %q", got)
	}
	var u sharedext.State
	s := sp.Init()
	if g := sp.Step(&s, model.Label{Action: sharedext.ActWatchPredecessorLostWaits}, &u); g == model.Enabled {
		t.Error("ConnLoss takes the mutant's step")
	}
}

// TestNewErrors: New refuses an unknown module and a negative budget.
func TestNewErrors(t *testing.T) {
	k := sharedlock.Constants{Constants: recipe.Constants{Clients: []string{"c1"}, MaxRequests: 1, MaxSeq: 1}}
	if _, err := sharedext.New(k, sharedext.LostWatchWaits+1, 0); err == nil {
		t.Error("New accepted an unknown module")
	}
	if _, err := sharedext.New(k, sharedext.ConnLoss, -1); err == nil {
		t.Error("New accepted MaxLost -1")
	}
}
