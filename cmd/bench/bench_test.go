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
	for _, bad := range [][]string{{"--impl", "etcd"}, {"--clients", "0"}, {"--reps", "0"}, {"extra"}} {
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
		{Impl: implZklock, Kind: kindUncontended, Clients: 1, Ops: 50, Elapsed: time.Second, Latency: ms(2, 2, 2)},
		{Impl: implZklock, Kind: kindContended, Clients: 1, Ops: 50, Elapsed: time.Second, Latency: ms(2)},
		{Impl: implZklock, Kind: kindContended, Clients: 4, Ops: 500, Elapsed: time.Second, Latency: ms(8), Handoff: ms(1.5)},
		{Impl: implZklock, Kind: kindReadMostly, Clients: 4, Ops: 1000, Elapsed: time.Second, Latency: ms(4)},
	}
	out := renderReport(cfg, facts{}, runs)
	for _, want := range []string{
		"| zklock Mutex | 2.00 ms (2.00–2.00) | 2.00 ms (2.00–2.00) | 50 (50–50) | 2.00× (2.00–2.00) | 1.00× (1.00–1.00) |",
		// Ceiling 1 / 0.5 ms = 2000/s; zklock's 500/s is a quarter of it;
		// its hand-off three times the floor's.
		"| 4 | floor: 1 / mean floor hand-off (ceiling) | 2000 (2000–2000) | 1 | 4.00× (4.00–4.00) |",
		"| 4 | zklock Mutex | 500 (500–500) | 0.25× (0.25–0.25) |",
		"1.50 ms (1.50–1.50) | 1.50 ms (1.50–1.50) | 3.00× (3.00–3.00) | 1.00× (1.00–1.00) |",
		"| 4 | zklock RWMutex | 1000 (1000–1000) | 2.00× (2.00–2.00) |",
		"None: every measured window had grants",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	runs[4].Ops, runs[4].Latency = 0, nil
	if out := renderReport(cfg, facts{}, runs); !strings.Contains(out, "- rep 1, zklock contended N=4: 0 acquisitions") {
		t.Errorf("a window without grants is not reported as a stall:\n%s", out)
	}
}

func benchConfig(b *testing.B) config {
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
