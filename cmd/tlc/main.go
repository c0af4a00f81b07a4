// Command tlc model-checks zklock's TLA+ specifications with TLC.
//
// It fetches the pinned TLC jar from Maven Central into .cache/ (verifying
// its sha256), then runs every configuration spec/tla/<Module>.<Name>.cfg
// against spec/tla/<Module>.tla (the expected failures two at a time, then
// the passing configs one after another), and checks each result
// against the expectation written in the config's header (see
// internal/tlc.Model): passing configs must pass and take every action they
// do not declare disabled; expected-failure configs must fail on the named
// property. It prints a table and, with -results, writes it as Markdown.
//
// Before the specs it runs a self-test: the configs under
// cmd/tlc/testdata/selftest are deliberately wrong (a violation in a
// passing config, the wrong property, no violation, an action never taken,
// a parse error) and the checks must reject each of them.
//
// Usage:
//
//	go run ./cmd/tlc [-results spec/tla/RESULTS.md] [-deep] [-run REGEXP] [-json PATH]
//
// Every run also records its results, machine-readable, in
// .cache/tlc/results.json (-json; see internal/tlc.Record): per config the
// sha256 of the config and of the spec modules it reads, the jar, TLC's
// version, the state counts and the counterexample. A run with -run updates
// only the records of the configs it ran. cmd/conformance reads this file
// and runs TLC again only for configs whose files changed since.
//
// Without -deep it runs the CI set (configs not marked `\* deep`); with
// -deep it runs only the deep configs. The exit status is non-zero if any
// check fails.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/zklock/zklock/internal/tlc"
	"github.com/zklock/zklock/internal/tlccfg"
)

// options are the command's flags.
type options struct {
	specDir    string
	cacheDir   string
	results    string
	compare    string
	deep       bool
	filter     string
	jar        string
	java       string
	heap       string
	workers    string
	jobs       int
	poolBelow  int
	lightBelow int
	selfTest   string
	verbose    bool
	json       string
}

func main() {
	var o options
	flag.StringVar(&o.specDir, "spec", "spec/tla", "folder of the specs and their configs")
	flag.StringVar(&o.cacheDir, "cache", ".cache", "cache folder for the TLC jar and TLC's scratch folders")
	flag.StringVar(&o.results, "results", "", "write the results table (Markdown) to this file")
	flag.StringVar(&o.compare, "compare", "", "fail unless the runs agree with this committed results table (verdicts, state counts, depth, safety trace lengths)")
	flag.BoolVar(&o.deep, "deep", false, "run only the deep configs (marked `\\* deep`)")
	flag.StringVar(&o.filter, "run", "", "run only configs whose Module.Name matches this regexp (skips -results)")
	flag.StringVar(&o.jar, "jar", "", "use this TLC jar instead of fetching the pinned one")
	flag.StringVar(&o.java, "java", "java", "java executable")
	flag.StringVar(&o.heap, "heap", "1g", "JVM heap (-Xmx)")
	flag.StringVar(&o.workers, "workers", "auto", "TLC -workers for the passing configs")
	flag.IntVar(&o.jobs, "jobs", 2, "expected-failure configs (one TLC worker each) run this many at a time")
	flag.IntVar(&o.lightBelow, "light-below", 5000, "configs with fewer distinct states than this in the committed table run TLC's JVM light (serial collector, first JIT tier: half the CPU of a short run; 0: none)")
	flag.IntVar(&o.poolBelow, "pool-below", 100000, "passing configs with fewer distinct states than this in the committed table (-compare, else -results) run like the expected failures: one TLC worker, -jobs at a time (0: none)")
	flag.StringVar(&o.selfTest, "selftest", "cmd/tlc/testdata/selftest", "folder of the runner's self-test configs (empty: skip)")
	flag.BoolVar(&o.verbose, "v", false, "stream TLC's output")
	flag.StringVar(&o.json, "json", "", "machine-readable results file (default <cache>/tlc/results.json; \"off\": none)")
	flag.Parse()
	if o.json == "" {
		o.json = filepath.Join(o.cacheDir, "tlc", "results.json")
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, o, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "tlc: %v\n", err)
		os.Exit(1)
	}
}

// config is one .cfg and the module it checks.
type config = tlccfg.Config

// discover reads every config in dir.
func discover(dir string) ([]config, error) { return tlccfg.Discover(dir) }

// outcome is the result of running and checking one config.
type outcome struct {
	cfg  config
	res  *tlc.Result
	wall time.Duration
	err  error      // nil: the result matches the expectation
	rec  tlc.Record // the machine-readable record of the run
}

func run(ctx context.Context, o options, stdout io.Writer) error {
	jar := o.jar
	if jar == "" {
		var err error
		if jar, err = tlc.Fetch(ctx, o.cacheDir); err != nil {
			return fmt.Errorf("fetching TLC: %w", err)
		}
	}
	r := runner{o: o, jar: jar, log: stdout, states: committedStates(o)}

	if o.selfTest != "" && o.filter == "" {
		fmt.Fprintf(stdout, "self-test: the checks must reject the broken configs in %s\n", o.selfTest)
		if err := r.selfTest(ctx, o.selfTest); err != nil {
			return fmt.Errorf("self-test: %w", err)
		}
	}

	selected, err := tlccfg.Select(o.specDir, o.deep, o.filter)
	if err != nil {
		return err
	}

	start := time.Now()
	outs := r.runAll(ctx, selected)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	total := time.Since(start)

	if o.json != "off" {
		if err := saveRecords(o.json, outs); err != nil {
			return err
		}
	}

	table := renderTable(outs, total, o.deep)
	fmt.Fprintln(stdout)
	fmt.Fprint(stdout, table)
	if o.results != "" && o.filter == "" {
		if err := os.WriteFile(o.results, []byte(resultsDoc(table, jar)+counterexamples(outs)), 0o644); err != nil {
			return fmt.Errorf("writing results: %w", err)
		}
		fmt.Fprintf(stdout, "\nwrote %s\n", o.results)
	}
	var failed []string
	for _, out := range outs {
		if out.err != nil {
			failed = append(failed, out.cfg.ID())
		}
	}
	if o.compare != "" {
		diffs, err := compareWith(o.compare, outs, o.filter == "")
		if err != nil {
			return err
		}
		for _, d := range diffs {
			fmt.Fprintf(stdout, "FAIL %s (%s; `make results` rewrites it)\n", d, o.compare)
		}
		if len(diffs) > 0 {
			failed = append(failed, fmt.Sprintf("%d differences from %s", len(diffs), o.compare))
		}
	}
	if o.filter == "" {
		for _, msg := range neverTaken(outs) {
			fmt.Fprintf(stdout, "FAIL %s\n", msg)
			failed = append(failed, msg)
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d of %d configs failed their check: %s", len(failed), len(outs), strings.Join(failed, ", "))
	}
	fmt.Fprintf(stdout, "all %d configs as expected in %s\n", len(outs), total.Round(time.Second))
	return nil
}

// neverTaken returns the actions that appear in passing configs but are
// taken in none of them: a config may declare some actions disabled, but
// together the passing configs must take every action. Actions are keyed
// by the module that defines them, so a base action used by a mutant
// counts as taken when a config of the base module takes it.
func neverTaken(outs []outcome) []string {
	taken := map[string]map[string]bool{} // defining module -> action -> taken somewhere
	for _, out := range outs {
		if !out.cfg.Model.Pass || out.res == nil || out.err != nil {
			continue
		}
		for _, c := range out.res.Coverage {
			m := taken[c.Module]
			if m == nil {
				m = map[string]bool{}
				taken[c.Module] = m
			}
			m[c.Name] = m[c.Name] || c.Total > 0
		}
	}
	var msgs []string
	for module, actions := range taken {
		for a, ok := range actions {
			if !ok {
				msgs = append(msgs, fmt.Sprintf("%s: action %s is not taken in any passing config", module, a))
			}
		}
	}
	sort.Strings(msgs)
	return msgs
}

// runner runs configs with one TLC jar.
type runner struct {
	o      options
	jar    string
	log    io.Writer
	states map[string]int // the committed distinct-state counts (committedStates)
}

// small says whether c is a passing config whose committed distinct-state
// count is below o.poolBelow. Most configs are small: the JVM's start and
// TLC's set-up are most of their time, which a second run beside them
// overlaps, while a big config gains from every core. A config the table
// does not have yet runs alone. The state counts of a passing config do
// not depend on the number of workers (TLC explores the whole graph), so
// the table compares the same either way.
func (r runner) small(c config) bool { return c.Model.Pass && r.below(c, r.o.poolBelow) }

// light says whether c, passing or not, has a committed distinct-state
// count (at the violation, for an expected failure) below o.lightBelow:
// runs of a second or two, most of the CI set, where the JVM's start and
// its optimizing compiler are most of the CPU time. The count decides,
// not the committed time, which depends on the load the table was made
// under. A config the table does not have runs as before.
func (r runner) light(c config) bool { return r.below(c, r.o.lightBelow) }

// below says whether c's committed distinct-state count is below limit;
// false when the table lacks c or limit <= 0.
func (r runner) below(c config, limit int) bool {
	n, ok := r.states[c.ID()]
	return ok && limit > 0 && n < limit
}

// committedStates returns every config's distinct-state count in the
// committed table (-compare, else -results); none without a table.
func committedStates(o options) map[string]int {
	states := map[string]int{}
	for id, row := range committedRows(o) {
		if n, err := strconv.Atoi(row.distinct); err == nil {
			states[id] = n
		}
	}
	return states
}

// committedRows reads the committed table (-compare, else -results); nil
// when there is none or it does not parse.
func committedRows(o options) map[string]committedRow {
	path := o.compare
	if path == "" {
		path = o.results
	}
	if path == "" {
		return nil
	}
	doc, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	rows, err := parseResults(string(doc))
	if err != nil {
		return nil
	}
	return rows
}

// oneWorker says whether config c runs with one TLC worker, in the pool:
// every config when -workers is 1 (make verify, where the spec checks
// share a saturated machine with the other stages: one worker per run
// spends 20 to 30% less CPU on the big configs than two, measured on
// PredecessorLock.Safety and SessionTiming.SyncedRule).
func (r runner) oneWorker(c config) bool {
	return r.o.workers == "1" || !c.Model.Pass || r.small(c)
}

// poolOrder returns the indexes of the configs that run in the pool, the
// largest first by their committed distinct-state count (unknown ones
// first of all): a big config started last would run alone at the end
// while the other slot idles.
func (r runner) poolOrder(cfgs []config) []int {
	var idx []int
	for i, c := range cfgs {
		if r.oneWorker(c) {
			idx = append(idx, i)
		}
	}
	size := func(i int) int {
		if n, ok := r.states[cfgs[i].ID()]; ok {
			return n
		}
		return math.MaxInt
	}
	sort.SliceStable(idx, func(a, b int) bool { return size(idx[a]) > size(idx[b]) })
	return idx
}

// runAll runs every config and returns their outcomes in the order given.
// The expected failures and the small passing configs go first, r.o.jobs
// at a time, the largest first (poolOrder): each runs with one TLC worker (see check), and most are small
// enough that the JVM's start is most of their time, which a second one
// overlaps. The big passing configs then run one after another, each with
// -workers for all the cores. Each config's lines are printed whole when
// it ends.
func (r runner) runAll(ctx context.Context, cfgs []config) []outcome {
	outs := make([]outcome, len(cfgs))
	var (
		mu  sync.Mutex
		wg  sync.WaitGroup
		sem = make(chan struct{}, max(r.o.jobs, 1))
	)
	for _, i := range r.poolOrder(cfgs) {
		c := cfgs[i]
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			var buf bytes.Buffer
			one := r
			one.log = &buf
			outs[i] = one.runOne(ctx, c)
			mu.Lock()
			defer mu.Unlock()
			r.log.Write(buf.Bytes())
		}()
	}
	wg.Wait()
	for i, c := range cfgs {
		if !r.oneWorker(c) && ctx.Err() == nil {
			outs[i] = r.runOne(ctx, c)
		}
	}
	return outs
}

// runOne runs TLC on one config and checks the result; it prints one
// progress line, and the details when the check fails.
func (r runner) runOne(ctx context.Context, c config) outcome {
	out, raw := r.check(ctx, c)
	status := "ok"
	if out.err != nil {
		status = "FAIL"
	}
	fmt.Fprintf(r.log, "%-4s %-50s %s\n", status, c.ID(), summary(out))
	if out.err != nil {
		logPath := filepath.Join(r.o.cacheDir, "tlc", "logs", c.ID()+".out")
		if os.MkdirAll(filepath.Dir(logPath), 0o755) == nil && os.WriteFile(logPath, raw, 0o644) == nil {
			fmt.Fprintf(r.log, "     TLC output: %s\n", logPath)
		}
		for _, l := range strings.Split(out.err.Error(), "\n") {
			fmt.Fprintf(r.log, "     %s\n", l)
		}
		if out.res != nil && len(out.res.Trace) > 0 {
			fmt.Fprintf(r.log, "     counterexample: %s\n", traceActions(out.res))
		}
	}
	return out
}

// check runs TLC on one config and checks the result against the config's
// expectation. It also returns TLC's raw output.
func (r runner) check(ctx context.Context, c config) (outcome, []byte) {
	meta := filepath.Join(r.o.cacheDir, "tlc", "meta", fmt.Sprintf("%s-%d", c.ID(), os.Getpid()))
	os.RemoveAll(meta)
	defer os.RemoveAll(meta)
	var tee io.Writer
	if r.o.verbose {
		tee = r.log
	}
	// An expected-failure config runs with one worker: TLC's breadth-first
	// search then reports a shortest counterexample and the same state
	// counts on every run, which the Go model explorer is compared with.
	// A small passing config runs with one worker to share the cores.
	workers := r.o.workers
	if r.oneWorker(c) {
		workers = "1"
	}
	start := time.Now()
	res, raw, err := tlc.Run(ctx, tlc.RunOptions{
		Java: r.o.java, Jar: r.jar, Spec: c.Spec, Config: c.Path, MetaDir: meta,
		Workers: workers, Heap: r.o.heap, Log: tee, Light: r.light(c) && workers == "1",
		// Coverage is checked on passing configs only (tlc.Check); an
		// expected failure is spared its cost, a quarter to a half of
		// TLC's time.
		NoCoverage: !c.Model.Pass,
	})
	out := outcome{cfg: c, res: res, wall: time.Since(start), err: err}
	if err == nil {
		out.err = tlc.Check(c.Model, res)
	}
	cfgHash, herr := tlc.FileHash(c.Path)
	specHash, serr := tlc.SpecHash(filepath.Dir(c.Spec), c.Module)
	if herr == nil && serr == nil {
		out.rec = tlc.NewRecord(c.Module, c.Name, cfgHash, specHash, filepath.Base(r.jar), workers, c.Model, res, out.err)
	}
	return out, raw
}

// saveRecords merges the records of outs into the results file at path.
func saveRecords(path string, outs []outcome) error {
	rs, err := tlc.LoadRecords(path)
	if err != nil {
		return err
	}
	for _, out := range outs {
		if out.rec.Module != "" && out.res != nil {
			rs.Put(out.rec)
		}
	}
	return rs.Save(path)
}

// verdictText renders a result's verdict with the violated property; TLC
// does not name a violated temporal property (nor a refinement's action
// part), so the config's only PROPERTY is shown in parentheses.
func verdictText(out outcome) string {
	res := out.res
	v := string(res.Verdict)
	switch {
	case res.Property != "":
		v += " " + res.Property
	case (res.Verdict == tlc.TemporalViolated || res.Verdict == tlc.ActionPropertyViolated) && len(out.cfg.Model.Properties) == 1:
		v += " (" + out.cfg.Model.Properties[0] + ")"
	}
	return v
}

func summary(out outcome) string {
	if out.res == nil {
		return "no result"
	}
	return fmt.Sprintf("%s, %d distinct states, depth %d, %s", verdictText(out),
		out.res.DistinctStates, out.res.Depth, out.wall.Round(100*time.Millisecond))
}

// traceActions renders a counterexample as its action names.
func traceActions(res *tlc.Result) string {
	var names []string
	for i, s := range res.Trace {
		n := s.Action
		if i == res.TraceLoop {
			n = "(loop)" + n
		}
		names = append(names, n)
	}
	if res.TraceStutters {
		names = append(names, "stutter forever")
	}
	return strings.Join(names, " -> ")
}

// expectation renders a model's expectation for the table.
func expectation(m tlc.Model) string {
	if m.Pass {
		return "pass"
	}
	return "violation " + m.Violation
}

// renderTable renders the outcomes as a Markdown table.
func renderTable(outs []outcome, total time.Duration, deep bool) string {
	var b strings.Builder
	b.WriteString("| spec | config | expected | verdict | distinct states | states generated | depth | trace | time | check |\n")
	b.WriteString("|---|---|---|---|---:|---:|---:|---:|---:|---|\n")
	for _, out := range outs {
		verdict, distinct, generated, depth, trace, tm := "-", "-", "-", "-", "-", "-"
		if res := out.res; res != nil {
			verdict = verdictText(out)
			distinct = fmt.Sprint(res.DistinctStates)
			generated = fmt.Sprint(res.StatesGenerated)
			depth = fmt.Sprint(res.Depth)
			if len(res.Trace) > 0 {
				trace = fmt.Sprint(len(res.Trace))
			}
			tm = fmtDuration(res.Duration)
		}
		check := "ok"
		if out.err != nil {
			check = "**FAIL**"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			out.cfg.Module, out.cfg.Name, expectation(out.cfg.Model), verdict,
			distinct, generated, depth, trace, tm, check)
	}
	set := "CI set (`make tlc`)"
	if deep {
		set = "deep set (`make tlc-deep`)"
	}
	fmt.Fprintf(&b, "\n%s: %d configs, total wall time %s on %d cores (\"time\" is TLC's own; the passing configs of 100,000\n"+
		"distinct states or more run one after another with -workers auto; the others, and the expected failures, two at a time with\n"+
		"one worker each, so a counterexample is a shortest one).\n",
		set, len(outs), fmtDuration(total), runtime.NumCPU())
	return b.String()
}

func fmtDuration(d time.Duration) string {
	if d < 10*time.Second {
		return d.Round(100 * time.Millisecond).String()
	}
	return d.Round(time.Second).String()
}

// counterexamples lists the actions of every counterexample, for
// RESULTS.md below the table (its lines are not table rows, so -compare
// ignores them). A liveness counterexample varies from run to run.
func counterexamples(outs []outcome) string {
	var b strings.Builder
	for _, out := range outs {
		if out.res == nil || len(out.res.Trace) == 0 {
			continue
		}
		note := ""
		if out.res.Verdict == tlc.TemporalViolated {
			note = "; one of several, it varies from run to run"
		}
		fmt.Fprintf(&b, "- `%s` (%s, %d states%s): %s\n", out.cfg.ID(), verdictText(out), len(out.res.Trace), note,
			traceActions(out.res))
	}
	if b.Len() == 0 {
		return ""
	}
	return "\n## Counterexamples\n\nThe actions of each counterexample TLC printed, the initial state first " +
		"(an expected safety failure runs with one worker, so its counterexample is a shortest one); " +
		"spec/tla/README.md tells them in words.\n\n" + b.String()
}

// resultsDoc wraps the table into spec/tla/RESULTS.md.
func resultsDoc(table, jar string) string {
	return "# TLC results\n\n" +
		"Written by `make tlc` (`go run ./cmd/tlc -results spec/tla/RESULTS.md`); do not edit by hand.\n" +
		"TLC: " + filepath.Base(jar) + " (" + tlc.JarURL + "), TLC2 2.18.\n" +
		"\"trace\" is the number of states in the counterexample (the initial state included);\n" +
		"\"depth\" is TLC's BFS depth. What each config asks is in spec/tla/README.md.\n\n" +
		table
}
