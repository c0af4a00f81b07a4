package workload

import (
	"testing"
	"time"

	"github.com/zklock/zklock/cmd/chaos/internal/monitor"
)

func TestGateBlocksUntilThawed(t *testing.T) {
	var g gate
	g.pass() // open: returns at once
	if !g.freeze() || g.freeze() {
		t.Fatal("freeze should succeed once")
	}
	passed := make(chan struct{})
	go func() { g.pass(); close(passed) }()
	select {
	case <-passed:
		t.Fatal("pass returned while frozen")
	case <-time.After(50 * time.Millisecond):
	}
	g.thaw()
	select {
	case <-passed:
	case <-time.After(5 * time.Second):
		t.Fatal("pass did not return after thaw")
	}
	g.thaw() // thawing an open gate does nothing
}

func TestMemRegisterFencing(t *testing.T) {
	m := monitor.New()
	fenced := &memRegister{name: "mem:/a", fenced: true, mon: m}
	if !fenced.write("c1", 5, "v1") || !fenced.write("c1", 5, "v2") || !fenced.write("c2", 9, "v3") {
		t.Fatal("fenced register refused a current token")
	}
	if fenced.write("c1", 5, "late") || fenced.read() != "v3" {
		t.Fatal("fenced register accepted a stale token")
	}
	if m.Violations.Load() != 0 {
		t.Fatal("a refused stale write counted as a violation")
	}
	open := &memRegister{name: "mem:/b", mon: m}
	open.write("c2", 9, "v3")
	if !open.write("c1", 5, "late") || open.read() != "late" {
		t.Fatal("unfenced register refused a write")
	}
	if m.Violations.Load() != 1 {
		t.Fatalf("stale write accepted: %d violations counted, want 1", m.Violations.Load())
	}
}

// Only a guarded write proves that the lease still held at its call.
func TestLastKnownCountsGuardedWritesOnly(t *testing.T) {
	plain := &tenure{acqReturn: 10}
	plain.beginWrite()
	plain.endWrite(50, true)
	if got := plain.lastKnown(); got != 10 {
		t.Errorf("unguarded write moved the last known moment to %d", got)
	}
	guarded := &tenure{acqReturn: 10, guarded: true}
	guarded.beginWrite()
	guarded.endWrite(50, true)
	guarded.beginWrite()
	guarded.endWrite(70, false)
	if got := guarded.lastKnown(); got != 50 {
		t.Errorf("last known %d, want 50 (the last successful guarded write's call)", got)
	}
	// A write in flight is waited for.
	guarded.beginWrite()
	go func() { time.Sleep(20 * time.Millisecond); guarded.endWrite(90, true) }()
	if got := guarded.lastKnown(); got != 90 {
		t.Errorf("last known %d, want 90 (the write in flight succeeded)", got)
	}
}
