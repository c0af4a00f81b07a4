package zklock

import (
	"errors"
	"testing"
	"time"
)

// TestElectionObserverSessionLost: an observer's own session is lost (its
// network silent past the session timeout): the observation ends with the
// session's error (Election.tla's ObserverSessionLost), within the time
// the session takes to be declared lost, not when the network comes back;
// it reports nothing after, and the leader it last reported is the last
// value its channel gave.
func TestElectionObserverSessionLost(t *testing.T) {
	p := lockPath(t)
	ctx := ctxFor(t, 2*time.Minute)
	a := newClient(t, "a")
	o := newClient(t, "o", WithSessionTimeout(shortTimeout))
	la := campaign(t, ctx, election(t, a, p), "a")
	obs := observe(t, ctx, election(t, o, p))
	if info := next(t, obs, "a leads"); info.Epoch != la.Epoch() {
		t.Fatalf("report %+v, want a at epoch %d", info, la.Epoch())
	}
	silent := time.Now()
	o.net.BlackholeUntilHealed()
	// Closed before the network heals: a reconnection with the observer's
	// watch armed would race inside go-zookeeper v1.0.4 (Conn.lastZxid,
	// go-zookeeper/zk#35), which -race reports.
	defer func() {
		o.Close()
		o.net.Heal()
	}()
	select {
	case info, ok := <-obs.Leaders():
		if ok {
			t.Fatalf("report %+v while the observer's network was silent and nothing changed", info)
		}
	case <-time.After(3 * shortTimeout):
		t.Fatalf("the observation still runs %v into its session's silence (timeout %v)", 3*shortTimeout, shortTimeout)
	}
	if err := obs.Err(); !errors.Is(err, ErrSessionLost) {
		t.Fatalf("Err = %v, want ErrSessionLost", err)
	}
	t.Logf("the observation ended %v into the silence", time.Since(silent).Round(time.Millisecond))
	if err := la.Resign(ctx); err != nil {
		t.Fatal(err)
	}
	if _, ok := <-obs.Leaders(); ok {
		t.Fatal("a report after the observation ended")
	}
}
