package main

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestParseQueue(t *testing.T) {
	for in, want := range map[string]string{"16,1024,4096": "[16 1024 4096]", " 16 , 16,8 ": "[16 8]", "": "[]"} {
		got, err := parseQueue(in)
		if err != nil || fmt.Sprint(got) != want {
			t.Errorf("parseQueue(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
	for _, bad := range []string{"0", "-4", "x"} {
		if _, err := parseQueue(bad); err == nil {
			t.Errorf("parseQueue(%q) accepted it", bad)
		}
	}
	for args, want := range map[string]string{"": "[16 1024 4096]", "--quick": "[16 256]", "--queue=": "[]"} {
		cfg, err := parseFlags(strings.Fields(args), &strings.Builder{})
		if err != nil || fmt.Sprint(cfg.queue) != want || cfg.queueSessions != 16 {
			t.Errorf("%q: queue %v over %d sessions, %v; want %s over 16", args, cfg.queue, cfg.queueSessions, err, want)
		}
	}
	if _, err := parseFlags([]string{"--queue-sessions", "0"}, &strings.Builder{}); err == nil {
		t.Error("--queue-sessions 0 accepted")
	}
}

// TestRenderQueue checks the queue section on made-up runs whose answers
// are known.
func TestRenderQueue(t *testing.T) {
	cfg, err := parseFlags([]string{"--reps", "2", "--impl", "zklock,zk.Lock", "--queue", "16,1024", "--locks=false",
		"--rw=false", "--failover", "", "--semaphore", ""}, &strings.Builder{})
	if err != nil {
		t.Fatal(err)
	}
	var runs []run
	for rep := range 2 {
		for _, n := range []int{16, 1024} {
			// zklock drains 16 in 0.1 s (160/s) and 1024 in 8 and 4 s
			// (128 and 256/s); zk.Lock drains at 64/s every time.
			drain := 100 * time.Millisecond
			if n == 1024 {
				drain = time.Duration(8>>rep) * time.Second
			}
			zk := run{Impl: implZklock, Kind: kindQueue, Clients: n, Ops: int64(n), Elapsed: drain, Join: time.Second,
				Handoff: ms(3), Rep: rep, Server: &serverLoad{Requests: float64(3 * n)}, JoinLoad: &serverLoad{Requests: float64(4 * n)}}
			zkl := run{Impl: implZkLock, Kind: kindQueue, Clients: n, Ops: int64(n), Elapsed: time.Duration(n) * time.Second / 64,
				Join: 500 * time.Millisecond, Handoff: ms(2), Rep: rep}
			runs = append(runs, zk, zkl)
		}
	}
	out := renderReport(cfg, facts{}, runs, nil)
	for _, want := range []string{
		"## Queue: N waiters on one path, join and drain",
		"| zklock Mutex | 1024 | 1000.00 ms (1000.00–1000.00) | 4.0 (4.0–4.0) | 192 (128–256) | 1.20× (0.80–1.60) | 3.00× (2.00–4.00) | 3.00 ms (3.00–3.00) | 3.0 (3.0–3.0) | 7.0 (7.0–7.0) |",
		"| go-zookeeper zk.Lock | 1024 | 500.00 ms (500.00–500.00) | — | 64 (64–64) | 1.00× (1.00–1.00) | — | 2.00 ms (2.00–2.00) | — | — |",
		"N = 1024: drain 1.20× (0.80–1.60) of zklock's own N = 16 rate and 3.00× (2.00–4.00) of zk.Lock's, join 2.00× (2.00–2.00) of zk.Lock's time.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}
