package load

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// kinds returns the findings' kinds in order.
func kinds(fs []Finding) string {
	var k []string
	for _, f := range fs {
		k = append(k, f.Kind)
	}
	return strings.Join(k, ",")
}

// A healthy run has no finding; each kind of failure is one, and so the
// verdict can fail (the positive controls of Judge).
func TestJudge(t *testing.T) {
	bound := 5 * time.Second
	healthy := func() *Result {
		return &Result{
			Sessions: []SessionStats{{Name: "s1", Leases: 4, Replies: 80_000, Held: 40 * time.Second}},
			Waiters:  []SessionStats{{Name: "w1"}},
			Rounds:   []Round{{Path: "/q", Waiters: 10, Queued: 10, Granted: 10, Slowest: time.Second}},
			Acquires: Acquires{Count: 20, Slowest: time.Second},
		}
	}
	if f := Judge(healthy(), bound); len(f) != 0 {
		t.Fatalf("healthy run: findings %v", f)
	}
	cases := []struct {
		name  string
		spoil func(*Result)
		want  string
	}{
		{"busy session lost", func(r *Result) {
			r.Sessions[0].SessionLost, r.Sessions[0].LostAfter = "no sync proved", 8*time.Second
			r.Sessions[0].Lost = []LeaseLoss{{Path: "/l0", Reason: "lock lost", After: 8 * time.Second}}
		}, "session-lost,lease-lost"},
		{"waiter session lost", func(r *Result) { r.Waiters[0].SessionLost = "expired" }, "session-lost"},
		{"slow acquisition", func(r *Result) {
			r.Acquires.Slow = []SlowAcquire{{Session: "s1", Path: "/l1", Took: 6 * time.Second}}
		}, "slow-acquire"},
		{"slow hand-off", func(r *Result) { r.Rounds[0].Slowest = bound + time.Millisecond }, "slow-hand-off"},
		{"waiter never granted", func(r *Result) { r.Rounds[0].Granted = 9 }, "not-granted"},
	}
	for _, c := range cases {
		r := healthy()
		c.spoil(r)
		if got := kinds(Judge(r, bound)); got != c.want {
			t.Errorf("%s: findings %q, want %q", c.name, got, c.want)
		}
	}
	// A round cut short by the campaign (an error, reported as such) is not
	// judged for waiters that were never let through.
	r := healthy()
	r.Rounds[0].Granted, r.Rounds[0].Cut = 0, true
	if f := Judge(r, bound); len(f) != 0 {
		t.Errorf("a round cut short: findings %v", f)
	}
}

func TestRateUntilLoss(t *testing.T) {
	s := SessionStats{Replies: 14_000, Held: 10 * time.Second}
	if got := s.Rate(); got != 1400 {
		t.Errorf("rate %v, want 1400", got)
	}
	if got := (SessionStats{Replies: 5}).Rate(); got != 0 {
		t.Errorf("rate of a session that never held: %v, want 0", got)
	}
}

func TestDrainStats(t *testing.T) {
	t0 := time.Unix(1000, 0)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	// Out of order, as goroutines append them.
	drain, slowest := drainStats(t0, []time.Time{at(30), at(10), at(700), at(40)})
	if drain != 700*time.Millisecond || slowest != 660*time.Millisecond {
		t.Errorf("drain %v slowest %v, want 700ms and 660ms", drain, slowest)
	}
	// The first grant counts from the release.
	if _, slowest := drainStats(t0, []time.Time{at(900), at(901)}); slowest != 900*time.Millisecond {
		t.Errorf("slowest %v, want 900ms (from the release)", slowest)
	}
	if d, s := drainStats(t0, nil); d != 0 || s != 0 {
		t.Errorf("no grant: %v %v", d, s)
	}
}

func TestParseWchs(t *testing.T) {
	n, err := parseWchs("3 connections watching 5 paths\nTotal watches:7\n")
	if err != nil || n != 7 {
		t.Errorf("parseWchs: %d, %v; want 7", n, err)
	}
	if _, err := parseWchs("wchs is not executed because it is not in the whitelist.\n"); err == nil {
		t.Error("a refusal parsed as a count")
	}
}

// A server that does not answer counts -1, is left out of the total, and
// its error is returned; the others are counted.
func TestTakeSample(t *testing.T) {
	defer func(f func(context.Context, string, string) (string, error)) { fourLetter = f }(fourLetter)
	fourLetter = func(_ context.Context, addr, cmd string) (string, error) {
		if cmd != "wchs" {
			t.Errorf("four-letter word %q, want wchs", cmd)
		}
		if addr == "down:1" {
			return "", errors.New("connection refused")
		}
		return "1 connections watching 2 paths\nTotal watches:4\n", nil
	}
	s, err := takeSample(context.Background(), []string{"a:1", "down:1", "b:1"}, "run", time.Second)
	if err == nil || !strings.Contains(err.Error(), "down:1") {
		t.Errorf("error %v, want one naming down:1", err)
	}
	if s.TotalWatches() != 8 || len(s.Watches) != 3 || s.Watches[1] != -1 {
		t.Errorf("watches %v (total %d), want [4 -1 4]", s.Watches, s.TotalWatches())
	}
	if s.Goroutines < 1 || s.HeapBytes == 0 || s.Label != "run" {
		t.Errorf("runtime counters not read: %+v", s)
	}
}

func TestValidate(t *testing.T) {
	good := Config{Sessions: 2, Workers: 8, GuardEvery: 16, LocksPerS: 4, Waiters: 100, WaiterSessions: 4,
		AcquireBound: 5 * time.Second, SampleEvery: 10 * time.Second}
	if err := good.Validate(); err != nil {
		t.Fatalf("good config: %v", err)
	}
	for name, spoil := range map[string]func(*Config){
		"--load-sessions":    func(c *Config) { c.Sessions = 0 },
		"--load-workers":     func(c *Config) { c.Workers = 0 },
		"--load-rate":        func(c *Config) { c.Rate = -1 },
		"--load-guard-every": func(c *Config) { c.GuardEvery = -1 },
		"--load-locks":       func(c *Config) { c.LocksPerS = 0 },
		"--waiters":          func(c *Config) { c.Waiters = -1 },
		"--waiter-sessions":  func(c *Config) { c.WaiterSessions = 0 },
		"--acquire-bound":    func(c *Config) { c.AcquireBound = 0 },
		"--sample-every":     func(c *Config) { c.SampleEvery = time.Millisecond },
		"--load-recipe":      func(c *Config) { c.Recipe = "barrier" },
		"--max":              func(c *Config) { c.Recipe, c.Max = RecipeSemaphore, 0 },
	} {
		c := good
		spoil(&c)
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: error %v, want one naming it", name, err)
		}
	}
}
