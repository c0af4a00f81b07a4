package connloss_test

import (
	"testing"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/connloss"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/sharedlock"
	"github.com/zklock/zklock/model/zk"
)

// TestLostWatchListsAgain: in SharedLockConnLoss a reader whose getData on
// the writer it waits for is lost lists again, and once the writer has
// released it holds.
func TestLostWatchListsAgain(t *testing.T) {
	sp := two(t, 1, false)
	steps := append(append([]model.Label(nil), writerHolds...), lost(t, sp, "WatchPredecessorLost", 1),
		step(recipe.ActRelease, 0, 0), step(recipe.ActListChildren, 1, 0), step(recipe.ActGrant, 1, 0))
	s := run(t, sp, steps...)
	if !s.Lock.Holding(1, sharedlock.KindRead) || s.Lost != 1 {
		t.Fatalf("c2 does not hold a read lease after one lost call:\n%s", sp.Format(&s))
	}
}

// TestLostWatchWaitsStarves is the positive control the liveness checks
// (*LostWatchWaits.Starve) rest on: the reader that takes its lost getData
// for a watch set waits with nothing armed, and once the writer has
// released no state reachable from there has it holding.
func TestLostWatchWaitsStarves(t *testing.T) {
	sp := two(t, 2, true) // the second lost call: HandOffLost, still waiting
	steps := append(append([]model.Label(nil), writerHolds...), lost(t, sp, "WatchPredecessorLostWaits", 1),
		step(recipe.ActRelease, 0, 0))
	s := run(t, sp, steps...)
	seen, queue := map[string]bool{}, []connloss.State[sharedlock.State]{s}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		if key := string(sp.AppendEncoding(nil, &x)); !seen[key] {
			seen[key] = true
			if x.Lock.PC[1] != recipe.PCWait {
				t.Fatalf("c2 left its wait with no event:\n%s", sp.Format(&x))
			}
			sp.Next(&x, func(_ model.Label, t *connloss.State[sharedlock.State]) { queue = append(queue, *t) })
		}
	}
	if len(seen) < 2 {
		t.Fatalf("only %d states reachable: c1 should still be able to move", len(seen))
	}
}

// TestHandOffLostOnlyWhenArmed: in SharedLockConnLoss HandOffLost is
// enabled only where RWMutex arms the watch on its own node: a reader, or
// a writer whose only blocker is a read node; not a writer behind a write
// node (it lists again anyway, SharedLockWriterShortcut). And no lost call
// beyond MaxLost.
func TestHandOffLostOnlyWhenArmed(t *testing.T) {
	sp := two(t, 1, false)
	var u connloss.State[sharedlock.State]
	handOff := lost(t, sp, "HandOffLost", 1)
	reader := run(t, sp, writerHolds...)
	if g := sp.Step(&reader, handOff, &u); g != model.Enabled || u.Lock.SoleBlocker[1] || u.Lost != 1 {
		t.Fatalf("a reader behind the writer: HandOffLost %s", g)
	}
	writer := append(append([]model.Label(nil), writerHolds[:4]...),
		step(recipe.ActRequestLock, 1, 1), step(recipe.ActCreateOk, 1, 0), step(recipe.ActListChildren, 1, 0))
	w := run(t, sp, writer...)
	if g := sp.Step(&w, handOff, &u); g == model.Enabled {
		t.Fatal("HandOffLost enabled for a writer whose only blocker is a write node")
	}
	spent := run(t, sp, append(append([]model.Label(nil), writerHolds...), handOff)...)
	if g := sp.Step(&spent, lost(t, sp, "WatchPredecessorLost", 1), &u); g == model.Enabled {
		t.Fatal("a lost call beyond MaxLost")
	}
}

// TestWatchSecondLost: PredecessorLock's own lost call. With three
// clients, c3 behind c1 and c2 watches c1 two ahead; its getData lost and
// the node gone on retry, it goes on to its predecessor with nothing else
// changed.
func TestWatchSecondLost(t *testing.T) {
	k := predlock.Constants{Constants: recipe.Constants{Clients: []string{"c1", "c2", "c3"}, MaxRequests: 1, MaxSeq: 3}}
	r, err := predlock.New(k, predlock.Base)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := connloss.New(r, 1, false)
	if err != nil {
		t.Fatal(err)
	}
	var steps []model.Label
	for c := int16(0); c < 3; c++ {
		steps = append(steps, step(recipe.ActRequestLock, c, 0), step(recipe.ActCreateOk, c, 0))
	}
	s := run(t, sp, append(steps, step(recipe.ActListChildren, 2, 0))...)
	if s.Lock.PC[2] != recipe.PCSecond {
		t.Fatalf("c3 should be about to watch its second:\n%s", sp.Format(&s))
	}
	var u connloss.State[predlock.State]
	if g := sp.Step(&s, lost(t, sp, "WatchSecondLost", 2), &u); g != model.Enabled ||
		u.Lock.PC[2] != recipe.PCWatch || u.Lost != 1 || u.Lock.Second[2] != s.Lock.Second[2] {
		t.Fatalf("WatchSecondLost: %s\n%s", g, sp.Format(&u))
	}
}

// TestNames: TLC's names for the steps (LBase for the recipe's) and the
// labels that keep the inner name; neither the control's step nor
// PredecessorLock's WatchSecondLost is SharedLockConnLoss's.
func TestNames(t *testing.T) {
	sp := two(t, 1, false)
	if got := sp.ActionName(model.Label{Action: recipe.ActGrant}); got != "LBase" {
		t.Errorf("Grant is %q in TLC, want LBase", got)
	}
	if got := sp.LabelString(model.Label{Action: recipe.ActGrant, Client: 1}); got != "LBase: Grant(c2)" {
		t.Errorf("LabelString %q", got)
	}
	if got := sp.LabelString(lost(t, sp, "HandOffLost", 1)); got != "HandOffLost(c2)" {
		t.Errorf("LabelString %q", got)
	}
	for a := 0; a < sp.Actions(); a++ {
		if name := sp.ActionName(model.Label{Action: uint8(a)}); name == "WatchPredecessorLostWaits" || name == "WatchSecondLost" {
			t.Errorf("SharedLockConnLoss has %s", name)
		}
	}
}

// TestNewErrors: New refuses a negative budget.
func TestNewErrors(t *testing.T) {
	k := sharedlock.Constants{Constants: recipe.Constants{Clients: []string{"c1"}, MaxRequests: 1, MaxSeq: 1}}
	r, err := sharedlock.New(k, sharedlock.Base)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := connloss.New[sharedlock.State, sharedlock.Kind](r, -1, false); err == nil {
		t.Error("New accepted MaxLost -1")
	}
	var _ connloss.Recipe[predlock.State, zk.NoKind] = (*predlock.Spec)(nil)
}
