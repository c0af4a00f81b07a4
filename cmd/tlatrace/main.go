// Command tlatrace validates impl/zklock traces against the TLA+ spec
// itself, with TLC: each lock's events become a module Trace_<name>.tla
// (model/trace.TLA) that extends spec/tla/PredecessorLockTrace.tla, which
// replays them in PredecessorLock (SharedLockTrace.tla for a read/write
// lock; ElectionTrace.tla, in Election, for an election path: one with a
// Proclaim or an observer's event, whose candidates and then observers,
// one per Observe call, are the trace's clients; SemaphoreTrace.tla, in
// Semaphore with the trace's max as MaxLeases, for a semaphore's path, its
// leases' events, whose internal mutex's events, on P/locks, are a Mutex's
// trace of their own: a semaphore's trace file gives two verdicts), and
// TLC searches for a behaviour of the spec that matches every event.
//
//	go run ./cmd/tlatrace [-out dir] [-spec spec/tla] [-full] [-v] trace.jsonl[.gz] ...
//
// For each trace it prints, per lock, "accepted" (with the states TLC
// explored) or "rejected" (with how many events the deepest behaviour
// matched and which events came next), and exits 1 if any trace is
// rejected, 2 on an error (a trace the validator cannot judge, TLC not
// runnable). The generated modules and configs are written to -out (a
// temporary folder by default, removed at the end). TLC runs with one
// worker (PredecessorLockTrace's progress report needs one), on a light
// JVM for a trace of at most 100 events. -full turns
// off the reduction (see model/trace.TLA): every interleaving is explored,
// which only small traces afford.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/zklock/zklock/internal/tlc"
	"github.com/zklock/zklock/model/trace"
)

// ErrRejected is returned (wrapped) by checkFile when TLC finds no
// behaviour of the spec that matches a trace.
var ErrRejected = errors.New("tlatrace: trace rejected by TLC")

func main() {
	out := flag.String("out", "", "folder for the generated modules (default: a temporary one, removed)")
	spec := flag.String("spec", "spec/tla", "folder of the specs and their trace modules (PredecessorLockTrace.tla, ...)")
	cache := flag.String("cache", ".cache", "folder of the TLC jar (fetched from Maven Central if missing)")
	verbose := flag.Bool("v", false, "stream TLC's output")
	full := flag.Bool("full", false, "explore every interleaving (no reduction; small traces only)")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: tlatrace [-out dir] [-spec dir] [-v] trace.jsonl ...")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	jar, err := tlc.Fetch(ctx, *cache)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	c := checker{jar: jar, spec: *spec, out: *out, full: *full}
	if *verbose {
		c.log = os.Stdout
	}
	code := 0
	for _, f := range flag.Args() {
		results, err := c.checkFile(ctx, f)
		for _, r := range results {
			fmt.Println(r)
		}
		switch {
		case errors.Is(err, ErrRejected):
			code = max(code, 1)
		case err != nil:
			fmt.Fprintln(os.Stderr, err)
			code = 2
		}
	}
	os.Exit(code)
}

// checker runs TLC on generated trace modules.
type checker struct {
	jar  string    // the TLC jar
	spec string    // the folder of the spec modules
	out  string    // where to write the modules; "" for a temporary folder
	log  io.Writer // TLC's raw output, if set
	full bool      // no reduction: every interleaving, silent steps anywhere
}

// Result is TLC's verdict on one lock of a trace.
type Result struct {
	File, Lock, Module string
	Events             int
	Accepted           bool
	// Distinct is the number of distinct states TLC found (up to the
	// view), Steps the length of the behaviour that matched (accepted).
	Distinct int64
	Steps    int
	// Matched is, for a rejected trace, how many events the deepest
	// behaviour matched, and Next the lines of each client's next event
	// there.
	Matched int
	Next    []string
	Elapsed time.Duration
}

func (r Result) String() string {
	if r.Accepted {
		return fmt.Sprintf("%s %s: accepted: %d events matched by a behaviour of %d states (%d distinct states, %s)",
			r.File, r.Lock, r.Events, r.Steps, r.Distinct, r.Elapsed.Round(time.Millisecond))
	}
	return fmt.Sprintf("%s %s: rejected: no behaviour matches; the deepest matched %d of %d events, next: %s (%d distinct states, %s)",
		r.File, r.Lock, r.Matched, r.Events, strings.Join(r.Next, "; "), r.Distinct, r.Elapsed.Round(time.Millisecond))
}

// checkFile validates every lock of the trace in file. It returns an
// error wrapping ErrRejected if TLC rejects one.
func (c checker) checkFile(ctx context.Context, file string) ([]Result, error) {
	events, err := readTrace(file)
	if err != nil {
		return nil, err
	}
	name := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(file), ".gz"), ".jsonl")
	return c.checkEvents(ctx, file, name, events)
}

// checkEvents validates events (named name) lock by lock.
func (c checker) checkEvents(ctx context.Context, file, name string, events []trace.Event) ([]Result, error) {
	mods, err := trace.TLA(events, name, !c.full)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	var out []Result
	var rejected error
	for _, m := range mods {
		r, err := c.checkModule(ctx, m)
		if err != nil {
			return out, fmt.Errorf("%s: %w", file, err)
		}
		r.File = file
		out = append(out, r)
		if !r.Accepted {
			rejected = fmt.Errorf("%w: %s", ErrRejected, r)
		}
	}
	return out, rejected
}

// lightEvents is the most events of a trace TLC checks on a light JVM
// (tlc.RunOptions.Light): a pinned integration test's trace takes TLC a
// few hundred states, and the light JVM halves its CPU time (measured:
// 3.8 s to 2.0 s for a 32-event election trace, 4.5 s to 1.9 s for a
// 25-event Mutex trace), which make verify's spec checks need; a chaos
// campaign's trace of hundreds of events keeps the optimizing JIT.
const lightEvents = 100

// checkModule writes m with the spec modules it needs and runs TLC on it.
func (c checker) checkModule(ctx context.Context, m trace.TLATrace) (Result, error) {
	dir := c.out
	if dir == "" {
		tmp, err := os.MkdirTemp("", "tlatrace-")
		if err != nil {
			return Result{}, fmt.Errorf("tlatrace: %w", err)
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return Result{}, fmt.Errorf("tlatrace: %w", err)
	}
	if err := copySpecs(c.spec, dir, trace.TLATraceSpecs[m.Spec]); err != nil {
		return Result{}, err
	}
	specPath := filepath.Join(dir, m.Module+".tla")
	cfgPath := filepath.Join(dir, m.Module+".cfg")
	if err := os.WriteFile(specPath, m.Source, 0o644); err != nil {
		return Result{}, fmt.Errorf("tlatrace: %w", err)
	}
	if err := os.WriteFile(cfgPath, m.Config, 0o644); err != nil {
		return Result{}, fmt.Errorf("tlatrace: %w", err)
	}
	meta, err := os.MkdirTemp(dir, "meta-")
	if err != nil {
		return Result{}, fmt.Errorf("tlatrace: %w", err)
	}
	defer os.RemoveAll(meta)
	start := time.Now()
	res, raw, err := tlc.Run(ctx, tlc.RunOptions{Jar: c.jar, Spec: specPath, Config: cfgPath,
		MetaDir: meta, Workers: "1", NoCoverage: true, Light: m.Events <= lightEvents, Log: c.log})
	if err != nil {
		return Result{}, err
	}
	r := Result{Lock: m.Lock, Module: m.Module, Events: m.Events, Distinct: res.DistinctStates, Elapsed: time.Since(start)}
	switch {
	case res.Verdict == tlc.InvariantViolated && res.Property == "TraceUnmatched":
		r.Accepted, r.Steps, r.Matched = true, len(res.Trace), m.Events
	case res.Verdict == tlc.Pass:
		r.Matched, r.Next = progress(raw, m.Source)
	default:
		return r, fmt.Errorf("tlatrace: %s: TLC: %s %s %s\n%s", m.Module, res.Verdict, res.Property,
			strings.Join(res.Errors, "; "), lastLines(raw, 30))
	}
	return r, nil
}

// copySpecs copies every module of the spec folder beside the generated
// one (TLC looks for modules in the root module's folder), whichever the
// trace spec reaches through EXTENDS and INSTANCE; traceSpec must be one.
func copySpecs(from, to, traceSpec string) error {
	mods, err := filepath.Glob(filepath.Join(from, "*.tla"))
	if err != nil {
		return fmt.Errorf("tlatrace: %w", err)
	}
	found := false
	for _, m := range mods {
		found = found || filepath.Base(m) == traceSpec+".tla"
		src, err := os.ReadFile(m)
		if err != nil {
			return fmt.Errorf("tlatrace: the spec modules: %w", err)
		}
		if err := os.WriteFile(filepath.Join(to, filepath.Base(m)), src, 0o644); err != nil {
			return fmt.Errorf("tlatrace: %w", err)
		}
	}
	if !found {
		return fmt.Errorf("tlatrace: no %s.tla in %s: %w", traceSpec, from, os.ErrNotExist)
	}
	return nil
}

// progressRE matches TraceProgress's print: <<"TraceProgress", n, l>>.
var (
	progressRE = regexp.MustCompile(`(?s)<<\s*"TraceProgress",\s*(\d+),\s*(.*?)>>`)
	// TLC prints l as a record when every client name is an identifier,
	// as a function ("name" :> k @@ ...) otherwise.
	entryRE = regexp.MustCompile(`"((?:[^"\\]|\\.)*)" :> (\d+)|([A-Za-z0-9_]+) \|-> (\d+)`)
	eventRE = regexp.MustCompile(`\[line \|-> (\d+), client \|-> "((?:[^"\\]|\\.)*)"`)
)

// progress reads the deepest point TLC printed: the events matched, and
// the line of each client's next event there.
func progress(raw, module []byte) (int, []string) {
	ms := progressRE.FindAllSubmatch(raw, -1)
	if len(ms) == 0 {
		return 0, nil
	}
	last := ms[len(ms)-1]
	matched, _ := strconv.Atoi(string(last[1]))
	lines := map[string][]string{} // client -> the lines of its events
	for _, ev := range eventRE.FindAllSubmatch(module, -1) {
		lines[string(ev[2])] = append(lines[string(ev[2])], string(ev[1]))
	}
	var next []string
	for _, e := range entryRE.FindAllSubmatch(last[2], -1) {
		client, n := string(e[1]), string(e[2])
		if e[3] != nil {
			client, n = string(e[3]), string(e[4])
		}
		k, _ := strconv.Atoi(n)
		if k < len(lines[client]) {
			next = append(next, fmt.Sprintf("%s line %s", client, lines[client][k]))
		}
	}
	return matched, next
}

// lastLines returns the last n lines of out.
func lastLines(out []byte, n int) string {
	ls := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, "\n")
}
