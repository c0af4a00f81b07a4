// Command conformance checks that the Go models in model/ and TLC agree on
// every TLC config in spec/tla, state for state.
//
// For every config (the CI set; -deep: the deep set) it takes TLC's result
// from .cache/tlc/results.json, written by `make tlc` (cmd/tlc), when the
// record's config and spec hashes, jar and worker setting match the files;
// otherwise it runs TLC itself, as cmd/tlc does (passing configs with
// -workers auto, expected failures with one worker), and updates the file.
// It then explores the same config with the Go explorer, the constants,
// specification, invariants and properties read from the same .cfg, and
// compares:
//
//   - the verdict and the violated property;
//   - for a passing config: distinct states, states generated and depth;
//   - for an expected safety failure (TLC with one worker, the explorer in
//     TLC's order): the counterexample's length, and the distinct states
//     and states generated when the violation was found;
//   - for every counterexample: TLC's trace, replayed in the model, must
//     be a run of the model, action by action and variable by variable,
//     and a liveness counterexample must be a fair lasso that violates the
//     property in the model.
//
// TLC's liveness counterexample is not a deterministic quantity (TLC
// checks the property's branches, one per client, in parallel and prints
// the first bad cycle found), so for a temporal violation the lengths are
// reported, not compared; the replay check above is what must hold.
//
// It prints one table and exits non-zero on any mismatch.
//
// Usage:
//
//	go run ./cmd/conformance [-deep] [-run REGEXP] [-rerun] [-workers N] [-results FILE] [-v]
//	go run ./cmd/conformance -model-only [-deep] [-run REGEXP]   (explore only, compare nothing)
//	go run ./cmd/conformance -validate TRACE.jsonl [-spec-kind exclusive|read-write]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
)

type options struct {
	specDir    string
	cacheDir   string
	jsonPath   string
	deep       bool
	filter     string
	rerun      bool
	workers    int
	tlcWorkers string
	jar        string
	java       string
	heap       string
	results    string
	verbose    bool
	validate   string
	budget     int
	modelOnly  bool
	maxStates  int64
}

func main() {
	var o options
	flag.StringVar(&o.specDir, "spec", "spec/tla", "folder of the specs and their configs")
	flag.StringVar(&o.cacheDir, "cache", ".cache", "cache folder (TLC jar, results.json)")
	flag.StringVar(&o.jsonPath, "json", "", "TLC results file (default <cache>/tlc/results.json)")
	flag.BoolVar(&o.deep, "deep", false, "check the deep configs instead of the CI set")
	flag.StringVar(&o.filter, "run", "", "check only configs whose Module.Name matches this regexp")
	flag.BoolVar(&o.rerun, "rerun", false, "run TLC even when results.json has a matching record")
	flag.IntVar(&o.workers, "workers", runtime.GOMAXPROCS(0), "explorer workers (parallel mode)")
	flag.StringVar(&o.tlcWorkers, "tlc-workers", "auto", "TLC -workers for passing configs (as cmd/tlc)")
	flag.StringVar(&o.jar, "jar", "", "use this TLC jar instead of fetching the pinned one")
	flag.StringVar(&o.java, "java", "java", "java executable")
	flag.StringVar(&o.heap, "heap", "1g", "JVM heap (-Xmx)")
	flag.StringVar(&o.results, "results", "", "also write the table (Markdown) to this file")
	flag.BoolVar(&o.verbose, "v", false, "print both counterexamples of every failing config")
	flag.StringVar(&o.validate, "validate", "", "validate a JSON-lines trace of impl/zklock in the model instead (see model/trace)")
	flag.BoolVar(&o.modelOnly, "model-only", false, "explore the configs without TLC (no comparison; for the deep set)")
	flag.Int64Var(&o.maxStates, "max-states", 50_000_000, "stop exploring a config after this many distinct states (0: no bound)")
	flag.IntVar(&o.budget, "budget", 0, "trace validation: search nodes before giving up (0: the default)")
	flag.Parse()
	if o.jsonPath == "" {
		o.jsonPath = filepath.Join(o.cacheDir, "tlc", "results.json")
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var err error
	if o.validate != "" {
		err = validate(o, os.Stdout)
	} else {
		err = run(ctx, o, os.Stdout)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "conformance: %v\n", err)
		os.Exit(1)
	}
}

// logf prints a progress line.
func logf(w io.Writer, format string, args ...any) { fmt.Fprintf(w, format+"\n", args...) }
