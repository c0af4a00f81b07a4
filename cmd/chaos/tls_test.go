package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/zklock/zklock/cmd/chaos/internal/report"
	"github.com/zklock/zklock/cmd/chaos/internal/schedule"
	"github.com/zklock/zklock/ensemble/ensembletest"
)

// --tls leaves cut-create out of "all" and refuses what it cannot do.
func TestTLSConfig(t *testing.T) {
	c, err := parseConfig([]string{"--tls"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(c.Faults, schedule.CutCreate) || len(c.Faults) != len(schedule.All)-1 {
		t.Errorf("--tls faults %v: want every kind but cut-create", c.Faults)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--tls", "--faults", "sever,cut-create"}, "cut-create"},
		{[]string{"--tls", "--servers", "127.0.0.1:2181", "--faults", "sever"}, "--servers"},
		{[]string{"--tls", "--lock", "zk"}, "--lock=zk"},
	} {
		if _, err := parseConfig(tc.args, io.Discard); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want an error naming %s", tc.args, err, tc.want)
		}
	}
}

// A short campaign over TLS, on the test binary's TLS server (a standalone
// one, so only the faults on client connections), must pass: the history
// checks and the trace in the model.
func TestCampaignTLSPasses(t *testing.T) {
	e := ensembletest.RequireTLSEnsemble(t)
	out := filepath.Join(t.TempDir(), "out")
	args := []string{"--quiet", "--out", out, "--tls", "--duration", "15s", "--seed", "3", "--fault-interval", "1s",
		"--clients", "4", "--locks", "2", "--faults", "sever,latency,freeze-client"}
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, &stdout, &stderr, options{ensemble: e})
	t.Logf("chaos %v: exit %d\n%s%s", args, code, stderr.String(), stdout.String())
	b, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatalf("no report: %v", err)
	}
	var r report.Report
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("report.json: %v", err)
	}
	if code != exitPass {
		t.Fatalf("TLS campaign: exit %d, verdict %s, errors %v", code, r.Verdict, r.Errors)
	}
	if r.Check == nil || r.Check.Operations < 100 {
		t.Errorf("too little was checked: %+v", r.Check)
	}
	faults := 0
	for _, f := range r.FaultCounts {
		faults += f.Injected
	}
	if faults == 0 {
		t.Errorf("no fault injected: %+v", r.FaultCounts)
	}
	if !strings.Contains(r.Replay, "--tls") {
		t.Errorf("the replay command %q is not over TLS", r.Replay)
	}
	if r.Trace == nil || r.Trace.Verdict != "valid" {
		t.Errorf("the trace was not replayed valid in the model: %+v", r.Trace)
	}
}
