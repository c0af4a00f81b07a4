package kazooqueue

import (
	"testing"

	"github.com/zklock/zklock/model"
)

// TestGrantCountsKazoo: a zklock writer behind a holding kazoo Lock is
// granted only when zklock ignores kazoo's names; a zklock reader behind a
// kazoo ReadLock is granted either way, and behind a kazoo Lock only when
// it ignores it.
func TestGrantCountsKazoo(t *testing.T) {
	for _, count := range []bool{true, false} {
		// Clients (0-based): 0 zklock reader, 1 zklock writer, 2 kazoo
		// ReadLock, 3 kazoo Lock.
		sp, err := New(Constants{ZReaders: 1, ZWriters: 1, KReaders: 1, KWriters: 1, CountKazoo: count})
		if err != nil {
			t.Fatal(err)
		}
		run := func(s State, steps ...model.Label) State {
			for _, l := range steps {
				var n State
				if g := sp.Step(&s, l, &n); g != model.Enabled {
					t.Fatalf("count %v: %s not enabled: %s", count, sp.LabelString(l), g)
				}
				s = n
			}
			return s
		}
		grantable := func(s State, c int) bool {
			var n State
			return sp.Step(&s, model.Label{Action: ActGrant, Client: int16(c)}, &n) == model.Enabled
		}
		enq := func(c int) model.Label { return model.Label{Action: ActEnqueue, Client: int16(c)} }
		grant := func(c int) model.Label { return model.Label{Action: ActGrant, Client: int16(c)} }

		kLock := sp.Init()
		kLock = run(kLock, enq(3), grant(3))
		if got := grantable(run(kLock, enq(1)), 1); got == count {
			t.Errorf("count %v: zklock writer behind a kazoo Lock grantable = %v", count, got)
		}
		if got := grantable(run(kLock, enq(0)), 0); got == count {
			t.Errorf("count %v: zklock reader behind a kazoo Lock grantable = %v", count, got)
		}
		kRead := run(sp.Init(), enq(2), grant(2))
		if !grantable(run(kRead, enq(0)), 0) {
			t.Errorf("count %v: zklock reader behind a kazoo ReadLock not grantable", count)
		}
		if got := grantable(run(kRead, enq(1)), 1); got == count {
			t.Errorf("count %v: zklock writer behind a kazoo ReadLock grantable = %v", count, got)
		}
		if grantable(run(sp.Init(), enq(1), grant(1), enq(3)), 3) {
			t.Errorf("count %v: kazoo Lock behind a holding zklock writer grantable", count)
		}
		if _, err := New(Constants{ZReaders: -1}); err == nil {
			t.Error("New accepted a negative constant")
		}
	}
}
