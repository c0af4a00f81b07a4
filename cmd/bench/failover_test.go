package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/zklock/zklock/bench/curator"
)

func TestParseFailoverFlags(t *testing.T) {
	cfg, err := parseFlags([]string{"--quick", "--failover", "close, resign,close"}, &strings.Builder{})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(cfg.failover) != "[failover-close failover-resign]" || cfg.failoverRounds != 8 || cfg.expireRounds != 1 {
		t.Errorf("--quick --failover close,resign: %+v", cfg)
	}
	if cfg, err := parseFlags([]string{"--failover", ""}, &strings.Builder{}); err != nil || len(cfg.failover) != 0 {
		t.Errorf("--failover '': %v, %v", cfg.failover, err)
	}
	for _, bad := range [][]string{{"--failover", "crash"}, {"--observers", "0"}, {"--failover-rounds", "0"}} {
		if _, err := parseFlags(bad, &strings.Builder{}); err == nil {
			t.Errorf("parseFlags(%q) accepted it", bad)
		}
	}
}

// TestRenderFailover checks the failover ratios on made-up runs whose
// answers are known: per-round ratios to the floor, LeaderLatch's as
// ratios of medians.
func TestRenderFailover(t *testing.T) {
	cfg, err := parseFlags([]string{"--reps", "1", "--clients", "1", "--impl", "floor,zklock,curator", "--observers", "2"}, &strings.Builder{})
	if err != nil {
		t.Fatal(err)
	}
	runs := []run{
		// Round by round: led 2, 3, 4 over floors 1, 1, 2 (ratios 2, 3, 2);
		// observed 3, 3, 6 (ratios 3, 3, 3).
		{Impl: implZklock, Kind: kindFailResign, Clients: 2, Ops: 3, Latency: ms(2, 3, 4), Observed: ms(3, 3, 6), Floor: ms(1, 1, 2)},
		{Impl: implCurator, Kind: kindFailResign, Clients: 0, Ops: 3, Latency: ms(6, 6, 6)},
		{Impl: implZklock, Kind: kindFailExpire, Clients: 2, Ops: 1, Latency: ms(4300), Observed: ms(4310), Floor: ms(2), Timeout: 4 * time.Second},
	}
	out := renderReport(cfg, facts{}, runs, nil)
	for _, want := range []string{
		// zklock's median led 3 ms ÷ LeaderLatch's 6 ms; LeaderLatch's 6 ms ÷ the median floor 1 ms.
		"| Resign (LeaderLatch: close()) | 3 | 1.00 ms | 3.00 ms | 3.00 ms | 2.00× (2.00–3.00) | 3.00× (3.00–3.00) | 6.00 ms (3 rounds) | 6.00× (6.00–6.00) | 0.50× (0.50–0.50) |",
		"| session expired (connection silenced) | 1 | 4s | 4300.00 ms | 4310.00 ms | 300.00 ms |",
		"| 2 | 3.00× (3.00–3.00) | ≤ 1.20× | no |",
		"zklock ÷ LeaderLatch close() → isLeader | 2 | 0.50× (0.50–0.50) | < 1.00× | yes |",
		"Every measured window had grants", // an expiry's 4.3 s round is no slow window
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

// TestFailoverRounds runs each failover kind for real, briefly: every
// round yields a time to lead, to be observed, and a floor.
func TestFailoverRounds(t *testing.T) {
	cfg := benchConfig(t)
	cfg.observers, cfg.expireTimeout = 2, 6*time.Second
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	admin, err := connect(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	base := fmt.Sprintf("/zklock-bench/go-test/failover-%d", time.Now().UnixNano())
	defer deleteTree(admin, base)
	for _, kind := range failoverKinds {
		p := base + "/" + kind
		if err := createAll(admin, p); err != nil {
			t.Fatal(err)
		}
		rounds := 3
		if kind == kindFailExpire {
			rounds = 1
		}
		r, err := failover(ctx, cfg, kind, p, rounds, 1)
		if err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		if len(r.Latency) != rounds || len(r.Observed) != rounds || len(r.Floor) != rounds {
			t.Fatalf("%s: %d led, %d observed, %d floors; want %d each", kind, len(r.Latency), len(r.Observed), len(r.Floor), rounds)
		}
		for i := range rounds {
			if r.Latency[i] <= 0 || r.Observed[i] <= 0 || r.Floor[i] <= 0 {
				t.Errorf("%s round %d: led %v, observed %v, floor %v", kind, i, r.Latency[i], r.Observed[i], r.Floor[i])
			}
		}
		// An expired leader is replaced only after its session timeout:
		// not a timing threshold, the definition of expiry.
		if kind == kindFailExpire && r.Latency[0] < r.Timeout {
			t.Errorf("expiry: led after %v, before the session timeout %v", r.Latency[0], r.Timeout)
		}
	}
}

// TestCuratorFailover runs the harness's LeaderLatch failover modes for
// real, two rounds each.
func TestCuratorFailover(t *testing.T) {
	cfg := benchConfig(t)
	cfg.failoverRounds = 2
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cache, err := curator.CacheDir()
	if err != nil {
		t.Fatal(err)
	}
	h, err := curator.Prepare(ctx, cache, &strings.Builder{})
	if err != nil {
		t.Fatal(err)
	}
	admin, err := connect(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	base := fmt.Sprintf("/zklock-bench/go-test/latch-%d", time.Now().UnixNano())
	defer deleteTree(admin, base)
	var specs []curatorSpec
	for _, kind := range []string{kindFailResign, kindFailClose} {
		if err := createAll(admin, base+"/"+kind); err != nil {
			t.Fatal(err)
		}
		specs = append(specs, curatorSpec{kind: kind, path: base + "/" + kind})
	}
	runs, err := runCurator(ctx, cfg, h, specs)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range runs {
		if r.Kind != specs[i].kind || len(r.Latency) != 2 || r.Latency[0] <= 0 || r.Latency[1] <= 0 {
			t.Errorf("run %d: %+v, want %s with 2 positive rounds", i, r, specs[i].kind)
		}
	}
}
