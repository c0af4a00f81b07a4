package predlock_test

import (
	"testing"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/recipe"
)

// staleEvent is the counterexample of PredecessorLockStaleEvent: c1 holds
// node 0; c4 lists [0, 1, 2, 3], watches 1 (its second) and 2 (its
// predecessor); c2 and c3 cancel, so c4 has the events of 1 and 2 queued;
// 1's makes it list again ([0, 3]: c1's node alone before its own) and
// watch 0; then 2's event comes, for a node that is no longer its target.
// grantOn is the action that takes it.
func staleEvent(grantOn uint8) []model.Label {
	l := func(a uint8, c int16) model.Label { return model.Label{Action: a, Client: c} }
	return []model.Label{
		l(recipe.ActRequestLock, 0), l(recipe.ActCreateOk, 0), l(recipe.ActListChildren, 0), l(recipe.ActGrant, 0),
		l(recipe.ActRequestLock, 1), l(recipe.ActCreateOk, 1),
		l(recipe.ActRequestLock, 2), l(recipe.ActCreateOk, 2),
		l(recipe.ActRequestLock, 3), l(recipe.ActCreateOk, 3), l(recipe.ActListChildren, 3),
		l(predlock.ActWatchSecond, 3), l(recipe.ActWatchPredecessor, 3),
		l(recipe.ActCancel, 1), l(recipe.ActCancel, 2),
		l(recipe.ActPredecessorGone, 3), l(recipe.ActListChildren, 3), l(recipe.ActWatchPredecessor, 3),
		l(grantOn, 3), l(recipe.ActGrant, 3),
	}
}

// walkStale takes the steps of path from Init in variant v and returns how
// many were enabled, the guard that stopped the walk (model.Enabled if
// none did) and whether MutualExclusion held in every state reached.
func walkStale(t *testing.T, v predlock.Variant, path []model.Label) (int, model.Guard, bool) {
	t.Helper()
	sp, err := predlock.New(predlock.Constants{Constants: recipe.Constants{Clients: []string{"c1", "c2", "c3", "c4"},
		MaxRequests: 1, MaxSeq: 4, WithCancel: true}, Fencing: true}, v)
	if err != nil {
		t.Fatal(err)
	}
	s := sp.Init()
	excl := true
	for i, l := range path {
		var next predlock.State
		if g := sp.Step(&s, l, &next); g != model.Enabled {
			return i, g, excl
		}
		s = next
		excl = excl && sp.MutualExclusion(&s)
	}
	return len(path), model.Enabled, excl
}

// TestStaleEventCaught: the mutant that takes any event of the current
// request as the hand-off takes every step of the stale-event run and
// violates MutualExclusion (the positive control, deterministic; TLC and
// the explorer find a run like it for PredecessorLockStaleEvent.MiddleCancels);
// PredecessorLock refuses the hand-off on that event, which is not for its
// target, and lists again instead.
func TestStaleEventCaught(t *testing.T) {
	bad := staleEvent(predlock.ActGrantOnAnyEvent)
	if n, g, ok := walkStale(t, predlock.StaleEvent, bad); n != len(bad) || ok {
		t.Errorf("mutant: %d of %d steps taken (stopped by %q), MutualExclusion held: %v; want every step and a violation",
			n, len(bad), g, ok)
	}
	good := staleEvent(recipe.ActGrantOnHeadGone)
	const want = `NextEvent(c).node = target[c]`
	if n, g, ok := walkStale(t, predlock.Base, good); n != len(good)-2 || g != want || !ok {
		t.Errorf("PredecessorLock: %d of %d steps taken, stopped by %q, MutualExclusion held: %v; want the hand-off refused by %q",
			n, len(good), g, ok, want)
	}
	relist := append(good[:len(good)-2:len(good)-2], model.Label{Action: recipe.ActPredecessorGone, Client: 3})
	if n, g, _ := walkStale(t, predlock.Base, relist); n != len(relist) {
		t.Errorf("PredecessorLock: the stale event does not make it list again: stopped at step %d by %q", n, g)
	}
}
