package specs

import (
	"strings"
	"testing"

	"github.com/zklock/zklock/model/explore"
)

// TestMatchTLCDeadlock: a counterexample that ends in a deadlock replays
// as one (MatchTLC names no property, as TLC does not); the same trace cut
// short of the deadlock is rejected: its end has successors.
func TestMatchTLCDeadlock(t *testing.T) {
	m, ok := configs(t)["LockAll.GivenOrderDeadlock"]
	if !ok {
		t.Fatal("no config LockAll.GivenOrderDeadlock")
	}
	in, err := Load("LockAll", m)
	if err != nil {
		t.Fatal(err)
	}
	out, err := in.Check(explore.Options{TLCOrder: true})
	if err != nil {
		t.Fatal(err)
	}
	if out.Verdict != explore.Deadlock {
		t.Fatalf("verdict %s, want a deadlock", out.Verdict)
	}
	if prop, err := in.MatchTLC(out.TraceActions, out.TraceStates, -1, false); err != nil || prop != "" {
		t.Fatalf("the deadlock's own trace: %q, %v", prop, err)
	}
	n := len(out.TraceActions) - 1
	_, err = in.MatchTLC(out.TraceActions[:n], out.TraceStates[:n], -1, false)
	if err == nil || !strings.Contains(err.Error(), "violates no property") {
		t.Fatalf("a trace cut short of the deadlock: %v, want it rejected", err)
	}
}
