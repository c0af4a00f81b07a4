package zklock

import "time"

// lossClock decides from which send time the session's loss deadline
// counts: the rule TLC checks in spec/tla/SessionTiming.tla ("synced").
//
// The server that expires a session is the leader, from the touches its
// followers forward to it in their replies to its pings. A follower cut off
// from the leader keeps answering our requests (pings included) for up to
// syncLimit ticks, so an acknowledgement from it proves nothing about the
// leader's clock. A sync does: the follower forwards it to the leader on
// the same stream as its ping replies, and the leader answers it only after
// everything before it on that stream. A request whose acknowledgement
// reached us at A, at least lag = (syncLimit+1) ticks before we sent a
// sync that was acknowledged, was received by the follower before the
// follower last heard from the leader ahead of that sync, so its touch went
// to the leader before the sync did: the leader's expiry clock restarted at
// or after that request's send time. The newest such send time is the base;
// the deadline is base + timeout - drift margin.
//
// Without followers (a client on the leader) this is conservative: it
// still waits for the lag. The session's creation counts at its send time
// (the leader creates sessions); a reattach to the session after a
// reconnect counts like a sync (the follower revalidates the session with
// the leader on the same stream before it answers).
type lossClock struct {
	lag  time.Duration
	base time.Time // the newest send time proven touched at the leader
	acks []ack     // acknowledged requests not yet proven, oldest first
}

// ack is one acknowledged request: when it was sent and when its reply
// arrived, both on this process's monotonic clock.
type ack struct{ sent, at time.Time }

// newLossClock starts at the session's creation, sent at created.
func newLossClock(lag time.Duration, created time.Time) *lossClock {
	return &lossClock{lag: lag, base: created}
}

// maxPendingAcks bounds the acknowledgements kept while no sync comes back
// (a cut-off follower answering pings): the oldest are merged into one,
// which only makes the rule more conservative.
const maxPendingAcks = 4096

// acked records an acknowledged request; sync says it was a sync, which
// reached the leader.
func (c *lossClock) acked(sent, at time.Time, sync bool) {
	if sync {
		c.prove(sent.Add(-c.lag))
	}
	if !sent.After(c.base) {
		return
	}
	if len(c.acks) >= maxPendingAcks {
		// Keep the older send time with the newer arrival: never proves more.
		c.acks[1] = ack{sent: c.acks[0].sent, at: c.acks[1].at}
		c.acks = c.acks[1:]
	}
	c.acks = append(c.acks, ack{sent: sent, at: at})
}

// prove moves the base to the newest send time of an acknowledgement that
// arrived at or before by.
func (c *lossClock) prove(by time.Time) {
	keep := c.acks[:0]
	for _, a := range c.acks {
		if !a.at.After(by) {
			if a.sent.After(c.base) {
				c.base = a.sent
			}
			continue
		}
		keep = append(keep, a)
	}
	c.acks = keep
}

// deadline is when the session must be taken for lost.
func (c *lossClock) deadline(timeout, margin time.Duration) time.Time {
	return c.base.Add(timeout - margin)
}
