package main

import (
	"fmt"
	"math"
	"slices"
	"time"
)

// run is one measurement of one implementation in one scenario, in one
// repetition. The Curator harness prints the same fields as JSON.
type run struct {
	Impl    string          `json:"impl"`    // implName, or "curator"
	Kind    string          `json:"kind"`    // kindUncontended, kindHandoff, kindContended, kindReadMostly
	Clients int             `json:"clients"` // sessions contending
	Ops     int64           `json:"ops"`     // acquisitions inside the measured window
	Elapsed time.Duration   `json:"elapsed_ns"`
	Latency []time.Duration `json:"latency_ns"` // per acquisition (uncontended: acquire+release)
	Handoff []time.Duration `json:"handoff_ns"` // release start -> next grant (contended only)
	// Failover runs (Latency is then the end of a tenure -> the next
	// candidate leads, one per round):
	Observed []time.Duration `json:"observed_ns"` // the end of a tenure -> the last observer reports the next leader
	Floor    []time.Duration `json:"floor_ns"`    // the floor hand-off sampled after each round
	Timeout  time.Duration   `json:"timeout_ns"`  // expiry: the leader's negotiated session timeout
	Rep      int             `json:"-"`
	Stalls   []stall         `json:"-"` // Go implementations' exclusive runs only
	Server   *serverLoad     `json:"-"` // the servers' view of a contended or semaphore window, or a queue's drain; nil if mntr failed
	// Queue runs (Elapsed is then the drain, Ops the waiters):
	Join     time.Duration `json:"join_ns"` // the first Lock call -> every waiter's node in the queue
	JoinLoad *serverLoad   `json:"-"`       // the servers' view of the join, polls excluded
}

// Scenario kinds.
const (
	kindUncontended = "uncontended" // one client, acquire+release back to back
	kindHandoff     = "handoff"     // floor only: delete -> watch notification
	kindContended   = "contended"   // N clients, exclusive lock
	kindReadMostly  = "readmostly"  // N clients, read/write lock, 1 write in K
	// floor only: N raw sessions doing create+delete pairs flat out, the
	// most writes per second the ensemble commits for N clients.
	kindWriteCeiling = "writeceiling"
)

// opsPerSec is the run's throughput.
func (r run) opsPerSec() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Ops) / r.Elapsed.Seconds()
}

// percentile is the nearest-rank percentile (p in (0, 100]) of xs: the
// smallest sample that at least p% of the samples do not exceed. It is 0 for
// no samples. Nearest rank, not interpolation, so that every reported number
// is a latency that was actually observed.
func percentile(xs []time.Duration, p float64) time.Duration {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	rank := int(math.Ceil(p / 100 * float64(len(s))))
	rank = max(1, min(rank, len(s)))
	return s[rank-1]
}

func mean(xs []time.Duration) time.Duration {
	if len(xs) == 0 {
		return 0
	}
	var sum time.Duration
	for _, x := range xs {
		sum += x
	}
	return sum / time.Duration(len(xs))
}

// spread is a statistic over repetitions: its median and its range.
type spread struct {
	Median, Min, Max float64
	N                int
}

// over summarizes one value per repetition. NaN values (a repetition that
// did not produce the number) are left out.
func over(xs []float64) spread {
	var s []float64
	for _, x := range xs {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			s = append(s, x)
		}
	}
	if len(s) == 0 {
		return spread{Median: math.NaN(), Min: math.NaN(), Max: math.NaN()}
	}
	slices.Sort(s)
	m := s[len(s)/2]
	if len(s)%2 == 0 {
		m = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	return spread{Median: m, Min: s[0], Max: s[len(s)-1], N: len(s)}
}

func (s spread) ok() bool { return s.N > 0 }

// ms formats a spread of seconds as milliseconds: "2.31 ms (2.10–2.60)".
func (s spread) ms() string {
	if !s.ok() {
		return "—"
	}
	return fmt.Sprintf("%.2f ms (%.2f–%.2f)", s.Median*1e3, s.Min*1e3, s.Max*1e3)
}

// rate formats a spread of operations per second.
func (s spread) rate() string {
	if !s.ok() {
		return "—"
	}
	return fmt.Sprintf("%.0f (%.0f–%.0f)", s.Median, s.Min, s.Max)
}

// ratio formats a spread of ratios: "1.42× (1.30–1.55)".
func (s spread) ratio() string {
	if !s.ok() {
		return "—"
	}
	return fmt.Sprintf("%.2f× (%.2f–%.2f)", s.Median, s.Min, s.Max)
}

// plain formats a spread of plain numbers with one decimal.
func (s spread) plain() string {
	if !s.ok() {
		return "—"
	}
	return fmt.Sprintf("%.1f (%.1f–%.1f)", s.Median, s.Min, s.Max)
}
