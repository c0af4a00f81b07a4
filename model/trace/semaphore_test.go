package trace

import (
	"errors"
	"os"
	"testing"

	"github.com/zklock/zklock/traceevent"
)

// semEvents reads testdata/sem_correct.jsonl with its first old replaced
// by repl (none if old is empty). The trace is a semaphore of max 2 at /s,
// written by hand as impl/zklock traces it: c1 and c2 hold; c3 waits with
// three lease nodes listed, is woken by c1's release and holds; c4 first
// gives up before it has the internal mutex (a CancelAcquire alone), then
// loses its create's reply, finds its node, lists three leases and cancels
// (TryAcquire), deleting its node before it unlocks the internal mutex; c2
// and c3 release. Zxids: creates 10, 11, 12, 14; deletes 13, 15, 16, 17.
// A file, so that cmd/tlatrace's TLATRACE_ALL set gives it TLC's verdict
// too.
func semEvents(t *testing.T, old, repl string) []Event {
	t.Helper()
	return editTrace(t, semText(t), old, repl)
}

// semText is the hand-written semaphore trace.
func semText(t *testing.T) string {
	t.Helper()
	text, err := os.ReadFile("testdata/sem_correct.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	return string(text)
}

// TestSemaphoreTrace: the hand-written semaphore trace is a run of
// model/semaphore, and each corruption of it (the positive controls) is
// rejected at the event it corrupts.
func TestSemaphoreTrace(t *testing.T) {
	wantValidUnlessCorrupted(t, semText(t), "Semaphore", []corruption{
		// c3's first listing shows three leases, max 2, and says held: a
		// third lease while two are held.
		{"held with too many leases", `"result":"wait","children":["_c_u1`, `"result":"held","children":["_c_u1`,
			"c3", traceevent.ListLeases, `(MaxLeases = 2) it goes to "wait"`},
		// c2 reports the internal mutex before c1, which took it first,
		// unlocked it: two acquirers in the internal mutex at once.
		{"internal mutex taken twice", `"action":"AcquireInternal","request":"u2","start":150,"end":150`,
			`"action":"AcquireInternal","request":"u2","start":125,"end":125`,
			"c2", traceevent.AcquireInternal, "mutex = NoSession"},
		// c3 is woken before c1's release, its only cause, has happened:
		// its zxids (it had seen 12, not 13) say so; a release's time says
		// nothing about a read's.
		{"woken before the release", `"action":"LeasesChanged","request":"u3","start":280,"end":280`,
			`"action":"LeasesChanged","request":"u3","start":255,"end":255,"zxid_low":12,"zxid_high":12`,
			"c3", traceevent.LeasesChanged, "no notification"},
	})
}

// TestSemaphoreTwoMaxes: one path used with two maxes is no run of the
// spec, which has one MaxLeases.
func TestSemaphoreTwoMaxes(t *testing.T) {
	evs := semEvents(t, `"max":2,"start":171`, `"max":3,"start":171`)
	if _, err := Validate(evs, Options{}); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("err = %v, want ErrUnsupported", err)
	}
}
