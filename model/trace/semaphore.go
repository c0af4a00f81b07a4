package trace

import (
	"fmt"

	"github.com/zklock/zklock/traceevent"
)

// The semaphore's reading of its events (Semaphore.tla, model/semaphore).
// The steps it shares with the lock's in shape are matched by the lock's
// methods under its own names: CreateLease as CreateOk, CreateLeaseReplyLost
// as CreateReplyLost, FindOwnLease as FindOwnNode, ReleaseLease as Release,
// AcquireInternal as the model's step. The rest are here.

// isListing: a's event is a listing of the contenders, a lock's or a
// semaphore's.
func isListing(a traceevent.Action) bool {
	return a == traceevent.ListChildren || a == traceevent.ListLeases
}

// semaphoreMax is the semaphore's MaxLeases: the max its ListLeases events
// carry. One path used with two maxes (the library allows it: each process
// enforces its own on the shared count) is no run of the spec, which has
// one; a trace without a max (no listing decided anything) gets 1, which no
// event can contradict.
func semaphoreMax(events [][]*Event, where string) (int, error) {
	max := 0
	for _, evs := range events {
		for _, e := range evs {
			if e.Action != traceevent.ListLeases || e.Result == traceevent.ResultMissing {
				continue
			}
			switch {
			case e.Max < 1:
				return 0, fmt.Errorf("%w: %s: a semaphore's listing must carry its max", ErrUnsupported, e)
			case max != 0 && e.Max != max:
				return 0, fmt.Errorf("%w: %s: %s is used with max %d and %d: the spec has one MaxLeases",
					ErrUnsupported, e, where, max, e.Max)
			}
			max = e.Max
		}
	}
	if max == 0 {
		max = 1
	}
	return max, nil
}

// dropUnstarted leaves out the CancelAcquire of an acquisition that never
// had the internal mutex (it timed out waiting for it, or TryAcquire found
// it taken): the spec's acquisition starts with AcquireInternal, so such
// an attempt is no request of the model (and made no lease node).
func dropUnstarted(evs []*Event) []*Event {
	out := evs[:0:0]
	started := map[string]bool{}
	for _, e := range evs {
		if e.Action == traceevent.AcquireInternal {
			started[e.Request] = true
		}
		if e.Action == traceevent.CancelAcquire && !started[e.Request] {
			continue
		}
		out = append(out, e)
	}
	return out
}

// ListLeases: the listing must show the model's lease nodes, and the
// client's decision must be the model's for the semaphore's max: "held"
// (at most MaxLeases nodes: release the internal mutex next) or "wait".
// A listing that misses the client's own node is an observation, as for
// a lock.
func (m *eventMatch[S]) ListLeases() ([]succ[S], string) {
	ev := m.ev
	if why := m.se.sameChildren(m.s, ev); why != "" {
		return nil, why
	}
	if ev.Result == traceevent.ResultMissing {
		return m.listingMissing()
	}
	t, why := m.do(ev.Action, 0)
	if why != "" {
		return nil, why
	}
	switch got := m.se.a.pc(&t, m.c); {
	case ev.Result == traceevent.ResultHeld && got == "release":
		return m.one(t, m.nd.maxSeq, m.label+" -> held")
	case ev.Result == traceevent.ResultWait && got == "wait":
		return m.one(t, m.nd.maxSeq, m.label+" -> wait for the leases to change")
	default:
		return nil, fmt.Sprintf("the client's listing of %d leases says %q; in the model (MaxLeases = %d) it goes to %q",
			len(ev.Children), ev.Result, m.se.lt.maxLeases, got)
	}
}

// LeasesChanged: the model's step, as the lock's PredecessorGone.
func (m *eventMatch[S]) LeasesChanged() ([]succ[S], string) { return m.notified() }

// ReleaseInternal: after "held", the model's step, or nothing if the
// session is gone (the server freed the internal mutex with it). After a
// failed acquisition (the client's CancelAcquire, which the impl traces
// before it unlocks the internal mutex) nothing either: the model's
// CancelAcquire released it.
func (m *eventMatch[S]) ReleaseInternal() ([]succ[S], string) {
	prev := traceevent.Action("")
	if i := m.nd.pos[m.c]; i > 0 {
		prev = m.se.lt.events[m.c][i-1].Action
	}
	switch {
	case m.pc == "release" && !m.se.a.live(m.s, m.c):
		return m.one(*m.s, m.nd.maxSeq, "(nothing: the session is gone, so is the internal mutex's node)")
	case m.pc != "release" && prev == traceevent.CancelAcquire:
		return m.one(*m.s, m.nd.maxSeq, "(nothing: CancelAcquire released the internal mutex)")
	}
	return m.step()
}

// CancelAcquire: from a pc of Acquiring (the acquisition has the internal
// mutex and holds no lease yet); see cancel.
func (m *eventMatch[S]) CancelAcquire() ([]succ[S], string) {
	switch m.pc {
	case "create", "find", "list", "wait":
		return m.cancel(true)
	}
	return m.cancel(false)
}
