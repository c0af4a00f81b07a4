package main

import (
	"fmt"
	"math"
	"slices"
	"time"
)

// Failover in the report. The floor of a hand-over is sampled after each
// zklock round, so zklock's ratios to it are per round (round i's time ÷
// round i's floor), pooled over the repetitions, then their median: a
// ratio never mixes numbers measured minutes apart. LeaderLatch runs in
// its own JVM, with no floor of its own: its ratios are of medians within
// one repetition (its median ÷ zklock's, ÷ the floor's median), then their
// median over repetitions.

var failoverLabel = map[string]string{
	kindFailResign:  "Resign (LeaderLatch: close())",
	kindFailStandby: "Resign, a standby queued behind the next (LeaderLatch: not run)",
	kindFailClose:   "session closed (a crash with a clean disconnect)",
	kindFailExpire:  "session expired (connection silenced)",
}

// failoverRuns are the runs of impl and kind, every repetition's.
func (t table) failoverRuns(impl, kind string) []run {
	return t.runs[key(impl, kind, t.clientsOf(impl))]
}

// clientsOf is the Clients field failover runs of impl carry: the
// observers for zklock, none for LeaderLatch.
func (t table) clientsOf(impl string) int {
	if impl == implCurator {
		return 0
	}
	return t.cfg.observers
}

// perRound is the pooled per-round ratios f(r)[i] ÷ r.Floor[i].
func perRound(runs []run, f func(run) []time.Duration) []float64 {
	var xs []float64
	for _, r := range runs {
		ys := f(r)
		for i := range min(len(ys), len(r.Floor)) {
			if r.Floor[i] > 0 {
				xs = append(xs, float64(ys[i])/float64(r.Floor[i]))
			}
		}
	}
	return xs
}

// pooled is every round's f, over all repetitions.
func pooled(runs []run, f func(run) []time.Duration) []time.Duration {
	var xs []time.Duration
	for _, r := range runs {
		xs = append(xs, f(r)...)
	}
	return xs
}

func led(r run) []time.Duration      { return r.Latency }
func observed(r run) []time.Duration { return r.Observed }
func floorOf(r run) []time.Duration  { return r.Floor }

// quantile is the nearest-rank p-quantile of xs (NaN for none).
func quantile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	rank := max(1, min(int(math.Ceil(p/100*float64(len(s)))), len(s)))
	return s[rank-1]
}

// roundRatio formats pooled per-round ratios: "1.42× (p10–p90 1.30–1.55)".
func roundRatio(xs []float64) string {
	if len(xs) == 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f× (%.2f–%.2f)", quantile(xs, 50), quantile(xs, 10), quantile(xs, 90))
}

// msOf formats a pooled p50 in milliseconds.
func msOf(xs []time.Duration) string {
	if len(xs) == 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f ms", percentile(xs, 50).Seconds()*1e3)
}

// medianPer is f's median in each repetition's run, NaN where none.
func (t table) medianPer(impl, kind string, f func(run) []time.Duration) []float64 {
	return t.per(impl, kind, t.clientsOf(impl), func(r run) float64 {
		xs := f(r)
		return nanIfEmpty(xs, percentile(xs, 50).Seconds())
	})
}

// failover writes the failover section: the floor, zklock's times and
// their ratios to the floor, and LeaderLatch's beside them.
func (rw *reportWriter) failover() {
	t, w := rw.t, rw.w
	if len(rw.cfg.failover) == 0 || !rw.has(implZklock) {
		return
	}
	w("## Failover: leader election\n\n")
	w("Each round: candidate A leads, candidate B waits (its watch on A's node set), %d observers "+
		"observe; A's tenure ends, and the round measures from that moment to B's `Campaign` returning "+
		"(**led**) and to the last observer reporting B (**observed**). After each round the floor "+
		"hand-off (a raw `delete` of a node another session watches, to its notification) is sampled on "+
		"the same ensemble. Ratios to the floor are per round (median, p10–p90 in parentheses) over all "+
		"the rounds of every repetition; LeaderLatch ratios are of medians within a repetition, then the "+
		"median over repetitions (range in parentheses). LeaderLatch has no observer: only led is "+
		"compared.\n\n", rw.cfg.observers)
	w("| tenure ends by | rounds | floor p50 | led p50 | observed p50 | led ÷ floor | observed ÷ floor " +
		"| LeaderLatch led p50 | LeaderLatch ÷ floor | zklock led ÷ LeaderLatch |\n|---|---|---|---|---|---|---|---|---|---|\n")
	for _, kind := range rw.cfg.failover {
		if kind == kindFailExpire {
			continue
		}
		zr, cr := t.failoverRuns(implZklock, kind), t.failoverRuns(implCurator, kind)
		floor := t.medianPer(implZklock, kind, floorOf)
		cur := t.medianPer(implCurator, kind, led)
		curCell := func(s string) string { return dashIf(!rw.has(implCurator), s) }
		w("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s |\n", failoverLabel[kind], len(pooled(zr, led)),
			msOf(pooled(zr, floorOf)), msOf(pooled(zr, led)), msOf(pooled(zr, observed)),
			roundRatio(perRound(zr, led)), roundRatio(perRound(zr, observed)),
			curCell(fmt.Sprintf("%s (%d rounds)", msOf(pooled(cr, led)), len(pooled(cr, led)))),
			curCell(over(ratio(cur, floor)).ratio()),
			curCell(over(ratio(t.medianPer(implZklock, kind, led), cur)).ratio()))
	}
	w("\n")
	rw.expiry()
}

// expiry: a silenced leader is replaced only once the servers expire its
// session, so its times are the session timeout plus a hand-over; the
// table gives the timeout and what is left after it.
func (rw *reportWriter) expiry() {
	if !slices.Contains(rw.cfg.failover, kindFailExpire) {
		return
	}
	runs := rw.t.failoverRuns(implZklock, kindFailExpire)
	var timeout time.Duration
	var past []time.Duration
	for _, r := range runs {
		timeout = r.Timeout
		for _, d := range r.Latency {
			past = append(past, d-r.Timeout)
		}
	}
	rw.w("A leader whose connection goes silent (every packet dropped, so not even a close reaches the servers) "+
		"is replaced once the servers expire its session: from the silence to B leading is the negotiated "+
		"session timeout (%v here; the servers check expiry once per tick) plus a hand-over. LeaderLatch is not "+
		"measured this way.\n\n", timeout)
	rw.w("| tenure ends by | rounds | session timeout | led p50 | observed p50 | led − timeout p50 |\n|---|---|---|---|---|---|\n")
	rw.w("| %s | %d | %v | %s | %s | %s |\n\n", failoverLabel[kindFailExpire], len(pooled(runs, led)), timeout,
		msOf(pooled(runs, led)), msOf(pooled(runs, observed)), msOf(past))
}

// failoverTargets are the two goals as rows of the targets table.
func (rw *reportWriter) failoverTargets(row func(what string, n int, s spread, goal string, ok bool)) {
	if !slices.Contains(rw.cfg.failover, kindFailResign) || !rw.has(implZklock) {
		return
	}
	t := rw.t
	obs := perRound(t.failoverRuns(implZklock, kindFailResign), observed)
	s := spread{Median: quantile(obs, 50), Min: quantile(obs, 10), Max: quantile(obs, 90), N: len(obs)}
	row("failover: Resign → every observer reports the next leader ÷ floor hand-off (per round; p10–p90)",
		rw.cfg.observers, s, "≤ 1.20×", s.ok() && s.Median <= 1.2)
	if slices.Contains(rw.cfg.failover, kindFailStandby) {
		obs := perRound(t.failoverRuns(implZklock, kindFailStandby), observed)
		s := spread{Median: quantile(obs, 50), Min: quantile(obs, 10), Max: quantile(obs, 90), N: len(obs)}
		row("failover: Resign with a standby queued → every observer reports the next leader ÷ floor hand-off (per round; p10–p90)",
			rw.cfg.observers, s, "≤ 1.20×", s.ok() && s.Median <= 1.2)
	}
	if rw.has(implCurator) {
		vs := over(ratio(t.medianPer(implZklock, kindFailResign, led), t.medianPer(implCurator, kindFailResign, led)))
		row("failover: Resign → next leader leads, zklock ÷ LeaderLatch close() → isLeader", rw.cfg.observers, vs,
			"< 1.00×", vs.ok() && vs.Median < 1)
	}
}
