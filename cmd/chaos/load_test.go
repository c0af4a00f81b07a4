package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zklock/zklock/cmd/chaos/internal/report"
	"github.com/zklock/zklock/ensemble"
	"github.com/zklock/zklock/ensemble/ensembletest"
)

// A load campaign injects no faults: the flags that would, or that belong
// to the fault campaign's workload, are refused, as are values out of range.
func TestLoadBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--load", "--faults", "sever"}, "--faults with --load"},
		{[]string{"--load", "--lock", "zk"}, "--lock with --load"},
		{[]string{"--load", "--clients", "4"}, "--clients with --load"},
		{[]string{"--load", "--waiters", "-1"}, "--waiters"},
		{[]string{"--load", "--load-workers", "0"}, "--load-workers"},
		{[]string{"--load", "--acquire-bound", "0s"}, "--acquire-bound"},
		{[]string{"--load", "--duration", "1s"}, "--duration"},
		{[]string{"--load", "--load-recipe", "barrier"}, "--load-recipe"},
		{[]string{"--load", "--load-recipe", "semaphore", "--max", "0"}, "--max"},
	} {
		var stdout, stderr bytes.Buffer
		out := filepath.Join(t.TempDir(), "out")
		code := run(context.Background(), append(c.args, "--out", out), &stdout, &stderr, options{})
		if code != exitSetup || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d naming %s", c.args, code, stderr.String(), exitSetup, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: --out made for a bad command line", c.args)
		}
	}
	cfg, err := parseConfig([]string{"--load"}, &bytes.Buffer{})
	if err != nil || cfg.Load == nil || cfg.SessionTimeout.String() != "10s" || len(cfg.Faults) != 0 {
		t.Errorf("--load alone: %v, %+v; want a load config, a 10s session and no faults", err, cfg)
	}
}

// A short load campaign on the test ensemble, with the fixed loss clock,
// must pass: every session and lease kept, every queued waiter granted, and
// the report's numbers present. One busy session from 16 goroutines, as in
// make chaos-load, so that its rate passes the 4,096 replies per sync lag at
// which the old loss clock failed: built with the merge-oldest-acks mutant
// this test fails (and make chaos-load checks that with the binary).
func TestLoadCampaignPasses(t *testing.T) {
	if testing.Short() {
		t.Skip("a 20-second load campaign against the ensemble; run without -short")
	}
	e := ensembletest.RequireLocal(t)
	out := filepath.Join(t.TempDir(), "out")
	// A generous bound: this test is about losses, and the test ensemble
	// shares the machine with the other tests.
	args := []string{"--load", "--quiet", "--out", out, "--duration", "20s", "--load-sessions", "1", "--load-workers", "16", "--waiters", "200", "--sample-every", "5s", "--acquire-bound", "30s"}
	code, r := loadCampaign(t, e, out, args)
	if code != exitPass || r.Verdict != "pass" || r.ExitCode != code {
		t.Fatalf("load campaign: exit %d, report %s (exit %d), findings %v, errors %v", code, r.Verdict, r.ExitCode, r.Findings, r.Errors)
	}
	if len(r.Sessions) != 1 || len(r.Rounds) == 0 || len(r.Samples) < 4 {
		t.Fatalf("sessions %d, rounds %d, samples %d; want 1, at least 1, at least 4", len(r.Sessions), len(r.Rounds), len(r.Samples))
	}
	for _, s := range r.Sessions {
		if s.Replies == 0 || s.Guards == 0 || s.Rate <= 0 {
			t.Errorf("session %s: %d replies, %d guards, %v/s: no load", s.Name, s.Replies, s.Guards, s.Rate)
		}
	}
	for i, q := range r.Rounds {
		if q.Queued != 200 || q.Granted != 200 {
			t.Errorf("round %d: %d queued, %d granted; want 200 and 200", i+1, q.Queued, q.Granted)
		}
	}
	if first, last := r.Samples[0], r.Samples[len(r.Samples)-1]; first.Label != "start" || last.Label != "closed" || len(last.Watches) != 3 {
		t.Errorf("samples from %q to %q (watches %v); want start to closed, one count per server", first.Label, last.Label, last.Watches)
	}
}

// The load campaign's other recipes, short, on the test ensemble: an
// election's candidates (each proclaims once, observed from the waiter
// sessions) and a semaphore's acquirers queue and drain beside a busy
// session, every one granted, nothing lost, and the election's observers
// report throughout.
func TestLoadRecipesPass(t *testing.T) {
	if testing.Short() {
		t.Skip("two 8-second load campaigns against the ensemble; run without -short")
	}
	e := ensembletest.RequireLocal(t)
	for _, recipe := range []string{"election", "semaphore"} {
		t.Run(recipe, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "out")
			args := []string{"--load", "--load-recipe", recipe, "--max", "2", "--quiet", "--out", out, "--duration", "8s",
				"--load-sessions", "1", "--load-workers", "4", "--waiters", "100", "--waiter-sessions", "2",
				"--sample-every", "2s", "--acquire-bound", "30s"}
			code, r := loadCampaign(t, e, out, args)
			if code != exitPass || r.Verdict != "pass" || r.Config.Recipe != recipe {
				t.Fatalf("%s load campaign: exit %d, report %s for %q, findings %v, errors %v", recipe, code, r.Verdict, r.Config.Recipe, r.Findings, r.Errors)
			}
			if len(r.Rounds) == 0 {
				t.Fatal("no queue round")
			}
			for i, q := range r.Rounds {
				if q.Queued != 100 || q.Granted != 100 {
					t.Errorf("round %d: %d queued, %d granted; want 100 and 100", i+1, q.Queued, q.Granted)
				}
				if recipe == "election" && q.Reports == 0 {
					t.Errorf("round %d: no observer report of 100 leaderships", i+1)
				}
			}
			if last := r.Samples[len(r.Samples)-1]; last.Label != "closed" || last.TotalWatches() != 0 {
				t.Errorf("last sample %q with %d watches; want closed with none", last.Label, last.TotalWatches())
			}
		})
	}
}

// loadCampaign runs a load campaign writing to out on ensemble e and returns its
// exit code and report.json.
func loadCampaign(t *testing.T, e *ensemble.Ensemble, out string, args []string) (int, report.LoadReport) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, &stdout, &stderr, options{ensemble: e})
	t.Logf("chaos %v: exit %d\n%s%s", args, code, stderr.String(), stdout.String())
	var r report.LoadReport
	b, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatalf("no report: %v", err)
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("report.json: %v", err)
	}
	return code, r
}
