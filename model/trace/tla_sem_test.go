package trace

import (
	"strings"
	"testing"
)

// TestTLARendersSemaphore: a semaphore's path becomes a module extending
// SemaphoreTrace, with the trace's max as MaxLeases, its listings in
// sequence order, and without the CancelAcquire of an attempt that never
// had the internal mutex (as Validate leaves it out). TLC's verdicts are
// cmd/tlatrace's tests.
func TestTLARendersSemaphore(t *testing.T) {
	evs := semEvents(t, `"children":["_c_u1-lease-0000000000","_c_u2-lease-0000000001"]`,
		`"children":["_c_u2-lease-0000000001","_c_u1-lease-0000000000"]`)
	mods, err := TLA(evs, "sem", true)
	if err != nil {
		t.Fatal(err)
	}
	if len(mods) != 1 || mods[0].Spec != "Semaphore" {
		t.Fatalf("%d modules, want one of Semaphore: %+v", len(mods), mods)
	}
	m := mods[0]
	src, cfg := string(m.Source), string(m.Config)
	if m.Events != len(evs)-1 {
		t.Errorf("Events = %d, want %d (the unstarted CancelAcquire left out)", m.Events, len(evs)-1)
	}
	for _, want := range []string{"EXTENDS SemaphoreTrace\n", "TraceMaxLeases == 2\n",
		`children |-> <<<<"c1", 1>>, <<"c2", 1>>>>`, `action |-> "LeasesChanged"`} {
		if !strings.Contains(src, want) {
			t.Errorf("the module lacks %q", want)
		}
	}
	if !strings.Contains(cfg, "LogMaxLeases <- TraceMaxLeases\n") || !strings.Contains(cfg, "in Semaphore.") {
		t.Errorf("config:\n%s", cfg)
	}
}
