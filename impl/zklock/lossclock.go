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
	// grain is the least time between the arrivals of two kept acks: 0
	// until the memory first fills (see recordAck).
	grain time.Duration
}

// ack is one acknowledged request: when it was sent and when its reply
// arrived, both on this process's monotonic clock.
type ack struct{ sent, at time.Time }

// newLossClock starts at the session's creation, sent at created.
func newLossClock(lag time.Duration, created time.Time) *lossClock {
	return &lossClock{lag: lag, base: created}
}

// maxPendingAcks bounds the acknowledgements kept between syncs. A busy
// session (thousands of replies a second) acknowledges far more than that
// within one lag, and a cut-off follower answering pings with no sync coming
// back grows the list without end; so the memory is thinned when full.
const maxPendingAcks = 4096

// recordAck records an acknowledged request; sync says it was a sync, which
// reached the leader.
//
// The memory keeps genuine acknowledgements on an even grid of arrival
// times: an acknowledgement that arrives less than grain after the newest
// one kept is not kept, and when the memory is full the grain doubles and
// the entries closer than it to the one kept before them go. Dropping a
// genuine <sent, at> pair only ever proves less, so the rule proves no more
// than with unbounded memory (safety, LossBeforeExpiry); and since what is
// left is spread evenly, a sync proves a send time at most about two grains
// older than unbounded memory would (availability, NoSpuriousLoss): with
// syncs coming back, the grain stays near 2*lag/maxPendingAcks, about a
// millisecond. Merging entries instead, an older send time with a newer
// arrival, keeps an entry that no sync can prove while replies come faster
// than maxPendingAcks per lag: the busy session then loses itself (TLC's
// must-fail config for that merge; the code mutant merge-oldest-acks).
func (c *lossClock) recordAck(sent, at time.Time, sync bool) {
	if sync {
		c.prove(sent.Add(-c.lag))
	}
	if !sent.After(c.base) {
		return
	}
	if n := len(c.acks); n > 0 && at.Sub(c.acks[n-1].at) < c.grain {
		return
	}
	if len(c.acks) >= maxPendingAcks {
		c.thin()
	}
	c.acks = append(c.acks, ack{sent: sent, at: at})
}

// thin doubles the grain (the first time, to twice the spacing the memory
// would have if its span were spread evenly) and keeps the oldest entry and
// each one at least a grain after the one kept before it, doubling again
// while that leaves the memory full (SessionTimingLoad's Thin).
func (c *lossClock) thin() {
	span := c.acks[len(c.acks)-1].at.Sub(c.acks[0].at)
	c.grain = max(2*c.grain, 2*span/maxPendingAcks, time.Microsecond)
	for {
		kept := c.acks[:1]
		for _, a := range c.acks[1:] {
			if a.at.Sub(kept[len(kept)-1].at) >= c.grain {
				kept = append(kept, a)
			}
		}
		c.acks = kept
		if len(c.acks) < maxPendingAcks {
			return
		}
		c.grain *= 2
	}
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
	if len(c.acks)*4 < maxPendingAcks {
		// Room again: a finer grid for what comes next.
		c.grain /= 2
	}
}

// deadline is when the session must be taken for lost.
func (c *lossClock) deadline(timeout, margin time.Duration) time.Time {
	return c.base.Add(timeout - margin)
}
