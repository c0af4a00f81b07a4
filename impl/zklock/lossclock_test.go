package zklock

import (
	"fmt"
	"testing"
	"time"
)

// TestLossClock walks the rule through the cases that matter, in ticks of
// 100 ms with lag 3 ticks (syncLimit 2), timeout 20 ticks, margin 4.
func TestLossClock(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(ticks int) time.Time { return t0.Add(time.Duration(ticks) * 100 * time.Millisecond) }
	const lag, timeout, margin = 300 * time.Millisecond, 2 * time.Second, 400 * time.Millisecond
	type step struct {
		sent, at int
		sync     bool
		base     int // the base after the step, in ticks
	}
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"pings alone prove nothing: a cut-off follower answers them", []step{
			{1, 2, false, 0}, {5, 6, false, 0}, {9, 10, false, 0}, {13, 14, false, 0}}},
		{"a sync proves what was answered lag before it was sent", []step{
			{1, 2, false, 0}, {5, 6, false, 0}, {9, 10, true, 5}}},
		{"a sync proves nothing answered less than lag before it", []step{
			{1, 2, false, 0}, {5, 7, false, 0}, {9, 10, true, 1}}},
		{"a sync proves the syncs before it", []step{
			{1, 2, true, 0}, {6, 7, true, 1}, {11, 12, true, 6}}},
		{"the base never goes back", []step{
			{10, 11, false, 0}, {20, 21, true, 10}, {15, 16, false, 10}, {25, 26, true, 20}}},
		{"a reply's arrival, not its send, counts against the sync", []step{
			{1, 9, false, 0}, {10, 11, true, 0}, {20, 21, true, 10}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newLossClock(lag, at(0))
			for i, s := range tc.steps {
				c.recordAck(at(s.sent), at(s.at), s.sync)
				if !c.base.Equal(at(s.base)) {
					t.Fatalf("step %d %+v: base %v ticks, want %d", i, s, c.base.Sub(t0)/(100*time.Millisecond), s.base)
				}
			}
			if got, want := c.deadline(timeout, margin), c.base.Add(timeout-margin); !got.Equal(want) {
				t.Errorf("deadline %v, want %v", got, want)
			}
		})
	}
}

// TestLossClockTodaysRuleCaught is the unit test's positive control: the
// rule the code ran before (every acknowledgement restarts the clock)
// gives a later deadline than the rule above in the cut-off follower case,
// the case TLC's SessionTiming.TodayRule fails on.
func TestLossClockTodaysRuleCaught(t *testing.T) {
	t0 := time.Unix(1000, 0)
	c := newLossClock(300*time.Millisecond, t0)
	var today time.Time
	for ms := 100; ms <= 2000; ms += 400 { // pings answered by a cut-off follower
		sent := t0.Add(time.Duration(ms) * time.Millisecond)
		c.recordAck(sent, sent.Add(10*time.Millisecond), false)
		today = sent
	}
	if !c.deadline(2*time.Second, 0).Before(today.Add(2 * time.Second)) {
		t.Fatalf("the rule is no stricter than today's")
	}
	if !c.base.Equal(t0) {
		t.Errorf("pings moved the base to %v", c.base.Sub(t0))
	}
}

// TestLossClockBounded: a flood of acknowledgements without a sync keeps
// at most maxPendingAcks, and proves no more than it would have.
func TestLossClockBounded(t *testing.T) {
	t0 := time.Unix(1000, 0)
	c := newLossClock(time.Second, t0)
	for i := 1; i <= 3*maxPendingAcks; i++ {
		s := t0.Add(time.Duration(i) * time.Millisecond)
		c.recordAck(s, s, false)
	}
	if len(c.acks) > maxPendingAcks {
		t.Fatalf("%d acks kept", len(c.acks))
	}
	sync := t0.Add(time.Duration(3*maxPendingAcks)*time.Millisecond + 2*time.Second)
	c.recordAck(sync, sync, true)
	if want := t0.Add(time.Duration(3*maxPendingAcks) * time.Millisecond); c.base.After(want) {
		t.Errorf("base %v after the newest ack %v", c.base, want)
	}
}

// TestLossClockBusySessionKeepsLease is the availability half of the rule
// (SessionTiming's NoSpuriousLoss) on the code's own memory: a session
// acknowledged far more often than maxPendingAcks per lag, with a sync
// every heartbeat, must keep proving nearly what unbounded memory would
// prove, and never reach its deadline. The timing is the one that lost a
// busy session on a healthy ensemble (tickTime 500 ms, syncLimit 5, a 10 s
// session, the default margin), at rates from 1/lag of the bound to twenty
// times it. Its control is the code mutant merge-oldest-acks.
func TestLossClockBusySessionKeepsLease(t *testing.T) {
	const (
		lag     = 3 * time.Second
		timeout = 10 * time.Second
		margin  = 2 * time.Second
		rtt     = time.Millisecond
	)
	beat := (timeout - margin - lag) / 4
	for _, perSecond := range []int{300, 1500, 4200, 12000, 30000} {
		t.Run(fmt.Sprintf("%d/s", perSecond), func(t *testing.T) {
			t0 := time.Unix(1000, 0)
			c := newLossClock(lag, t0)
			every := time.Second / time.Duration(perSecond)
			var sent []time.Time // every acknowledged send time, for the unbounded rule
			nextSync := t0.Add(beat)
			for now := t0.Add(every); now.Before(t0.Add(3 * timeout)); now = now.Add(every) {
				if !now.Before(nextSync) {
					// The unbounded rule: the newest send acknowledged lag before the sync.
					ideal := t0
					for _, s := range sent {
						if !s.Add(rtt).After(nextSync.Add(-lag)) {
							ideal = s
						}
					}
					c.recordAck(nextSync, nextSync.Add(rtt), true)
					if gap := ideal.Sub(c.base); gap > 10*time.Millisecond {
						t.Fatalf("sync at %v: base %v behind the unbounded rule's", nextSync.Sub(t0), gap)
					}
					if !nextSync.Add(rtt).Before(c.deadline(timeout, margin)) {
						t.Fatalf("a healthy session reached its deadline at %v (base %v)", nextSync.Sub(t0), c.base.Sub(t0))
					}
					nextSync = nextSync.Add(beat)
				}
				c.recordAck(now, now.Add(rtt), false)
				sent = append(sent, now)
			}
			if len(c.acks) > maxPendingAcks {
				t.Errorf("%d acks kept, bound %d", len(c.acks), maxPendingAcks)
			}
		})
	}
}
