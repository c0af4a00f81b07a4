package zklock

import (
	"testing"
	"time"
)

// The loss deadline leaves the drift margin before the session timeout,
// counted from the proven send time: a fifth of the timeout by default,
// else what WithDriftMargin says.
func TestDeadlineLeavesTheDriftMargin(t *testing.T) {
	t0 := time.Unix(1000, 0)
	const timeout = 10 * time.Second
	for _, tc := range []struct {
		margin, want time.Duration
	}{{-1, timeout / 5}, {3 * time.Second, 3 * time.Second}} {
		s := &Session{cfg: sessionConfig{margin: tc.margin}, timeout: timeout, clock: newLossClock(time.Second, t0)}
		got, live := s.deadline()
		if want := t0.Add(timeout - tc.want); !live || !got.Equal(want) {
			t.Errorf("margin option %v: deadline %v after the base, want %v", tc.margin, got.Sub(t0), want.Sub(t0))
		}
	}
}

// A reattach after a reconnect proves what a sync proves: the follower
// revalidated the session with the leader, behind the touches it reported
// before. It moves the base to the newest request answered a sync lag
// before it was sent.
func TestReattachCountsAsSync(t *testing.T) {
	t0 := time.Unix(1000, 0)
	const timeout, lag = 10 * time.Second, 3 * time.Second
	s := &Session{id: 7, cfg: sessionConfig{margin: -1, lossTimer: fixedClock(t0.Add(5100 * time.Millisecond))},
		timeout: timeout, clock: newLossClock(lag, t0), newDeadline: make(chan struct{}, 1)}
	s.replied(t0.Add(time.Second), t0.Add(1100*time.Millisecond), false)
	if got, _ := s.deadline(); !got.Equal(t0.Add(timeout - timeout/5)) {
		t.Fatalf("an acknowledgement alone moved the deadline to %v after the session began", got.Sub(t0))
	}
	s.connectReplied(t0.Add(5*time.Second), 7, timeout)
	if got, want := s.clock.base, t0.Add(time.Second); !got.Equal(want) {
		t.Fatalf("base %v after the reattach, want %v: the reattach did not count as a sync", got.Sub(t0), want.Sub(t0))
	}
}

// An idle session lives on: the heartbeat's syncs keep proving that the
// leader hears from us, so a lease held without a call for longer than the
// session timeout still holds, and its node still stands.
func TestIdleSessionLives(t *testing.T) {
	c := newClient(t, "idle")
	ctx := ctxFor(t, time.Minute)
	m, _ := NewMutex(c.Session, lockPath(t))
	lease, err := m.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-lease.Done():
		t.Fatalf("an idle lease ended: %v", lease.Err())
	case <-time.After(c.Timeout() + 2*time.Second):
	}
	if _, err := lease.Guard(ctx); err != nil {
		t.Fatalf("Guard after %v idle: %v", c.Timeout()+2*time.Second, err)
	}
	if err := lease.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
}
