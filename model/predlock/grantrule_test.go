package predlock_test

import (
	"testing"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/recipe"
)

// staleGrant is the counterexample of PredecessorLock.GrantLocal: c1 is
// first and about to be granted when the server expires its session (its
// node goes); c2's node is then first and c2 is granted; c1's local grant
// comes last, with the token of its node, older than c2's.
var staleGrant = []model.Label{
	{Action: recipe.ActRequestLock, Client: 0},
	{Action: recipe.ActCreateOk, Client: 0},
	{Action: recipe.ActListChildren, Client: 0},
	{Action: recipe.ActRequestLock, Client: 1},
	{Action: recipe.ActCreateOk, Client: 1},
	{Action: recipe.ActExpireSession, Client: 0, Arg: 1},
	{Action: recipe.ActListChildren, Client: 1},
	{Action: recipe.ActGrant, Client: 1},
	{Action: recipe.ActGrant, Client: 0},
}

// replay takes the steps of path from Init under rule and returns how many
// were enabled, the guard that stopped the walk (model.Enabled if none did)
// and whether TokensIncrease held on every step taken.
func replay(t *testing.T, rule predlock.GrantRule, path []model.Label) (int, model.Guard, bool) {
	t.Helper()
	sp, err := predlock.New(predlock.Constants{Constants: recipe.Constants{Clients: []string{"c1", "c2"},
		MaxRequests: 1, MaxSeq: 2, MaxFaults: 2, WithExpiry: true}, Fencing: true, GrantRule: rule}, predlock.Base)
	if err != nil {
		t.Fatal(err)
	}
	s := sp.Init()
	tokens := true
	for i, l := range path {
		var next predlock.State
		if g := sp.Step(&s, l, &next); g != model.Enabled {
			return i, g, tokens
		}
		tokens = tokens && sp.TokensIncrease(&s, &next)
		s = next
	}
	return len(path), model.Enabled, tokens
}

// TestGrantRuleStaleToken: the local grant without the deadline check takes
// every step of the stale-token run and violates TokensIncrease on the
// last (the positive control, deterministic; TLC and the explorer find the
// same run for the GrantLocal config); the checked grant refuses that last
// step (~Overdue(c1)), and the reread grant cannot read a node that is gone.
func TestGrantRuleStaleToken(t *testing.T) {
	if n, g, ok := replay(t, predlock.GrantLocal, staleGrant); n != len(staleGrant) || ok {
		t.Errorf("local: %d of %d steps taken (stopped by %q), TokensIncrease held: %v; want every step and a violation",
			n, len(staleGrant), g, ok)
	}
	for rule, want := range map[predlock.GrantRule]model.Guard{
		predlock.GrantChecked: `~Overdue(c)`,
		predlock.GrantReread:  `Live(c)`,
	} {
		n, g, ok := replay(t, rule, staleGrant)
		if n != len(staleGrant)-1 || g != want || !ok {
			t.Errorf("%s: %d of %d steps taken, stopped by %q, TokensIncrease held: %v; want the last grant refused by %q",
				rule, n, len(staleGrant), g, ok, want)
		}
	}
}
