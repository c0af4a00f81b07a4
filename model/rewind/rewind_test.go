package rewind

import (
	"testing"

	"github.com/zklock/zklock/model"
)

// step applies one action or fails the test.
func step(t *testing.T, sp *Spec, s *State, name string, f func(*State, int, *State) model.Guard, arg int) State {
	t.Helper()
	var n State
	if g := f(s, arg, &n); g != model.Enabled {
		t.Fatalf("%s(%d) disabled: %s", name, arg, g)
	}
	return n
}

// The run: c1 holds, the ensemble is wiped, c2 is granted on the
// new history. Refused, c1 ends at once (AtOnce) or goes on believing
// (Deadline), beside c2: BeliefExclusion tells the rules apart.
func TestWipeUnderHolder(t *testing.T) {
	for _, rule := range []Rule{AtOnce, Deadline} {
		sp, err := New(Constants{Clients: []string{"c1", "c2"}, NoOne: "NoOne", Rule: rule, TokenRule: Flag, MaxZxid: 6, MaxRewind: 1})
		if err != nil {
			t.Fatal(err)
		}
		s := sp.Init()
		s = step(t, sp, &s, "Connect", sp.Connect, 0)
		s = step(t, sp, &s, "Acquire", sp.Acquire, 0)
		s = step(t, sp, &s, "Rewind", sp.Rewind, 0)
		s = step(t, sp, &s, "MeetOlder", sp.MeetOlder, 0)
		s = step(t, sp, &s, "Connect", sp.Connect, 1)
		s = step(t, sp, &s, "Acquire", sp.Acquire, 1)
		if got, want := sp.BeliefExclusion(&s), rule == AtOnce; got != want {
			t.Errorf("rule %s: BeliefExclusion %v, want %v", rule, got, want)
		}
		if !sp.NodeExclusion(&s) || !sp.TokensGrowOrSaid(&s) || !sp.TypeOK(&s) {
			t.Errorf("rule %s: %s", rule, sp.Format(&s))
		}
	}
	if _, err := New(Constants{Clients: []string{"c1"}, NoOne: "c1", Rule: AtOnce, TokenRule: Flag}); err == nil {
		t.Error("NoOne in Clients accepted")
	}
}
