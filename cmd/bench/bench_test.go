package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zklock/zklock/ensemble/ensembletest"
)

// One ensemble for the benchmarks; -short starts none and they skip.
func TestMain(m *testing.M) { os.Exit(ensembletest.Main(m)) }

func ms(xs ...float64) []time.Duration {
	var ds []time.Duration
	for _, x := range xs {
		ds = append(ds, time.Duration(x*float64(time.Millisecond)))
	}
	return ds
}

func TestPercentile(t *testing.T) {
	xs := ms(5, 1, 4, 2, 3, 6, 7, 8, 9, 10)
	for _, c := range []struct {
		p    float64
		want time.Duration
	}{{50, ms(5)[0]}, {99, ms(10)[0]}, {100, ms(10)[0]}, {10, ms(1)[0]}, {1, ms(1)[0]}} {
		if got := percentile(xs, c.p); got != c.want {
			t.Errorf("p%v = %v, want %v", c.p, got, c.want)
		}
	}
	if percentile(nil, 50) != 0 {
		t.Error("percentile of nothing is not 0")
	}
	if xs[0] != ms(5)[0] {
		t.Error("percentile sorted its argument in place")
	}
}

func TestOver(t *testing.T) {
	s := over([]float64{3, math.NaN(), 1, 2, math.Inf(1)})
	if s.Median != 2 || s.Min != 1 || s.Max != 3 || s.N != 3 {
		t.Errorf("over = %+v", s)
	}
	if s := over([]float64{4, 1}); s.Median != 2.5 {
		t.Errorf("even median = %v", s.Median)
	}
	if s := over([]float64{math.NaN()}); s.ok() || s.ratio() != "—" {
		t.Errorf("no values: %+v %q", s, s.ratio())
	}
}

func TestParseFlags(t *testing.T) {
	cfg, err := parseFlags([]string{"--quick", "--reps", "4", "--impl", "zklock,floor,zklock"}, &strings.Builder{})
	if err != nil {
		t.Fatal(err)
	}
	if cfg.reps != 4 || cfg.iterations != 60 || cfg.duration != 700*time.Millisecond || fmt.Sprint(cfg.clients) != "[1 4]" {
		t.Errorf("--quick with --reps 4: %+v", cfg)
	}
	if fmt.Sprint(cfg.impls) != "[zklock floor]" {
		t.Errorf("impls %v", cfg.impls)
	}
	for _, bad := range [][]string{{"--impl", "etcd"}, {"--clients", "0"}, {"--reps", "0"}, {"--hold", "-1ms"}, {"extra"}} {
		if _, err := parseFlags(bad, &strings.Builder{}); err == nil {
			t.Errorf("parseFlags(%q) accepted it", bad)
		}
	}
}

// TestRenderReport checks the ratios on made-up runs whose answers are known.
func TestRenderReport(t *testing.T) {
	cfg, err := parseFlags([]string{"--reps", "1", "--clients", "1,4", "--impl", "floor,zklock"}, &strings.Builder{})
	if err != nil {
		t.Fatal(err)
	}
	runs := []run{
		{Impl: implFloor, Kind: kindUncontended, Clients: 1, Ops: 100, Elapsed: time.Second, Latency: ms(1, 1, 1)},
		{Impl: implFloor, Kind: kindHandoff, Clients: 2, Ops: 3, Elapsed: time.Second, Handoff: ms(0.5, 0.5, 0.5)},
		{Impl: implFloor, Kind: kindWriteCeiling, Clients: 4, Ops: 1000, Elapsed: time.Second, Latency: ms(4)},
		{Impl: implZklock, Kind: kindUncontended, Clients: 1, Ops: 50, Elapsed: time.Second, Latency: ms(2, 2, 2)},
		{Impl: implZklock, Kind: kindContended, Clients: 1, Ops: 50, Elapsed: time.Second, Latency: ms(2)},
		{Impl: implZklock, Kind: kindContended, Clients: 4, Ops: 500, Elapsed: time.Second, Latency: ms(8), Handoff: ms(1.5)},
		{Impl: implZklock, Kind: kindReadMostly, Clients: 4, Ops: 1000, Elapsed: time.Second, Latency: ms(4)},
	}
	out := renderReport(cfg, facts{}, runs, []string{"acquisitions.svg"})
	for _, want := range []string{
		"| zklock Mutex | 2.00 ms (2.00–2.00) | 2.00 ms (2.00–2.00) | 50 (50–50) | 2.00× (2.00–2.00) | 1.00× (1.00–1.00) |",
		// Hand-off ceiling 1 / 0.5 ms = 2000/s, write ceiling 1000 pairs/s:
		// the write ceiling binds, and zklock's 500/s is half of it; its
		// hand-off three times the floor's.
		"| 4 | 1000 (1000–1000) | 2000 (2000–2000) | 1000 (1000–1000) | the write ceiling (all 1 reps) |",
		"| 1 | 100 (100–100) | — | 100 (100–100) | the write ceiling (one client) |",
		"| 4 | zklock Mutex | 500 (500–500) | 0.50× (0.50–0.50) |",
		"1.50 ms (1.50–1.50) | 1.50 ms (1.50–1.50) | 3.00× (3.00–3.00) | 1.00× (1.00–1.00) |",
		"| 4 | zklock RWMutex | 1000 (1000–1000) | 2.00× (2.00–2.00) |",
		"| uncontended acquire+release p50 ÷ floor pair p50 | 1 | 2.00× (2.00–2.00) | ≤ 1.15× | no |",
		"| hand-off p50 ÷ floor hand-off p50 | 4 | 3.00× (3.00–3.00) | ≤ 1.30× | no |",
		"![acquisitions](acquisitions.svg)",
		"No gap over 1s between grants",
		"Every measured window had grants",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	// The positive controls: a window without grants, and a stall.
	runs[5].Ops, runs[5].Latency = 0, nil
	runs[5].Stalls = []stall{{Start: 2 * time.Second, Length: 3 * time.Second, NextBy: -1, HeadOwner: -1}}
	out = renderReport(cfg, facts{}, runs, nil)
	for _, want := range []string{
		"- rep 1, zklock contended N=4: 0 acquisitions",
		"- rep 1, zklock Mutex N=4, at 2.00 s into the window, 3s (to the end of the run) with no grant",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	// A window with a tenth of the usual grants is listed; the others not.
	cfg3 := cfg
	cfg3.reps = 3
	var three []run
	for rep, ops := range []int64{500, 520, 50} {
		three = append(three, run{Impl: implZklock, Kind: kindContended, Clients: 4, Ops: ops, Elapsed: time.Second, Latency: ms(8), Rep: rep})
	}
	out = renderReport(cfg3, facts{}, three, nil)
	if !strings.Contains(out, "- rep 3, zklock contended N=4: 50 acquisitions/s against a median of 500") || strings.Contains(out, "- rep 1,") {
		t.Errorf("the slow window is not the one listed:\n%s", out)
	}
	// With the ceiling at 1000/s, 950/s is within 90% of it: met.
	runs[5].Ops = 950
	if out := renderReport(cfg, facts{}, runs, nil); !strings.Contains(out, "0.95× (0.95–0.95) | ≥ 1.40× and ≥ 1.60×, or ≥ 0.90× of the ceiling | yes |") {
		t.Errorf("the ceiling target is not met at 0.95×:\n%s", out)
	}
}

// TestStallVerdict: what a stall's line says it waited on, and whether the
// wake-up came.
func TestStallVerdict(t *testing.T) {
	late := stall{Probed: true, Queue: 3, Head: "_c_x-lock-0000000007", HeadOwner: 2, HeadPhase: "acquiring",
		HeadFor: 1500 * time.Millisecond, HeadServer: "127.0.0.1:1", Ended: true, NextBy: 2, ProbeRTT: 1200 * time.Millisecond,
		Servers: []serverProbe{{Addr: "127.0.0.1:1", Took: 900 * time.Millisecond, Mode: "leader"}, {Addr: "127.0.0.1:2", Took: time.Millisecond}}}
	on, why := late.verdict()
	for _, want := range []string{"client 2 (acquiring for 1.5s, on 127.0.0.1:1): its grant"} {
		if !strings.Contains(on, want) {
			t.Errorf("waited on %q, want %q", on, want)
		}
	}
	for _, want := range []string{"sync+getChildren+exists took 1.2s", "127.0.0.1:1 (leader) answered srvr in 900ms",
		"the wake-up came late, it was not lost"} {
		if !strings.Contains(why, want) {
			t.Errorf("why %q lacks %q", why, want)
		}
	}
	if strings.Contains(why, "127.0.0.1:2") {
		t.Errorf("a quick server is blamed: %q", why)
	}
	// The control: a gap that never closed is not called a late wake-up.
	lost := late
	lost.Ended, lost.NextBy = false, -1
	if _, why := lost.verdict(); strings.Contains(why, "not lost") || !strings.Contains(why, "no grant ended it") {
		t.Errorf("an unended stall reads %q", why)
	}
	if on, _ := (stall{Probed: true, HeadOwner: -1}).verdict(); !strings.Contains(on, "no node queued") {
		t.Errorf("an empty queue reads %q", on)
	}
}

// TestCharts draws the charts of made-up runs: SVG files, one per chart
// with data, none for a chart without.
func TestCharts(t *testing.T) {
	cfg, err := parseFlags([]string{"--reps", "2", "--clients", "1,4", "--impl", "floor,zklock", "--rw=false"}, &strings.Builder{})
	if err != nil {
		t.Fatal(err)
	}
	var runs []run
	for rep := range 2 {
		runs = append(runs,
			run{Impl: implFloor, Kind: kindUncontended, Clients: 1, Ops: 100, Elapsed: time.Second, Latency: ms(1), Rep: rep},
			run{Impl: implFloor, Kind: kindHandoff, Clients: 2, Ops: 3, Elapsed: time.Second, Handoff: ms(0.5), Rep: rep},
			run{Impl: implFloor, Kind: kindWriteCeiling, Clients: 4, Ops: 1000, Elapsed: time.Second, Rep: rep},
			run{Impl: implZklock, Kind: kindContended, Clients: 1, Ops: 50, Elapsed: time.Second, Rep: rep},
			run{Impl: implZklock, Kind: kindContended, Clients: 4, Ops: int64(400 + 100*rep), Elapsed: time.Second, Handoff: ms(1.5), Rep: rep})
	}
	dir := t.TempDir()
	files, err := writeCharts(dir, cfg, newTable(cfg, runs))
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(files) != "[acquisitions.svg handoff.svg]" {
		t.Fatalf("charts %v, want acquisitions and hand-off only (no read-mostly runs)", files)
	}
	for _, f := range files {
		b, err := os.ReadFile(dir + "/" + f)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "<svg") || !strings.Contains(string(b), "zklock Mutex") {
			t.Errorf("%s is not an SVG chart naming zklock:\n%.300s", f, b)
		}
	}
}

// TestChartsOneClientCount: --clients 1 alone draws the acquisitions chart
// over one point (the log-scaled axis once had no width there, and the
// run panicked after measuring).
func TestChartsOneClientCount(t *testing.T) {
	cfg, err := parseFlags([]string{"--reps", "1", "--clients", "1", "--impl", "floor,zklock", "--rw=false"}, &strings.Builder{})
	if err != nil {
		t.Fatal(err)
	}
	runs := []run{
		{Impl: implFloor, Kind: kindUncontended, Clients: 1, Ops: 100, Elapsed: time.Second, Latency: ms(1)},
		{Impl: implFloor, Kind: kindWriteCeiling, Clients: 1, Ops: 300, Elapsed: time.Second},
		{Impl: implZklock, Kind: kindContended, Clients: 1, Ops: 50, Elapsed: time.Second},
	}
	files, err := writeCharts(t.TempDir(), cfg, newTable(cfg, runs))
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(files) != "[acquisitions.svg]" {
		t.Fatalf("charts %v, want the acquisitions chart alone", files)
	}
}

func benchConfig(b testing.TB) config {
	tick, syncLimit := ensembletest.Timing()
	return config{servers: ensembletest.Require(b), sessionTimeout: 10 * time.Second, writeEvery: 10,
		tickTime: tick, syncLimit: syncLimit}
}

// BenchmarkUncontended: one client, acquire+release per op.
func BenchmarkUncontended(b *testing.B) {
	for _, name := range []string{implFloor, implZklock, implZkLock} {
		b.Run(name, func(b *testing.B) {
			cfg := benchConfig(b)
			ctx := context.Background()
			path := lockPathFor(b, cfg)
			c, err := goImpls[name](ctx, cfg, path, false)
			if err != nil {
				b.Fatal(err)
			}
			defer c.close()
			b.ResetTimer()
			for range b.N {
				unlock, err := c.lock(ctx, true)
				if err != nil {
					b.Fatal(err)
				}
				if err := unlock(ctx); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkContended: 4 goroutines per core, each its own session, one lock
// path; ns/op is wall time per acquisition of the whole group.
func BenchmarkContended(b *testing.B) {
	for _, name := range []string{implZklock, implZkLock, implZklock + "-rw"} {
		b.Run(name, func(b *testing.B) {
			cfg := benchConfig(b)
			ctx := context.Background()
			path := lockPathFor(b, cfg)
			rw := strings.HasSuffix(name, "-rw")
			dial := goImpls[strings.TrimSuffix(name, "-rw")]
			var n atomic.Int64
			b.SetParallelism(4)
			b.RunParallel(func(pb *testing.PB) {
				c, err := dial(ctx, cfg, path, rw)
				if err != nil {
					b.Error(err)
					return
				}
				defer c.close()
				id := int(n.Add(1))
				for i := 0; pb.Next(); i++ {
					unlock, err := c.lock(ctx, !rw || (i+id)%cfg.writeEvery == 0)
					if err != nil {
						b.Error(err)
						return
					}
					if err := unlock(ctx); err != nil {
						b.Error(err)
						return
					}
				}
			})
		})
	}
}

// lockPathFor creates a fresh persistent lock path and removes it afterwards.
func lockPathFor(b *testing.B, cfg config) string {
	b.Helper()
	c, err := connect(context.Background(), cfg)
	if err != nil {
		b.Fatal(err)
	}
	path := fmt.Sprintf("/zklock-bench/go-test/%s-%d", strings.ReplaceAll(b.Name(), "/", "_"), time.Now().UnixNano())
	if err := createAll(c, path); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		deleteTree(c, path)
		c.Close()
	})
	return path
}

// TestStallMonitorSeesTheHolder: a holder that keeps the lock for longer than
// stallAfter while another client waits is a stall whose head is the
// holder's node, its owner the holder, holding; the waiter's grant ends it.
// The control: the same two clients without the long hold make no stall.
func TestStallMonitorSeesTheHolder(t *testing.T) {
	cfg := benchConfig(t)
	ctx := context.Background()
	admin, err := connect(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	cfg.admin = admin
	for _, hold := range []time.Duration{0, stallAfter + 600*time.Millisecond} {
		path := fmt.Sprintf("/zklock-bench/go-test/stall-%d", time.Now().UnixNano())
		if err := createAll(admin, path); err != nil {
			t.Fatal(err)
		}
		defer deleteTree(admin, path)
		var clients []lockClient
		for range 2 {
			c, err := dialZklock(ctx, cfg, path, false)
			if err != nil {
				t.Fatal(err)
			}
			defer c.close()
			clients = append(clients, c)
		}
		base := time.Now()
		since := func() int64 { return int64(time.Since(base)) }
		mon := newStallMonitor(cfg, path, clients, since, 0, base)
		mctx, stop := context.WithCancel(ctx)
		watched := make(chan struct{})
		go func() { defer close(watched); mon.watch(mctx) }()

		unlock0, err := clients[0].lock(ctx, true)
		if err != nil {
			t.Fatal(err)
		}
		first := since()
		mon.granted(0, first)
		mon.states[0].set(phaseHolding, since())
		mon.states[1].set(phaseAcquiring, since())
		got := make(chan error, 1)
		var unlock1 func(context.Context) error
		var second int64
		go func() {
			var err error
			unlock1, err = clients[1].lock(ctx, true)
			if err == nil {
				second = since()
				mon.granted(1, second)
			}
			got <- err
		}()
		time.Sleep(hold)
		mon.states[0].set(phaseReleasing, since())
		if err := unlock0(ctx); err != nil {
			t.Fatal(err)
		}
		if err := <-got; err != nil {
			t.Fatal(err)
		}
		unlock1(ctx)
		stop()
		<-watched
		stalls := mon.finish(since())
		if hold == 0 {
			// No stall unless the machine made one: a loaded machine may
			// itself keep a hand-off waiting past stallAfter.
			if gap := time.Duration(second - first); gap <= stallAfter && len(stalls) != 0 {
				t.Fatalf("no hold and a %v gap between the grants, yet stalls %+v", gap, stalls)
			}
			continue
		}
		if len(stalls) != 1 {
			t.Fatalf("a %v hold gave stalls %+v, want one", hold, stalls)
		}
		s := stalls[0]
		if !s.Probed || s.HeadOwner != 0 || s.HeadPhase != "holding" || !s.Ended || s.NextBy != 1 || s.Queue != 2 {
			t.Fatalf("stall %+v, want probed, head owned by client 0 holding, 2 queued, ended by client 1", s)
		}
		if on, _ := s.verdict(); !strings.Contains(on, "client 0 (holding") {
			t.Errorf("verdict %q", on)
		}
	}
}
