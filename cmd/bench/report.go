package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/zklock/zklock/bench/curator"
	"github.com/zklock/zklock/ensemble"
)

// facts describe the machine and the software a run measured.
type facts struct {
	Date      string
	Cores     int
	CPU       string
	Kernel    string
	Go        string
	GoZK      string
	Commit    string
	ZooKeeper string
	Ensemble  string
	JVM       string
	Curator   string
	Elapsed   time.Duration
	LoadStart string // /proc/loadavg when the run began
	LoadEnd   string // and when it ended: other work on the machine skews everything
}

// loadAvg is the 1, 5 and 15 minute load averages.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func gatherFacts(ctx context.Context, cfg config, h *curator.Harness) (facts, error) {
	f := facts{
		Date:      time.Now().UTC().Format("2006-01-02 15:04 UTC"),
		Cores:     runtime.NumCPU(),
		CPU:       "unknown",
		Kernel:    "unknown",
		Go:        runtime.Version(),
		GoZK:      "unknown",
		Commit:    "unknown",
		JVM:       "not used",
		Curator:   "not measured",
		LoadStart: loadAvg(),
	}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
				f.CPU = strings.TrimSpace(v)
				break
			}
		}
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		f.Kernel = "Linux " + strings.TrimSpace(string(b))
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == "github.com/go-zookeeper/zk" {
				f.GoZK = d.Version
			}
		}
	}
	if out, err := exec.CommandContext(ctx, "git", "describe", "--always", "--dirty").Output(); err == nil {
		f.Commit = strings.TrimSpace(string(out))
	}
	out, err := ensemble.FourLetterWord(ctx, cfg.servers[0], "srvr")
	if err != nil {
		return f, fmt.Errorf("asking %s for its version: %w", cfg.servers[0], err)
	}
	st, err := ensemble.ParseSrvr(out)
	if err != nil {
		return f, err
	}
	f.ZooKeeper = st.Version
	f.Ensemble = fmt.Sprintf("%d servers given with --servers", len(cfg.servers))
	if len(cfg.servers) > 0 && strings.HasPrefix(cfg.servers[0], "127.") {
		f.Ensemble = fmt.Sprintf("%d servers on loopback", len(cfg.servers))
	}
	if h != nil {
		f.JVM = h.JavaVersion(ctx)
		f.Curator = curator.Version + " (InterProcessMutex, InterProcessReadWriteLock, LeaderLatch, InterProcessSemaphoreV2)"
	}
	return f, nil
}

// table is the runs of one report, indexed for lookup.
type table struct {
	cfg  config
	runs map[string][]run // by key(impl, kind, clients), one per repetition
}

func key(impl, kind string, clients int) string { return fmt.Sprintf("%s|%s|%d", impl, kind, clients) }

// per returns f of the run of every repetition, NaN where there is none.
func (t table) per(impl, kind string, clients int, f func(run) float64) []float64 {
	xs := make([]float64, t.cfg.reps)
	for i := range xs {
		xs[i] = math.NaN()
	}
	for _, r := range t.runs[key(impl, kind, clients)] {
		xs[r.Rep] = f(r)
	}
	return xs
}

// ratio divides two per-repetition series term by term: a ratio is taken
// between numbers measured in the same repetition, minutes apart at most,
// before the median is taken over repetitions.
func ratio(a, b []float64) []float64 {
	out := make([]float64, len(a))
	for i := range a {
		out[i] = a[i] / b[i]
	}
	return out
}

func p50(r run) float64     { return percentile(r.Latency, 50).Seconds() }
func p99(r run) float64     { return percentile(r.Latency, 99).Seconds() }
func hand50(r run) float64  { return nanIfEmpty(r.Handoff, percentile(r.Handoff, 50).Seconds()) }
func hand99(r run) float64  { return nanIfEmpty(r.Handoff, percentile(r.Handoff, 99).Seconds()) }
func opsRate(r run) float64 { return r.opsPerSec() }

func nanIfEmpty(xs []time.Duration, v float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	return v
}

// Display names.
var label = map[string]string{
	implFloor:   "floor",
	implZklock:  "zklock Mutex",
	implZkLock:  "go-zookeeper zk.Lock",
	implCurator: "Curator InterProcessMutex",
}

// renderReport writes bench/RESULTS.md: one section per kind of run, each
// from its own method below, in the order a reader wants them (what was
// measured on what, then the numbers, then what the floor means). Without
// the lock runs (--locks=false) their sections, which would be all dashes,
// are left out.
// charts are the chart files written next to the report, if any.
func renderReport(cfg config, f facts, runs []run, charts []string) string {
	rw := &reportWriter{cfg: cfg, t: newTable(cfg, runs)}
	rw.machine(f)
	if rw.cfg.locks {
		rw.targets()
	}
	rw.charts(charts)
	if rw.cfg.locks {
		rw.uncontended()
		rw.contended()
	}
	rw.readMostly()
	rw.semaphore()
	rw.queue()
	rw.failover()
	rw.stalls(runs)
	if rw.cfg.locks {
		rw.floorExplained()
	}
	return rw.b.String()
}

// newTable indexes the runs of one report.
func newTable(cfg config, runs []run) table {
	t := table{cfg: cfg, runs: map[string][]run{}}
	for _, r := range runs {
		k := key(r.Impl, r.Kind, r.Clients)
		t.runs[k] = append(t.runs[k], r)
	}
	return t
}

// charts links the chart files.
func (rw *reportWriter) charts(files []string) {
	if len(files) == 0 {
		return
	}
	rw.w("## Charts\n\n")
	for _, f := range files {
		rw.w("![%s](%s)\n\n", strings.TrimSuffix(f, ".svg"), f)
	}
}

// targets: the ratios zklock aims at, each as measured in this run (median
// over repetitions of the per-repetition ratio, and its range). A report,
// not a verdict: "met" reads the median.
func (rw *reportWriter) targets() {
	t, w := rw.t, rw.w
	if !rw.has(implZklock) || !rw.has(implFloor) {
		return
	}
	w("## Targets\n\n")
	w("Ratios measured in this run (median of the per-repetition ratios, range in parentheses); \"met\" reads the median. " +
		"A report, not a test verdict.\n\n")
	w("| target | N | measured | goal | met |\n|---|---|---|---|---|\n")
	yes := func(ok bool) string {
		if ok {
			return "yes"
		}
		return "no"
	}
	row := func(what string, n int, s spread, goal string, ok bool) {
		w("| %s | %d | %s | %s | %s |\n", what, n, s.ratio(), goal, dashIf(!s.ok(), yes(ok)))
	}
	un := over(ratio(t.per(implZklock, kindUncontended, 1, p50), t.per(implFloor, kindUncontended, 1, p50)))
	row("uncontended acquire+release p50 ÷ floor pair p50", 1, un, "≤ 1.15×", un.Median <= 1.15)
	for _, n := range readMostlyClients(rw.cfg) {
		h := over(ratio(t.per(implZklock, kindContended, n, hand50), t.per(implFloor, kindHandoff, 2, hand50)))
		row("hand-off p50 ÷ floor hand-off p50", n, h, "≤ 1.30×", h.Median <= 1.30)
	}
	for _, n := range readMostlyClients(rw.cfg) {
		ops := t.per(implZklock, kindContended, n, opsRate)
		_, _, lower := t.ceilings(n)
		vsCeil := over(ratio(ops, lower))
		vsZk := over(ratio(ops, t.per(implZkLock, kindContended, n, opsRate)))
		vsCur := over(ratio(ops, t.per(implCurator, kindContended, n, opsRate)))
		met := vsCeil.ok() && vsCeil.Median >= 0.9 || vsZk.ok() && vsCur.ok() && vsZk.Median >= 1.4 && vsCur.Median >= 1.6
		w("| contended acquisitions/s ÷ zk.Lock, ÷ Curator; ÷ lower ceiling | %d | %s; %s; %s | ≥ 1.40× and ≥ 1.60×, or ≥ 0.90× of the ceiling | %s |\n",
			n, vsZk.ratio(), vsCur.ratio(), vsCeil.ratio(), dashIf(!vsCeil.ok() && !vsZk.ok(), yes(met)))
	}
	if rw.cfg.readMostly && rw.has(implCurator) {
		for _, n := range readMostlyClients(rw.cfg) {
			if n < 16 {
				continue
			}
			r := over(ratio(t.per(implZklock, kindReadMostly, n, opsRate), t.per(implCurator, kindReadMostly, n, opsRate)))
			row("read-mostly acquisitions/s: RWMutex ÷ Curator's read/write lock", n, r, "≥ 1.50×", r.Median >= 1.5)
		}
	}
	rw.failoverTargets(row)
	w("\n")
}

// reportWriter is a report being written: the runs, indexed, and the text.
type reportWriter struct {
	cfg config
	t   table
	b   strings.Builder
}

func (rw *reportWriter) w(format string, args ...any) { fmt.Fprintf(&rw.b, format, args...) }

// has says whether the run measured impl.
func (rw *reportWriter) has(impl string) bool { return slices.Contains(rw.cfg.impls, impl) }

// machine: the title, how to read a cell, and the machine and software the
// numbers come from, with the load on it: other work skews everything.
func (rw *reportWriter) machine(f facts) {
	cfg, w := rw.cfg, rw.w
	w("# zklock benchmark results\n\n")
	w("Measured by `go run ./cmd/bench%s` on %s. Every cell is the **median over %d repetitions** "+
		"with the range (min–max) in parentheses; a ratio is taken within each repetition, then its median. "+
		"Timings are a report, never a test verdict: these are noisy 2-core machines.\n\n",
		flagsUsed(cfg), f.Date, cfg.reps)

	w("## Machine and software\n\n")
	w("| | |\n|---|---|\n")
	w("| CPU | %d cores, %s |\n| OS | %s |\n| Go | %s |\n| go-zookeeper | %s |\n", f.Cores, f.CPU, f.Kernel, f.Go, f.GoZK)
	w("| ZooKeeper server | %s, %s |\n| JVM (Curator harness) | %s |\n| Curator | %s |\n", f.ZooKeeper, f.Ensemble, f.JVM, f.Curator)
	w("| zklock commit | %s |\n", f.Commit)
	w("| parameters | %d reps; uncontended %d pairs after %d warm-up; contended windows %v after %v warm-up; "+
		"read-mostly 1 write in %d; holds %v; session timeout %v |\n", cfg.reps, cfg.iterations, cfg.warmup, cfg.duration, cfg.warm,
		cfg.writeEvery, cfg.hold, cfg.sessionTimeout)
	if len(cfg.semaphores) > 0 {
		w("| semaphore | max %s leases; N clients as the contended runs |\n", joinInts(cfg.semaphores))
	}
	if len(cfg.failover) > 0 {
		w("| failover | %d rounds per run after 3 warm-up (LeaderLatch: after %d, its JIT's), %d rounds of expiry "+
			"(session timeout %v); %d observers |\n", cfg.failoverRounds, 10+cfg.failoverRounds/2, cfg.expireRounds,
			cfg.expireTimeout, cfg.observers)
	}
	w("| whole run | %v; load average (1, 5, 15 min) %s at the start, %s at the end |\n\n",
		f.Elapsed.Round(time.Second), f.LoadStart, f.LoadEnd)
	w("The servers (three JVMs), the Go clients and the Curator JVM all share the same cores, " +
		"so every number includes the servers' CPU time competing with the clients'.\n\n")
}

// uncontended: one client's acquire + release pairs, against the floor's
// and zklock's.
func (rw *reportWriter) uncontended() {
	t, w := rw.t, rw.w
	w("## Uncontended acquire + release\n\n")
	w("One client, one session, acquire then release, back to back; latency is the pair.\n\n")
	w("| implementation | p50 | p99 | pairs/s | p50 ÷ floor p50 | p50 ÷ zklock p50 |\n|---|---|---|---|---|---|\n")
	floorP50 := t.per(implFloor, kindUncontended, 1, p50)
	zkP50 := t.per(implZklock, kindUncontended, 1, p50)
	for _, impl := range rw.cfg.impls {
		mine := t.per(impl, kindUncontended, 1, p50)
		w("| %s | %s | %s | %s | %s | %s |\n", label[impl], over(mine).ms(),
			over(t.per(impl, kindUncontended, 1, p99)).ms(), over(t.per(impl, kindUncontended, 1, opsRate)).rate(),
			over(ratio(mine, floorP50)).ratio(), over(ratio(mine, zkP50)).ratio())
	}
	w("\n")
}

// ceilings are the two bounds on contended acquisitions/s at n clients, per
// repetition: the write ceiling (n raw sessions' create+delete pairs/s; with
// one client the uncontended floor's) and 1 / mean floor hand-off (hand-offs
// of an exclusive lock are serial), and the lower of the two.
func (t table) ceilings(n int) (writes, handoffs, lower []float64) {
	if n == 1 {
		writes = t.per(implFloor, kindUncontended, 1, opsRate)
	} else {
		writes = t.per(implFloor, kindWriteCeiling, n, opsRate)
	}
	handoffs = t.per(implFloor, kindHandoff, 2, func(r run) float64 { return 1 / mean(r.Handoff).Seconds() })
	lower = make([]float64, len(writes))
	for i := range writes {
		lower[i] = math.Min(writes[i], handoffs[i]) // NaN if either is
		if n == 1 {
			lower[i] = writes[i] // nobody to hand off to
		}
	}
	return writes, handoffs, lower
}

// binds says which ceiling is the lower one, in how many repetitions.
func binds(writes, handoffs []float64) string {
	w, h := 0, 0
	for i := range writes {
		switch {
		case math.IsNaN(writes[i]) || math.IsNaN(handoffs[i]):
		case writes[i] < handoffs[i]:
			w++
		default:
			h++
		}
	}
	switch {
	case w+h == 0:
		return "—"
	case h == 0:
		return fmt.Sprintf("the write ceiling (all %d reps)", w)
	case w == 0:
		return fmt.Sprintf("the hand-off ceiling (all %d reps)", h)
	}
	return fmt.Sprintf("the write ceiling in %d reps, the hand-off ceiling in %d", w, h)
}

// contended: N clients on one lock path, each N against the lower of the
// two ceilings and zklock's at the same N. With one client there is no
// hand-off, so its columns are dashes and the ceiling is the uncontended
// floor's pairs/s.
func (rw *reportWriter) contended() {
	t, w := rw.t, rw.w
	floorHand := t.per(implFloor, kindHandoff, 2, hand50)
	floorHand99 := t.per(implFloor, kindHandoff, 2, hand99)
	w("## Contended: N clients on one lock path\n\n")
	between := "with nothing in between"
	if rw.cfg.hold > 0 {
		between = fmt.Sprintf("holding each grant %v before the release (--hold; the floor's write ceiling holds nothing)", rw.cfg.hold)
	}
	w("Each client has its own session and loops acquire/release %s, for %v. "+
		"Acquire latency includes queueing. A hand-off runs from a holder starting its release to the next grant "+
		"returning (whoever gets it); with one client there is nobody to hand off to.\n\n", between, rw.cfg.duration)
	if rw.has(implFloor) {
		w("Floor hand-off (delete → getData-watch notification, two raw sessions): p50 %s, p99 %s.\n\n",
			over(floorHand).ms(), over(floorHand99).ms())
		w("Two ceilings bound every ZooKeeper lock (see [What the floor is](#what-the-floor-is)): the **write ceiling**, " +
			"N raw sessions doing create+delete pairs flat out, and the **hand-off ceiling**, 1 / mean floor hand-off. " +
			"The lower one binds; `÷ ceiling` is against it, per repetition.\n\n")
		w("| N | write ceiling (pairs/s) | hand-off ceiling (/s) | lower ceiling | which binds |\n|---|---|---|---|---|\n")
		for _, n := range rw.cfg.clients {
			writes, handoffs, lower := t.ceilings(n)
			if n == 1 {
				w("| 1 | %s | — | %s | the write ceiling (one client) |\n", over(writes).rate(), over(lower).rate())
				continue
			}
			w("| %d | %s | %s | %s | %s |\n", n, over(writes).rate(), over(handoffs).rate(), over(lower).rate(),
				binds(writes, handoffs))
		}
		w("\n")
	}
	w("| N | implementation | acquisitions/s | ÷ ceiling | ÷ zklock | acquire p50 | acquire p99 | hand-off p50 | hand-off p99 | hand-off p50 ÷ floor | hand-off p50 ÷ zklock |\n")
	w("|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, n := range rw.cfg.clients {
		_, _, lower := t.ceilings(n)
		zkOps := t.per(implZklock, kindContended, n, opsRate)
		zkHand := t.per(implZklock, kindContended, n, hand50)
		for _, impl := range rw.cfg.impls {
			if impl == implFloor {
				continue
			}
			ops := t.per(impl, kindContended, n, opsRate)
			h50 := t.per(impl, kindContended, n, hand50)
			w("| %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", n, label[impl], over(ops).rate(),
				over(ratio(ops, lower)).ratio(), over(ratio(ops, zkOps)).ratio(),
				over(t.per(impl, kindContended, n, p50)).ms(), over(t.per(impl, kindContended, n, p99)).ms(),
				dashIf(n == 1, over(h50).ms()), dashIf(n == 1, over(t.per(impl, kindContended, n, hand99)).ms()),
				dashIf(n == 1, over(ratio(h50, floorHand)).ratio()), dashIf(n == 1, over(ratio(h50, zkHand)).ratio()))
		}
	}
	w("\n")
	rw.servers()
}

// readMostly: each read/write lock against the same library's exclusive
// lock at the same N; only when such runs were made.
func (rw *reportWriter) readMostly() {
	t, w := rw.t, rw.w
	rm := readMostlyClients(rw.cfg)
	if !rw.cfg.readMostly || len(rm) == 0 || !rw.has(implZklock) && !rw.has(implCurator) {
		return
	}
	w("## Read-mostly: read/write lock vs exclusive lock\n\n")
	w("N clients loop on one read/write lock path; one acquisition in %d is a write, the rest reads, which share. "+
		"Compared with the same library's exclusive lock at the same N (the contended runs above).\n\n", rw.cfg.writeEvery)
	w("| N | implementation | acquisitions/s | ÷ own exclusive lock | ÷ zklock Mutex | acquire p50 | acquire p99 |\n")
	w("|---|---|---|---|---|---|---|\n")
	for _, n := range rm {
		zkOps := t.per(implZklock, kindContended, n, opsRate)
		for _, impl := range []string{implZklock, implCurator} {
			if !rw.has(impl) {
				continue
			}
			excl := t.per(impl, kindContended, n, opsRate)
			ops := t.per(impl, kindReadMostly, n, opsRate)
			name := map[string]string{implZklock: "zklock RWMutex", implCurator: "Curator InterProcessReadWriteLock"}[impl]
			w("| %d | %s | %s | %s | %s | %s | %s |\n", n, name, over(ops).rate(), over(ratio(ops, excl)).ratio(),
				over(ratio(ops, zkOps)).ratio(), over(t.per(impl, kindReadMostly, n, p50)).ms(),
				over(t.per(impl, kindReadMostly, n, p99)).ms())
		}
	}
	w("\n")
}

// stalls: a gap over stallAfter between two grants, or one acquisition
// waiting over a second, is worth a look whatever the medians say. The Go
// implementations' exclusive runs were watched while a gap was open (see
// stallMonitor): each such stall says what the queue waited on and why.
func (rw *reportWriter) stalls(runs []run) {
	w := rw.w
	w("## Stalls\n\n")
	w("A stall is a gap of over %v between two consecutive grants of a contended run (hand-offs take a "+
		"millisecond or two, so the whole queue waited). While a gap was open, a monitor on a session of its own "+
		"synced with the leader, listed the queue, found which client's session owned the node at its head and "+
		"what that client was doing, and timed every server's answer to `srvr`; the servers' warnings logged "+
		"during the gap are quoted. The Curator harness and the semaphore runs are not watched: only their slow "+
		"acquisitions are listed.\n\n", stallAfter)
	var lines, slow []string
	for _, r := range runs {
		if strings.HasPrefix(r.Kind, "failover-") {
			continue // rounds, not windows: an expiry's round waits out a session timeout by design
		}
		for _, s := range r.Stalls {
			on, why := s.verdict()
			end := fmt.Sprintf("%v", s.Length.Round(time.Millisecond))
			if !s.Ended {
				end += " (to the end of the run)"
			}
			lines = append(lines, fmt.Sprintf("- rep %d, %s N=%d, at %.2f s into the window, %s with no grant. "+
				"Waited on: %s. Why: %s.", r.Rep+1, label[r.Impl], r.Clients, s.Start.Seconds(), end, on, why))
		}
		worst := percentile(r.Latency, 100)
		lock := r.Kind == kindContended || r.Kind == kindReadMostly || isSemaphoreKind(r.Kind)
		// A window with a quarter of the usual grants stalled too, even if
		// the acquisitions it counted were quick (Curator's are not watched).
		usual := over(rw.t.per(r.Impl, r.Kind, r.Clients, opsRate)).Median
		switch {
		case lock && r.Ops == 0 || worst > time.Second:
			slow = append(slow, fmt.Sprintf("- rep %d, %s %s N=%d: %d acquisitions, slowest %v",
				r.Rep+1, r.Impl, r.Kind, r.Clients, r.Ops, worst.Round(time.Millisecond)))
		case lock && r.opsPerSec() < usual/4:
			slow = append(slow, fmt.Sprintf("- rep %d, %s %s N=%d: %.0f acquisitions/s against a median of %.0f over the repetitions",
				r.Rep+1, r.Impl, r.Kind, r.Clients, r.opsPerSec(), usual))
		}
	}
	if len(lines) == 0 {
		w("No gap over %v between grants in any watched run.\n\n", stallAfter)
	} else {
		w("%s\n\n", strings.Join(lines, "\n"))
	}
	if len(slow) == 0 {
		w("Every measured window had grants and no acquisition waited over a second.\n\n")
	} else {
		w("Measured windows without a grant, with an acquisition waiting over a second, or with under a quarter "+
			"of the median acquisitions/s of their repetitions:\n\n%s\n\n", strings.Join(slow, "\n"))
	}
}

// floorExplained says what the floor measures and why no lock can do
// less, so that the ratios above can be read.
func (rw *reportWriter) floorExplained() {
	w := rw.w
	w("## What the floor is\n\n")
	w("The floor is the ZooKeeper work that no ZooKeeper lock can skip, measured on raw go-zookeeper " +
		"connections, so that the ratios say how much a lock adds to it:\n\n")
	w("- **uncontended**: one `create` of a protected EPHEMERAL_SEQUENTIAL node (`_c_<uuid>-lock-`) " +
		"and one `delete` of it. Acquiring must make the holder visible to all other clients and releasing must " +
		"undo that; each is a write, hence a round trip through the leader and a quorum commit. A real lock also " +
		"lists the queue after its create (one more read round trip) and does its own client-side work.\n")
	w("- **hand-off**: client A sends `delete` of a node that client B watches with `getData`; the time runs " +
		"until B receives the notification. A release is a committed write, and the next holder can learn " +
		"of it no sooner than by a notification. A real lock then lists the queue again (a read round trip) " +
		"before it calls itself the holder.\n")
	w("- **write ceiling**: N raw sessions, each creating and deleting a protected EPHEMERAL_SEQUENTIAL node " +
		"in a loop, flat out, on the same ensemble; nobody excludes anybody. Every grant of a ZooKeeper lock costs " +
		"at least such a pair of writes, so no lock with N clients grants more often than these pairs commit.\n")
	w("- **hand-off ceiling**: hand-offs of an exclusive lock are serial, so no lock can grant more often than " +
		"once per floor hand-off: 1 / mean floor hand-off.\n")
	w("- **contended acquisitions/s** are compared with the lower of the two ceilings at the same N, per " +
		"repetition (with one client, the uncontended floor pairs/s).\n\n")
	w("Ratios: a latency ratio above 1 is slower than the reference; a throughput ratio below 1 is fewer " +
		"acquisitions per second than the reference.\n")
}

func dashIf(cond bool, s string) string {
	if cond {
		return "—"
	}
	return s
}

// flagsUsed is the run's command line, for the report; an empty argument
// (of --failover, say) is written as a quoted empty string, so that the
// line can be run as it reads.
func flagsUsed(cfg config) string {
	var b strings.Builder
	for _, a := range cfg.args {
		if a == "" {
			a = "''"
		}
		b.WriteString(" " + a)
	}
	return b.String()
}
