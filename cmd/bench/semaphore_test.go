package main

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestParseMaxes(t *testing.T) {
	for in, want := range map[string]string{"1,3,8": "[1 3 8]", " 3 , 3,1 ": "[3 1]", "": "[]", ",": "[]"} {
		got, err := parseMaxes(in)
		if err != nil || fmt.Sprint(got) != want {
			t.Errorf("parseMaxes(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
	for _, bad := range []string{"0", "-1", "x", "1,10000"} {
		if _, err := parseMaxes(bad); err == nil {
			t.Errorf("parseMaxes(%q) accepted it", bad)
		}
	}
}

func TestParseFlagsSemaphore(t *testing.T) {
	for _, c := range []struct {
		args  []string
		maxes string
		locks bool
	}{
		{nil, "[1 3 8]", true},
		{[]string{"--quick"}, "[3]", true},
		{[]string{"--quick", "--semaphore", "1,8"}, "[1 8]", true},
		{[]string{"--semaphore", "", "--locks=false"}, "[]", false},
	} {
		cfg, err := parseFlags(c.args, &strings.Builder{})
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(cfg.semaphores) != c.maxes || cfg.locks != c.locks {
			t.Errorf("%q: semaphores %v, locks %v; want %s, %v", c.args, cfg.semaphores, cfg.locks, c.maxes, c.locks)
		}
	}
	if _, err := parseFlags([]string{"--semaphore", "0"}, &strings.Builder{}); err == nil {
		t.Error("--semaphore 0 accepted")
	}
}

// TestRenderSemaphore checks the semaphore section on made-up runs whose
// answers are known, and that --locks=false leaves the lock sections out.
func TestRenderSemaphore(t *testing.T) {
	cfg, err := parseFlags([]string{"--reps", "2", "--clients", "4,16", "--impl", "zklock,curator", "--semaphore", "3",
		"--locks=false", "--rw=false", "--failover", ""}, &strings.Builder{})
	if err != nil {
		t.Fatal(err)
	}
	var runs []run
	for rep := range 2 {
		for _, n := range []int{4, 16} {
			// zklock 600 and 660/s, Curator 400 and 600/s: ratios 1.5 and 1.1.
			zk := run{Impl: implZklock, Kind: semaphoreKind(3), Clients: n, Ops: int64(600 + 60*rep), Elapsed: time.Second,
				Latency: ms(2), Rep: rep, Server: &serverLoad{Requests: float64(7 * (600 + 60*rep))}}
			cur := run{Impl: implCurator, Kind: semaphoreKind(3), Clients: n, Ops: int64(400 + 200*rep), Elapsed: time.Second,
				Latency: ms(3), Rep: rep}
			if rep == 0 {
				cur.Server = &serverLoad{Requests: 8 * 400}
			}
			runs = append(runs, zk, cur)
		}
	}
	out := renderReport(cfg, facts{}, runs, nil)
	for _, want := range []string{
		"## Semaphore: N clients on one semaphore of max leases",
		// Curator's second repetition has no mntr numbers: its median is the first's.
		"| 3 | 16 | 630 (600–660) | 500 (400–600) | 1.30× (1.10–1.50) | 2.00 ms (2.00–2.00) | 3.00 ms (3.00–3.00) | 7.0 (7.0–7.0) | 8.0 (8.0–8.0) |",
		"zklock ÷ Curator at 16 clients: max 3: 1.30× (1.10–1.50).",
		"| semaphore | max 3 leases;",
		"--locks=false --rw=false --failover ''` on",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	for _, absent := range []string{"## Targets", "## Uncontended", "## Contended", "## What the floor is", "## Read-mostly"} {
		if strings.Contains(out, absent) {
			t.Errorf("--locks=false --rw=false report has %q", absent)
		}
	}
	// No 16 clients, no sentence about the goal at 16 clients.
	cfg.clients = []int{4}
	if out := renderReport(cfg, facts{}, runs, nil); strings.Contains(out, "at 16 clients: max") {
		t.Errorf("a run without 16 clients states the ratio at 16:\n%s", out)
	}
}

// TestReadCuratorRuns: a window's markers give the next result the servers'
// load (here of no servers: zero requests); a result without markers, none.
func TestReadCuratorRuns(t *testing.T) {
	out := strings.Join([]string{
		`{"impl":"curator","kind":"uncontended","clients":1,"ops":3,"elapsed_ns":1000,"latency_ns":[1,2,3],"handoff_ns":[]}`,
		`{"window":"open"}`,
		`{"window":"close"}`,
		`{"impl":"curator","kind":"semaphore-3","clients":4,"ops":5,"elapsed_ns":2000,"latency_ns":[4],"handoff_ns":[]}`,
		`{"impl":"curator","kind":"failover-resign","clients":0,"ops":1,"elapsed_ns":3000,"latency_ns":[5],"handoff_ns":[]}`,
	}, "\n")
	runs, err := readCuratorRuns(context.Background(), config{}, strings.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 3 {
		t.Fatalf("%d runs, want 3: %+v", len(runs), runs)
	}
	if runs[0].Server != nil || runs[2].Server != nil {
		t.Errorf("a run outside any window has a server load: %+v %+v", runs[0].Server, runs[2].Server)
	}
	if r := runs[1]; r.Server == nil || r.Server.Requests != 0 || r.Kind != "semaphore-3" || r.Ops != 5 || r.Elapsed != 2000 {
		t.Errorf("the windowed run reads %+v (server %+v)", r, r.Server)
	}
	if _, err := readCuratorRuns(context.Background(), config{}, strings.NewReader(`{"window":"ajar"}`)); err == nil {
		t.Error("an unknown marker was accepted")
	}
}
