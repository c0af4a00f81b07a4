package trace

import (
	"strings"
	"testing"

	"github.com/zklock/zklock/traceevent"
)

// editTrace parses text with its first old replaced by repl (none if old
// is empty): a hand-written trace, or one of its positive controls.
func editTrace(t *testing.T, text, old, repl string) []Event {
	t.Helper()
	if old != "" {
		if !strings.Contains(text, old) {
			t.Fatalf("the trace has no %q", old)
		}
		text = strings.Replace(text, old, repl, 1)
	}
	evs, err := Read(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// wantInvalidAt validates evs (one lock) and checks that it is rejected
// at client's action, for a reason that contains why.
func wantInvalidAt(t *testing.T, evs []Event, client string, action traceevent.Action, why string) {
	t.Helper()
	rep, err := Validate(evs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	d := rep.Locks[0].Divergence
	if rep.Verdict != Invalid || d == nil {
		t.Fatalf("want invalid:\n%s", rep)
	}
	if d.Event.Client != client || d.Event.Action != action || !strings.Contains(d.Reason, why) {
		t.Fatalf("diverges at %s %s: %s; want %s %s: ...%s...", d.Event.Client, d.Event.Action, d.Reason,
			client, action, why)
	}
}

// corruption is one positive control of a hand-written trace: its first
// old replaced by repl must be rejected at client's action, for a reason
// that contains why.
type corruption struct {
	name, old, repl string
	client          string
	action          traceevent.Action
	why             string
}

// wantValidUnlessCorrupted checks that text, a hand-written trace of one
// lock, is a run of spec, and that each corruption of it is rejected at
// the event it corrupts.
func wantValidUnlessCorrupted(t *testing.T, text, spec string, corruptions []corruption) {
	t.Helper()
	rep, err := Validate(editTrace(t, text, "", ""), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != Valid || len(rep.Locks) != 1 || rep.Locks[0].Spec != spec {
		t.Fatalf("want valid against %s:\n%s", spec, rep)
	}
	for _, tc := range corruptions {
		t.Run(tc.name, func(t *testing.T) {
			wantInvalidAt(t, editTrace(t, text, tc.old, tc.repl), tc.client, tc.action, tc.why)
		})
	}
}
