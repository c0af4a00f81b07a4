package proptest

import (
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/traceevent"
)

// LockSpec is what the walks need of a lock spec's *Spec (model/predlock,
// model/sharedlock).
type LockSpec[S any] interface {
	Init() S
	Next(*S, func(model.Label, *S))
	LabelString(model.Label) string
	Format(*S) string
}

// Lock is the walkers' view of sp, whose actions are names (ActionNames)
// and named by actionName.
func Lock[S any](sp LockSpec[S], names []traceevent.Action, actionName func(model.Label) string) Spec[S] {
	return Spec[S]{Init: sp.Init, Next: sp.Next, Actions: len(names),
		ActionName: actionName, LabelString: sp.LabelString, Format: sp.Format}
}

// Long runs check 20,000 times (skipped under -short) counting the
// actions the walks take in *taken, and fails t if one of want was never
// taken.
func Long(t *testing.T, check func(*rapid.T), taken *map[string]int, want []traceevent.Action) {
	if testing.Short() {
		t.Skip("long: 20,000 random walks")
	}
	defer SetFlag(t, "rapid.checks", "20000")()
	*taken = map[string]int{}
	defer func() { *taken = nil }()
	rapid.Check(t, check)
	t.Logf("steps taken by action: %v", *taken)
	for _, a := range want {
		if (*taken)[string(a)] == 0 {
			t.Errorf("no walk took %s", a)
		}
	}
}

// Caught is a positive control: walk (a random walk of the mutant checking
// only prop) must fail on prop within 10,000 walks; rapid shrinks it, and
// the start of the shrunk counterexample is logged.
func Caught(t *testing.T, prop string, walk func(*rapid.T)) {
	report := ExpectFailure(t, 10000, walk)
	if !strings.Contains(report, prop+" violated") {
		t.Errorf("the mutant failed, but not on %s:\n%s", prop, report)
	}
	t.Logf("caught; shrunk counterexample:\n%s", FirstLines(report, 16))
}
