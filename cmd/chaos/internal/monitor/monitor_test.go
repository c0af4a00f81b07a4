package monitor

import (
	"testing"

	"github.com/zklock/zklock/checker"
)

func TestMonitorOverlaps(t *testing.T) {
	m := New()
	a := m.Begin("c1", "/l", checker.ModeRead, 1, 0)
	b := m.Begin("c2", "/l", checker.ModeRead, 2, 0)
	if m.Violations.Load() != 0 {
		t.Fatal("two readers counted as an overlap")
	}
	m.End(a)
	m.End(b)
	x := m.Begin("c1", "/l", checker.ModeExclusive, 3, 10)
	m.Freeze("c1")
	y := m.Begin("c2", "/l", checker.ModeExclusive, 4, 20)
	if m.Violations.Load() != 0 {
		t.Fatal("an overlap a freeze explains was counted")
	}
	m.Thaw("c1", 30)
	m.End(x)
	m.End(y)
	m.Begin("c1", "/l", checker.ModeWrite, 5, 40)
	m.Begin("c3", "/l", checker.ModeRead, 6, 40)
	if m.Violations.Load() != 1 {
		t.Fatalf("%d violations, want 1 (writer and reader)", m.Violations.Load())
	}
	before := m.WriteCalled("zk:/d")
	m.WriteOK("zk:/d", "c1", 7, before)
	before = m.WriteCalled("zk:/d")
	m.WriteOK("zk:/d", "c2", 6, before)
	if m.Violations.Load() != 2 {
		t.Fatalf("stale ZooKeeper write not counted")
	}
}
