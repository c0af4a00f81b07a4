package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zklock/zklock/internal/tlc"
)

// TestSpecConfigs checks that every config under spec/tla is named
// <Module>.<Name>.cfg, has a module, and states a valid expectation.
func TestSpecConfigs(t *testing.T) {
	cfgs, err := discover(filepath.Join("..", "..", "spec", "tla"))
	if err != nil {
		t.Fatal(err)
	}
	var ci, deep, failing int
	for _, c := range cfgs {
		if c.Model.Deep {
			deep++
		} else {
			ci++
		}
		if !c.Model.Pass {
			failing++
		}
	}
	if ci == 0 || deep == 0 || failing == 0 {
		t.Errorf("%d CI configs, %d deep configs, %d expected failures: want some of each", ci, deep, failing)
	}
}

func TestNeverTaken(t *testing.T) {
	mk := func(pass bool, cov ...tlc.ActionCoverage) outcome {
		for i := range cov {
			if cov[i].Module == "" {
				cov[i].Module = "M"
			}
		}
		return outcome{cfg: config{Module: "M", Name: "x", Model: tlc.Model{Pass: pass}},
			res: &tlc.Result{Verdict: tlc.Pass, Coverage: cov}}
	}
	outs := []outcome{
		mk(true, tlc.ActionCoverage{Name: "A", Total: 1}, tlc.ActionCoverage{Name: "B"}, tlc.ActionCoverage{Name: "C"}),
		mk(true, tlc.ActionCoverage{Name: "A"}, tlc.ActionCoverage{Name: "B", Total: 3}, tlc.ActionCoverage{Name: "C"}),
		mk(false, tlc.ActionCoverage{Name: "C", Total: 9}), // a failing config does not count
		// A mutant's config that does not take base action B, and takes its own D.
		mk(true, tlc.ActionCoverage{Name: "B"}, tlc.ActionCoverage{Name: "D", Module: "MMutant", Total: 1}),
	}
	got := neverTaken(outs)
	if len(got) != 1 || !strings.Contains(got[0], "action C") {
		t.Errorf("neverTaken = %v, want only C", got)
	}
}

func TestRenderTable(t *testing.T) {
	outs := []outcome{{
		cfg: config{Module: "PredecessorLock", Name: "Pause",
			Model: tlc.Model{Violation: "NaiveExclusion", Invariants: []string{"NaiveExclusion"}}},
		res: &tlc.Result{Verdict: tlc.InvariantViolated, Property: "NaiveExclusion", DistinctStates: 10,
			StatesGenerated: 20, Depth: 11, Duration: 1500 * time.Millisecond, Trace: make([]tlc.Step, 11)},
	}, {
		cfg: config{Module: "M", Name: "L", Model: tlc.Model{Violation: "Live", Properties: []string{"Live"}}},
		res: &tlc.Result{Verdict: tlc.TemporalViolated},
		err: os.ErrInvalid,
	}}
	table := renderTable(outs, time.Minute, false)
	for _, want := range []string{
		"| PredecessorLock | Pause | violation NaiveExclusion | invariant violated NaiveExclusion | 10 | 20 | 11 | 11 | 1.5s | ok |",
		"temporal property violated (Live)",
		"**FAIL**",
		"2 configs",
	} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
}

// TestSelfTest runs the runner's self-test with real TLC: the broken
// configs in testdata/selftest must be rejected and the good ones
// accepted. It needs java and the TLC jar that `make tlc` caches; it is
// skipped without them (`make tlc` runs the same self-test every time).
func TestSelfTest(t *testing.T) {
	if testing.Short() {
		t.Skip("runs TLC a dozen times; `make tlc` runs the same self-test")
	}
	jar := filepath.Join("..", "..", ".cache", tlc.JarName)
	if _, err := os.Stat(jar); err != nil {
		t.Skipf("no cached TLC jar (%v); run `make tlc` first", err)
	}
	if _, err := exec.LookPath("java"); err != nil {
		t.Skip("no java")
	}
	var log bytes.Buffer
	r := runner{o: options{cacheDir: t.TempDir(), java: "java", heap: "256m", workers: "1"}, jar: jar, log: &log}
	if err := r.selfTest(context.Background(), filepath.Join("testdata", "selftest")); err != nil {
		t.Fatalf("self-test: %v\n%s", err, log.String())
	}
	if n := strings.Count(log.String(), "rejected"); n < 8 {
		t.Errorf("only %d configs rejected:\n%s", n, log.String())
	}
}

// TestPoolOrder: the pool runs the largest configs first (a config the
// table lacks before them all), and with -workers 1 every config is in
// the pool; otherwise a big passing config is left to run alone.
func TestPoolOrder(t *testing.T) {
	cfg := func(name string, pass bool) config {
		return config{Module: "M", Name: name, Model: tlc.Model{Pass: pass}}
	}
	cfgs := []config{cfg("small", true), cfg("big", true), cfg("fail", false), cfg("new", false), cfg("mid", true)}
	states := map[string]int{"M.small": 10, "M.big": 500000, "M.fail": 3000, "M.mid": 20000}
	for _, tc := range []struct {
		workers string
		want    []int
	}{
		{"1", []int{3, 1, 4, 2, 0}},
		{"auto", []int{3, 4, 2, 0}},
	} {
		r := runner{o: options{workers: tc.workers, poolBelow: 100000}, states: states}
		if got := r.poolOrder(cfgs); !slices.Equal(got, tc.want) {
			t.Errorf("-workers %s: pool order %v, want %v", tc.workers, got, tc.want)
		}
	}
}
