package report

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zklock/zklock/cmd/chaos/internal/load"
)

func loadResult() *load.Result {
	return &load.Result{
		Elapsed: 40 * time.Second,
		Sessions: []load.SessionStats{
			{Name: "s1", Workers: 8, Leases: 4, Replies: 56_000, Guards: 3_500, Held: 40 * time.Second},
			{Name: "s2", Workers: 8, Leases: 4, Replies: 11_264, Held: 8 * time.Second, SessionLost: "no sync proved",
				LostAfter: 8 * time.Second, Lost: []load.LeaseLoss{{Path: "/l0", Reason: "lock lost", After: 8 * time.Second}}},
		},
		Rounds:   []load.Round{{Path: "/q", Waiters: 500, Queued: 500, Granted: 500, Queue: time.Second, Drain: 3 * time.Second, Slowest: 40 * time.Millisecond}},
		Acquires: load.Acquires{Count: 60, Slowest: 900 * time.Millisecond},
		Samples: []load.Sample{{Label: "start", HeapBytes: 1 << 20, Goroutines: 35, Watches: []int{0, 0, 0}},
			{Label: "end", At: 40 * time.Second, HeapBytes: 30 << 20, Goroutines: 60, Watches: []int{2, -1, 3}}},
	}
}

// The verdict: fail on any finding, error when nothing was measured, pass
// otherwise; report.json and the table carry the rates, losses, rounds and
// samples.
func TestLoadReport(t *testing.T) {
	cfg := load.Config{Duration: 40 * time.Second, Sessions: 2, Workers: 8, GuardEvery: 16, LocksPerS: 4,
		Waiters: 500, WaiterSessions: 4, AcquireBound: 5 * time.Second, SampleEvery: 10 * time.Second}
	res := loadResult()
	r := NewLoadReport(cfg, res, load.Judge(res, cfg.AcquireBound), time.Now(), "local", "/zklock-chaos/load-x")
	if r.Verdict != "fail" || r.ExitCode != 1 || len(r.Findings) != 2 {
		t.Fatalf("a lost session: verdict %s exit %d findings %v; want fail, 1, two findings", r.Verdict, r.ExitCode, r.Findings)
	}
	if r.Sessions[0].Rate != 1400 || r.Sessions[1].Rate != 1408 || r.Sessions[1].LostAfter != "8s" {
		t.Errorf("rates %v and %v, lost after %q; want 1400, 1408, 8s", r.Sessions[0].Rate, r.Sessions[1].Rate, r.Sessions[1].LostAfter)
	}

	healthy := loadResult()
	healthy.Sessions = healthy.Sessions[:1]
	if r := NewLoadReport(cfg, healthy, load.Judge(healthy, cfg.AcquireBound), time.Now(), "local", "/r"); r.Verdict != "pass" || r.ExitCode != 0 {
		t.Errorf("a healthy run: verdict %s exit %d; want pass, 0", r.Verdict, r.ExitCode)
	}
	idle := &load.Result{Sessions: []load.SessionStats{{Name: "s1"}}}
	if r := NewLoadReport(cfg, idle, nil, time.Now(), "local", "/r"); r.Verdict != "error" || r.ExitCode != 2 || len(r.Errors) != 1 {
		t.Errorf("no reply at all: verdict %s exit %d errors %v; want error, 2, one error", r.Verdict, r.ExitCode, r.Errors)
	}

	path := filepath.Join(t.TempDir(), "report.json")
	if err := WriteJSON(path, r); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"replies_per_second": 1408`, `"session_lost": "no sync proved"`, `"drain_time": "3s"`,
		`"goroutines": 60`, `"acquire_bound": "5s"`, `"kind": "session-lost"`, `"leases_lost_after"`} {
		if !bytes.Contains(b, []byte(key)) {
			t.Errorf("report.json lacks %s", key)
		}
	}

	var out bytes.Buffer
	WriteLoadTable(&out, r, "/out")
	for _, want := range []string{"s2", "1408", "after 8s", "FINDING session-lost", "FINDING lease-lost", "verdict: FAIL (exit 1)", "/out/report.json"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
}
