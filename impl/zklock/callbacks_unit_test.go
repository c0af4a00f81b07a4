package zklock

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestCallbacksInOrderOneAtATime: the Observer's queue runs its calls one
// at a time, each poster's in the order posted, every one of them; wait
// returns once all have run, and at once from inside a call (which
// waiting would deadlock). Posters race, and each call lingers a moment,
// so that a second runner would overlap the first (mutant
// callbacks-concurrent).
func TestCallbacksInOrderOneAtATime(t *testing.T) {
	const posters, each = 8, 50
	var c callbacks
	var running, overlaps, ran atomic.Int64
	last := make([]int, posters)
	var wg sync.WaitGroup
	for p := 0; p < posters; p++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 1; i <= each; i++ {
				c.post(func() {
					if running.Add(1) > 1 {
						overlaps.Add(1)
					}
					if last[p] != i-1 {
						t.Errorf("poster %d: call %d ran after call %d", p, i, last[p])
					}
					last[p] = i
					time.Sleep(100 * time.Microsecond)
					ran.Add(1)
					running.Add(-1)
				})
			}
		}()
	}
	wg.Wait()
	inside := make(chan struct{})
	c.post(func() {
		c.wait() // from inside a call: must not wait for itself
		close(inside)
	})
	c.wait()
	select {
	case <-inside:
	default:
		t.Fatal("wait returned before the calls queued before it had run")
	}
	if n := ran.Load(); n != posters*each {
		t.Fatalf("%d calls ran, want %d", n, posters*each)
	}
	if n := overlaps.Load(); n > 0 {
		t.Fatalf("%d calls ran beside another", n)
	}
}
