package zklock

import (
	"testing"
	"time"
)

// A semaphore's lease ends, as an Observer is told, under the lock path
// its acquisition was told under (the semaphore's, not P/leases), so that
// an observer pairing the two (otelzklock's zklock.leases.held) balances;
// its internal mutex is told apart, under P/locks, grant and end alike.
func TestObserverSemaphoreLeaseName(t *testing.T) {
	var r recorder
	p := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	c, m := newSem(t, "holder", p, 2, WithObserver(r.observer()))
	a, err := m.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	c.cbs.wait() // the Observer's calls run on a goroutine of their own
	r.mu.Lock()
	defer r.mu.Unlock()
	held := map[string]int{}
	for _, x := range r.acquired {
		if x.Err == nil {
			held[x.Lock]++
		}
	}
	for _, e := range r.ended {
		held[e.Lock]--
	}
	if held[p] != 0 || held[p+semLocks] != 0 || len(held) != 2 {
		t.Fatalf("grants minus ends by lock: %v; want 0 for %s and for %s only (acquired %+v, ended %+v)", held, p, p+semLocks, r.acquired, r.ended)
	}
}
