package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zklock/zklock/checker"
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
	m := newMonitor()
	fenced := &memRegister{name: "mem:/a", fenced: true, mon: m}
	if !fenced.write("c1", 5, "v1") || !fenced.write("c1", 5, "v2") || !fenced.write("c2", 9, "v3") {
		t.Fatal("fenced register refused a current token")
	}
	if fenced.write("c1", 5, "late") || fenced.read() != "v3" {
		t.Fatal("fenced register accepted a stale token")
	}
	if m.violations.Load() != 0 {
		t.Fatal("a refused stale write counted as a violation")
	}
	open := &memRegister{name: "mem:/b", mon: m}
	open.write("c2", 9, "v3")
	if !open.write("c1", 5, "late") || open.read() != "late" {
		t.Fatal("unfenced register refused a write")
	}
	if m.violations.Load() != 1 {
		t.Fatalf("stale write accepted: %d violations counted, want 1", m.violations.Load())
	}
}

func TestMonitorOverlaps(t *testing.T) {
	m := newMonitor()
	a := m.begin("c1", "/l", checker.ModeRead, 1, 0)
	b := m.begin("c2", "/l", checker.ModeRead, 2, 0)
	if m.violations.Load() != 0 {
		t.Fatal("two readers counted as an overlap")
	}
	m.end(a)
	m.end(b)
	x := m.begin("c1", "/l", checker.ModeExclusive, 3, 10)
	m.freeze("c1")
	y := m.begin("c2", "/l", checker.ModeExclusive, 4, 20)
	if m.violations.Load() != 0 {
		t.Fatal("an overlap a freeze explains was counted")
	}
	m.thaw("c1", 30)
	m.end(x)
	m.end(y)
	m.begin("c1", "/l", checker.ModeWrite, 5, 40)
	m.begin("c3", "/l", checker.ModeRead, 6, 40)
	if m.violations.Load() != 1 {
		t.Fatalf("%d violations, want 1 (writer and reader)", m.violations.Load())
	}
	before := m.writeCalled("zk:/d")
	m.writeOK("zk:/d", "c1", 7, before)
	before = m.writeCalled("zk:/d")
	m.writeOK("zk:/d", "c2", 6, before)
	if m.violations.Load() != 2 {
		t.Fatalf("stale ZooKeeper write not counted")
	}
}

// The --kill-cmd template gets the server's address and the signal.
func TestKillCmdTemplate(t *testing.T) {
	log := filepath.Join(t.TempDir(), "log")
	x := &externalCluster{addrs: []string{"127.0.0.1:2181", "10.0.0.2:2182"},
		killCmd: "echo {signal} {host} {port} {addr} >> " + log}
	ctx := context.Background()
	if err := x.run(ctx, 1, "KILL"); err != nil {
		t.Fatal(err)
	}
	if err := x.run(ctx, 0, "STOP"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	want := "KILL 10.0.0.2 2182 10.0.0.2:2182\nSTOP 127.0.0.1 2181 127.0.0.1:2181\n"
	if string(b) != want {
		t.Errorf("kill-cmd ran as %q, want %q", b, want)
	}
	x.killCmd = "echo oops >&2; exit 3"
	if err := x.run(ctx, 0, "KILL"); err == nil || !strings.Contains(err.Error(), "oops") {
		t.Errorf("a failing kill-cmd reported %v", err)
	}
}

func TestCounts(t *testing.T) {
	sched := []plannedFault{{Kind: faultSever}, {Kind: faultLatency}, {Kind: faultSever}}
	events := []faultEvent{{Index: 0, Kind: faultSever}, {Index: 1, Kind: faultLatency, Skipped: "x"},
		{Index: 2, Kind: faultSever}}
	got := countFaults(sched, events)
	want := []faultCount{{faultSever, 2, 2, 0}, {faultLatency, 1, 0, 1}}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("countFaults = %+v, want %+v", got, want)
	}
	h := checker.History{
		{Kind: checker.KindAcquire, Outcome: checker.OutcomeOK},
		{Kind: checker.KindAcquire, Outcome: checker.OutcomeFailed},
		{Kind: checker.KindLost},
		{Kind: checker.KindWrite, Outcome: checker.OutcomeUnknown},
		{Kind: checker.KindFault},
	}
	ops := countOps(h)
	if ops[0].OK != 1 || ops[0].Failed != 1 || ops[2].OK != 1 || ops[3].Unknown != 1 {
		t.Errorf("countOps = %+v", ops)
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
