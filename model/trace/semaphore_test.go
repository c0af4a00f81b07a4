package trace

import (
	"errors"
	"testing"

	"github.com/zklock/zklock/traceevent"
)

// semTrace is a semaphore of max 2 at /s, written by hand as impl/zklock
// traces it: c1 and c2 hold; c3 waits with three lease nodes listed, is
// woken by c1's release and holds; c4 first gives up before it has the
// internal mutex (a CancelAcquire alone), then loses its create's reply,
// finds its node, lists three leases and cancels (TryAcquire), deleting
// its node before it unlocks the internal mutex; c2 and c3 release.
// Zxids: creates 10, 11, 12, 14; deletes 13, 15, 16, 17.
const semTrace = `
{"client":"c1","lock":"/s","action":"AcquireInternal","request":"u1","start":100,"end":100}
{"client":"c1","lock":"/s","action":"CreateLease","request":"u1","node":"_c_u1-lease-0000000000","start":110,"end":120,"zxid":10}
{"client":"c1","lock":"/s","action":"ListLeases","request":"u1","result":"held","children":["_c_u1-lease-0000000000"],"max":2,"start":121,"end":130,"zxid":10}
{"client":"c1","lock":"/s","action":"ReleaseInternal","request":"u1","start":131,"end":140}
{"client":"c2","lock":"/s","action":"AcquireInternal","request":"u2","start":150,"end":150}
{"client":"c2","lock":"/s","action":"CreateLease","request":"u2","node":"_c_u2-lease-0000000001","start":160,"end":170,"zxid":11}
{"client":"c2","lock":"/s","action":"ListLeases","request":"u2","result":"held","children":["_c_u1-lease-0000000000","_c_u2-lease-0000000001"],"max":2,"start":171,"end":180,"zxid":11}
{"client":"c2","lock":"/s","action":"ReleaseInternal","request":"u2","start":190,"end":200}
{"client":"c4","lock":"/s","action":"CancelAcquire","request":"u0","start":195,"end":196}
{"client":"c3","lock":"/s","action":"AcquireInternal","request":"u3","start":210,"end":210}
{"client":"c3","lock":"/s","action":"CreateLease","request":"u3","node":"_c_u3-lease-0000000002","start":220,"end":230,"zxid":12}
{"client":"c3","lock":"/s","action":"ListLeases","request":"u3","result":"wait","children":["_c_u1-lease-0000000000","_c_u2-lease-0000000001","_c_u3-lease-0000000002"],"max":2,"start":240,"end":250,"zxid":12}
{"client":"c1","lock":"/s","action":"ReleaseLease","request":"u1","node":"_c_u1-lease-0000000000","start":260,"end":270,"zxid":13}
{"client":"c3","lock":"/s","action":"LeasesChanged","request":"u3","start":280,"end":280}
{"client":"c3","lock":"/s","action":"ListLeases","request":"u3","result":"held","children":["_c_u2-lease-0000000001","_c_u3-lease-0000000002"],"max":2,"start":290,"end":300,"zxid":13}
{"client":"c3","lock":"/s","action":"ReleaseInternal","request":"u3","start":310,"end":320}
{"client":"c4","lock":"/s","action":"AcquireInternal","request":"u4","start":322,"end":322}
{"client":"c4","lock":"/s","action":"CreateLeaseReplyLost","request":"u4","start":323,"end":324}
{"client":"c4","lock":"/s","action":"FindOwnLease","request":"u4","result":"found","target":"_c_u4-lease-0000000003","start":325,"end":326}
{"client":"c4","lock":"/s","action":"ListLeases","request":"u4","result":"wait","children":["_c_u2-lease-0000000001","_c_u3-lease-0000000002","_c_u4-lease-0000000003"],"max":2,"start":327,"end":328,"zxid":14}
{"client":"c4","lock":"/s","action":"CancelAcquire","request":"u4","node":"_c_u4-lease-0000000003","start":329,"end":330,"zxid":15}
{"client":"c4","lock":"/s","action":"ReleaseInternal","request":"u4","start":331,"end":332}
{"client":"c2","lock":"/s","action":"ReleaseLease","request":"u2","node":"_c_u2-lease-0000000001","start":340,"end":350,"zxid":16}
{"client":"c3","lock":"/s","action":"ReleaseLease","request":"u3","node":"_c_u3-lease-0000000002","start":360,"end":370,"zxid":17}
`

// semEvents parses semTrace with its first old replaced by repl (none if old is empty).
func semEvents(t *testing.T, old, repl string) []Event {
	t.Helper()
	return editTrace(t, semTrace, old, repl)
}

// TestSemaphoreTrace: the hand-written semaphore trace is a run of
// model/semaphore, and each corruption of it (the positive controls) is
// rejected at the event it corrupts.
func TestSemaphoreTrace(t *testing.T) {
	rep, err := Validate(semEvents(t, "", ""), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != Valid || len(rep.Locks) != 1 || rep.Locks[0].Spec != "Semaphore" {
		t.Fatalf("want valid against Semaphore:\n%s", rep)
	}
	for _, tc := range []struct {
		name, old, repl string
		client          string
		action          traceevent.Action
		why             string
	}{
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
	} {
		t.Run(tc.name, func(t *testing.T) {
			wantInvalidAt(t, semEvents(t, tc.old, tc.repl), tc.client, tc.action, tc.why)
		})
	}
}

// TestSemaphoreTwoMaxes: one path used with two maxes is no run of the
// spec, which has one MaxLeases.
func TestSemaphoreTwoMaxes(t *testing.T) {
	evs := semEvents(t, `"max":2,"start":171`, `"max":3,"start":171`)
	if _, err := Validate(evs, Options{}); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("err = %v, want ErrUnsupported", err)
	}
}
