package load

import (
	"fmt"
	"sort"
	"time"
)

// Result is what a load campaign measured; Judge turns it into findings.
type Result struct {
	Elapsed  time.Duration
	Sessions []SessionStats
	Waiters  []SessionStats // the waiter sessions: they must not be lost either
	Rounds   []Round
	Acquires Acquires
	Samples  []Sample
	Errors   []string // what kept the campaign from measuring (not findings)
}

// SessionStats is one session's load and what it lost.
type SessionStats struct {
	Name        string        `json:"name"`
	Workers     int           `json:"workers,omitempty"`
	Leases      int           `json:"leases"` // held at once
	Replies     int64         `json:"replies"`
	Guards      int64         `json:"guards"` // of Replies, Guard writes
	Held        time.Duration `json:"-"`      // from the first lease to the end or the session's loss
	Lost        []LeaseLoss   `json:"leases_lost,omitempty"`
	SessionLost string        `json:"session_lost,omitempty"` // why, if the session ended before the campaign
	LostAfter   time.Duration `json:"-"`
}

// Rate is the reply rate the session held: replies per second until the end,
// or until it was lost.
func (s SessionStats) Rate() float64 {
	if s.Held <= 0 {
		return 0
	}
	return float64(s.Replies) / s.Held.Seconds()
}

// LeaseLoss is a lease that ended without being released.
type LeaseLoss struct {
	Path   string        `json:"path"`
	Reason string        `json:"reason"`
	After  time.Duration `json:"-"` // since the start of the load
}

// Round is one queue of waiters behind a holder, drained.
type Round struct {
	Path    string        `json:"path"`
	Waiters int           `json:"waiters"`
	Queued  int           `json:"queued"`  // waiters whose node was in the queue when the holder released
	Granted int           `json:"granted"` // waiters granted in the drain
	Queue   time.Duration `json:"-"`       // time to queue every waiter
	Drain   time.Duration `json:"-"`       // from the holder's release to the last grant
	Slowest time.Duration `json:"-"`       // the longest wait between two grants (the first from the release)
	Cut     bool          `json:"cut_short,omitempty"`
	Reports int           `json:"observer_reports,omitempty"` // an election's: what its observers reported
}

// Acquires are the busy sessions' own acquisitions (each lease taken again
// after a churn release).
type Acquires struct {
	Count   int           `json:"count"`
	Slowest time.Duration `json:"-"`
	Slow    []SlowAcquire `json:"slow,omitempty"`
}

// SlowAcquire is an acquisition that took longer than the bound.
type SlowAcquire struct {
	Session string        `json:"session"`
	Path    string        `json:"path"`
	Took    time.Duration `json:"-"`
}

// Finding is a failure of availability on a healthy ensemble.
type Finding struct {
	Kind string `json:"kind"` // lease-lost, session-lost, slow-acquire, slow-hand-off, not-granted
	Text string `json:"text"`
}

// Finding kinds.
const (
	FindLeaseLost   = "lease-lost"
	FindSessionLost = "session-lost"
	FindSlowAcquire = "slow-acquire"
	FindSlowHandOff = "slow-hand-off"
	FindNotGranted  = "not-granted"
)

// Judge returns the findings of r: with no fault injected, any loss, any
// acquisition or hand-off slower than bound, and any queued waiter never
// granted, is one.
func Judge(r *Result, bound time.Duration) []Finding {
	var out []Finding
	add := func(kind, format string, args ...any) {
		out = append(out, Finding{Kind: kind, Text: fmt.Sprintf(format, args...)})
	}
	for _, s := range append(append([]SessionStats{}, r.Sessions...), r.Waiters...) {
		if s.SessionLost != "" {
			add(FindSessionLost, "session %s declared lost after %v at %.0f replies/s: %s",
				s.Name, s.LostAfter.Round(time.Millisecond), s.Rate(), s.SessionLost)
		}
		for _, l := range s.Lost {
			add(FindLeaseLost, "session %s lost its lease on %s after %v: %s", s.Name, l.Path, l.After.Round(time.Millisecond), l.Reason)
		}
	}
	for _, a := range r.Acquires.Slow {
		add(FindSlowAcquire, "session %s took %v to acquire %s (bound %v)", a.Session, a.Took.Round(time.Millisecond), a.Path, bound)
	}
	for i, q := range r.Rounds {
		if q.Slowest > bound {
			add(FindSlowHandOff, "queue round %d on %s: %v between two grants (bound %v)", i+1, q.Path, q.Slowest.Round(time.Millisecond), bound)
		}
		if !q.Cut && q.Granted < q.Queued {
			add(FindNotGranted, "queue round %d on %s: %d of %d queued waiters granted", i+1, q.Path, q.Granted, q.Queued)
		}
	}
	return out
}

// drainStats returns the drain time and the longest wait between two
// consecutive grants, counted from release, of the grant instants.
func drainStats(release time.Time, grants []time.Time) (drain, slowest time.Duration) {
	if len(grants) == 0 {
		return 0, 0
	}
	g := append([]time.Time(nil), grants...)
	sort.Slice(g, func(i, j int) bool { return g[i].Before(g[j]) })
	prev := release
	for _, t := range g {
		slowest = max(slowest, t.Sub(prev))
		prev = t
	}
	return g[len(g)-1].Sub(release), slowest
}
