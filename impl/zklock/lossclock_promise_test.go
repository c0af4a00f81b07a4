package zklock

import (
	"math/rand/v2"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// refClock is the loss rule with unbounded memory: every acknowledgement
// kept until a sync proves it. It is the reference of SessionTimingLoad's
// ProvesNoMore: the bounded memory must never prove a newer send time.
type refClock struct {
	lag  time.Duration
	base time.Time
	acks []ack
}

func (r *refClock) recordAck(sent, at time.Time, sync bool) {
	if sync {
		by := sent.Add(-r.lag)
		keep := r.acks[:0]
		for _, a := range r.acks {
			if !a.at.After(by) {
				if a.sent.After(r.base) {
					r.base = a.sent
				}
				continue
			}
			keep = append(keep, a)
		}
		r.acks = keep
	}
	r.acks = append(r.acks, ack{sent, at})
}

// TestLossClockProvesNoMore: on random busy sessions (thousands of replies
// between syncs, so that the memory fills and thins), replies in the order
// their requests were sent, as ZooKeeper answers one session, the bounded
// memory's base is never newer than the unbounded reference's after any
// acknowledgement: it never proves a send time that remembering every
// acknowledgement would not (code mutant acks-merge-proves-more, a merge
// that pairs a dropped acknowledgement's newer send time with the
// arrival of the one kept).
func TestLossClockProvesNoMore(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		lag := time.Duration(rapid.IntRange(1, 50).Draw(t, "lagMs")) * time.Millisecond
		seed := rapid.Uint64().Draw(t, "seed")
		phases := rapid.IntRange(1, 4).Draw(t, "phases")
		rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
		t0 := time.Unix(1000, 0)
		c, ref := newLossClock(lag, t0), &refClock{lag: lag, base: t0}
		now, lastAt := t0, t0
		steps := 0
		for p := 0; p < phases; p++ {
			n := rapid.IntRange(1, 3*maxPendingAcks).Draw(t, "acks")
			// On a log scale: a busy session (replies microseconds apart)
			// is the case that fills the memory and thins it.
			gapUs := 1 << rapid.IntRange(0, 11).Draw(t, "log2GapUs")         // between sends
			latencyUs := 1 << rapid.IntRange(0, 14).Draw(t, "log2LatencyUs") // longest reply time
			syncEvery := rapid.IntRange(1, 5*maxPendingAcks).Draw(t, "syncEvery")
			for i := 0; i < n; i++ {
				now = now.Add(time.Duration(1+rng.IntN(gapUs)) * time.Microsecond)
				at := now.Add(time.Duration(rng.IntN(latencyUs)) * time.Microsecond)
				if at.Before(lastAt) {
					at = lastAt // replies come in order
				}
				lastAt = at
				sync := rng.IntN(syncEvery) == 0
				c.recordAck(now, at, sync)
				ref.recordAck(now, at, sync)
				steps++
				if c.base.After(ref.base) {
					t.Fatalf("after %d acknowledgements (phase %d, sync %v) the bounded memory proves %v, unbounded memory only %v",
						steps, p, sync, c.base.Sub(t0), ref.base.Sub(t0))
				}
				if len(c.acks) > maxPendingAcks {
					t.Fatalf("memory holds %d acknowledgements, bound %d", len(c.acks), maxPendingAcks)
				}
			}
		}
	})
}
