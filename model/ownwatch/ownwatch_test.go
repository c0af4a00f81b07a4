package ownwatch

import (
	"testing"

	"github.com/zklock/zklock/model"
)

// explore walks every state reachable under k and returns the invariants
// that fail somewhere, and the number of states.
func explore(t *testing.T, k Constants) (map[string]bool, int) {
	t.Helper()
	sp, err := New(k)
	if err != nil {
		t.Fatal(err)
	}
	failed := map[string]bool{}
	seen := map[string]bool{}
	queue := []State{sp.Init()}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		key := string(s.AppendEncoding(nil))
		if seen[key] {
			continue
		}
		seen[key] = true
		for name, holds := range sp.Invariants() {
			if !holds(&s) {
				failed[name] = true
			}
		}
		sp.Next(&s, func(_ model.Label, t *State) {
			c := *t
			queue = append(queue, c)
		})
	}
	return failed, len(seen)
}

// The code's rule keeps every invariant, on bounds beyond the CI configs
// (three clients); the rule before it breaks BeliefExclusion,
// BelievesOnlyWhileNotified and GuardNeverLies: the positive controls.
func TestRulesExhaustively(t *testing.T) {
	k := Constants{Clients: []string{"c1", "c2", "c3"}, MaxRequests: 1, MaxSeq: 3, MaxForeign: 1, Stranger: "op"}
	k.WatchOwn = true
	failed, n := explore(t, k)
	if len(failed) > 0 {
		t.Fatalf("WatchOwn: %v fail (%d states)", failed, n)
	}
	t.Logf("WatchOwn: every invariant holds in %d states", n)
	k.WatchOwn = false
	failed, n = explore(t, k)
	for _, want := range []string{"BeliefExclusion", "BelievesOnlyWhileNotified", "GuardNeverLies"} {
		if !failed[want] {
			t.Errorf("without the own watch %s holds in all %d states: the control proves nothing", want, n)
		}
	}
	for _, holds := range []string{"TypeOK", "MutualExclusion"} {
		if failed[holds] {
			t.Errorf("without the own watch %s fails: an outsider cannot break it", holds)
		}
	}
}
