package zklock

import (
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
)

// TestDrainIsBounded: Close waits for go-zookeeper's event channel to be
// closed, but not forever (connCloseWait says why the library can fail to
// close it). A channel that is closed after some events drains to true; a
// channel nobody closes gives up after the wait.
func TestDrainIsBounded(t *testing.T) {
	events := make(chan zk.Event, 3)
	events <- zk.Event{Type: zk.EventSession}
	events <- zk.Event{Type: zk.EventSession}
	close(events)
	if !drain(events, time.Minute) {
		t.Fatal("a closed channel did not drain")
	}
	stuck := make(chan zk.Event, 1)
	stuck <- zk.Event{Type: zk.EventSession}
	start := time.Now()
	if drain(stuck, 50*time.Millisecond) {
		t.Fatal("a channel nobody closes drained")
	}
	if len(stuck) != 0 {
		t.Fatal("the pending event was not read")
	}
	t.Logf("gave up after %v", time.Since(start).Round(time.Millisecond))
}
