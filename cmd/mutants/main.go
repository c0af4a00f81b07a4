// Command mutants builds deliberately broken variants of impl/zklock and
// runs the tests against each: a test suite that lets a mutant live cannot
// be trusted to catch the bug it carries. It prints which test killed which
// mutant and the kill rate, and exits 1 unless every mutant died.
//
// Every mutant's tests share one local ensemble, started here and named to
// the test binaries by ZKLOCK_SERVERS; a killer that must kill or pause
// servers skips against it and runs again with an ensemble of its own.
//
//	go run ./cmd/mutants            # the killer tests of each mutant
//	go run ./cmd/mutants -all       # the whole impl/zklock suite per mutant
//	go run ./cmd/mutants -only NAME
//	go run ./cmd/mutants -shared=false  # each test binary starts its own ensemble
//	go run ./cmd/mutants -only NAME -overlay DIR   # write its overlay, run nothing
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"
)

func main() {
	all := flag.Bool("all", false, "run the whole impl/zklock suite against each mutant, not only its killers")
	only := flag.String("only", "", "run only the mutant with this name")
	timeout := flag.Duration("timeout", 6*time.Minute, "go test -timeout for each mutant")
	shared := flag.Bool("shared", true, "run every mutant's tests against one local ensemble (tests that kill servers get their own)")
	shard := flag.String("shard", "", "run only shard K of N (K/N, 1-based): every Nth mutant from the Kth, so that make verify runs the mutants as N stages beside its others")
	overlayDir := flag.String("overlay", "", "with -only: write that mutant's overlay into this folder, print the path of its overlay.json (for go build -overlay), run nothing")
	flag.Parse()
	root, err := repoRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutants:", err)
		os.Exit(2)
	}
	if *overlayDir != "" {
		os.Exit(writeOnly(root, *only, *overlayDir))
	}
	k, n, err := parseShard(*shard)
	if err != nil {
		fmt.Fprintln(os.Stderr, "mutants:", err)
		os.Exit(2)
	}
	if !known(*only) {
		fmt.Fprintf(os.Stderr, "mutants: no mutant named %q\n", *only)
		os.Exit(2)
	}
	env, stop := []string(nil), func() {}
	if *shared {
		if env, stop, err = sharedEnsemble(); err != nil {
			fmt.Fprintln(os.Stderr, "mutants:", err)
			os.Exit(2)
		}
	}
	start := time.Now()
	var results []outcome
	for i, m := range mutants {
		if *only != "" && m.Name != *only || i%n != k-1 {
			continue
		}
		fmt.Fprintf(os.Stderr, "mutant %s ...\n", m.Name)
		r := run(root, m, *all, *timeout, env)
		if r.err == nil && !r.killed() {
			// Killing tests race a fault against the code on a loaded
			// machine; a mutant that survives is run once more, and only
			// a second survival counts. A mutant its tests cannot see
			// survives both.
			fmt.Fprintf(os.Stderr, "mutant %s: survived once, running its killers again\n", m.Name)
			r = run(root, m, *all, *timeout, env)
		}
		fmt.Fprintf(os.Stderr, "mutant %s: %s\n", m.Name, r.verdict())
		results = append(results, r)
	}
	stop()
	killed := printTable(os.Stdout, results)
	fmt.Printf("\nkill rate: %d/%d in %v\n", killed, len(results), time.Since(start).Round(time.Second))
	if killed != len(results) {
		os.Exit(1)
	}
}

// parseShard reads -shard K/N; "" is the one shard 1/1.
func parseShard(s string) (k, n int, err error) {
	if s == "" {
		return 1, 1, nil
	}
	if _, err := fmt.Sscanf(s, "%d/%d", &k, &n); err != nil || n < 1 || k < 1 || k > n {
		return 0, 0, fmt.Errorf("-shard %q: want K/N with 1 <= K <= N", s)
	}
	return k, n, nil
}

// known says whether only names a mutant ("" names them all).
func known(only string) bool {
	for _, m := range mutants {
		if only == "" || m.Name == only {
			return true
		}
	}
	return false
}

func printTable(w *os.File, rs []outcome) int {
	killed := 0
	fmt.Fprintf(w, "| mutant | verdict | killed by | time |\n|---|---|---|---|\n")
	for _, r := range rs {
		if r.killed() {
			killed++
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", r.m.Name, r.verdict(), strings.Join(r.failed, ", "),
			r.took.Round(time.Second))
	}
	return killed
}

// writeOnly writes the overlay of the mutant named only into dir.
func writeOnly(root, only, dir string) int {
	for _, m := range mutants {
		if m.Name == only {
			overlay, err := keepOverlay(root, m, dir)
			if err != nil {
				fmt.Fprintln(os.Stderr, "mutants:", err)
				return 2
			}
			fmt.Println(overlay)
			return 0
		}
	}
	fmt.Fprintf(os.Stderr, "mutants: -overlay needs -only with a mutant's name, not %q\n", only)
	return 2
}
