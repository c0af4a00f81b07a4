package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/zklock/zklock/bench/curator"
)

// curatorSpec is one run the harness is asked for.
type curatorSpec struct {
	kind    string
	clients int
	path    string
}

// runCurator runs the Curator harness once for all of a repetition's Curator
// runs: one JVM, so that its start and JIT warm-up are paid once, with the
// harness's own warm-up rounds before each measured window.
func runCurator(ctx context.Context, cfg config, h *curator.Harness, specs []curatorSpec) ([]run, error) {
	args := []string{"bench",
		"--servers", strings.Join(cfg.servers, ","),
		"--session-timeout-ms", fmt.Sprint(cfg.sessionTimeout.Milliseconds()),
		"--iterations", fmt.Sprint(cfg.iterations),
		"--warmup", fmt.Sprint(cfg.warmup),
		// A fresh JVM interprets before HotSpot compiles; ten times the
		// common warm-up, unmeasured, so that Curator is measured compiled,
		// as a long-running service would run it.
		"--jit-warmup", fmt.Sprint(10 * cfg.warmup),
		"--duration-ms", fmt.Sprint(cfg.duration.Milliseconds()),
		"--warm-ms", fmt.Sprint(cfg.warm.Milliseconds()),
		"--write-every", fmt.Sprint(cfg.writeEvery),
		"--failover-rounds", fmt.Sprint(cfg.failoverRounds),
		// LeaderLatch's first rounds run interpreted: as many again,
		// unmeasured, as the Go side's 3 warm-up rounds and then some.
		"--failover-warmup", fmt.Sprint(10 + cfg.failoverRounds/2),
	}
	for _, s := range specs {
		args = append(args, "--run", fmt.Sprintf("%s:%d:%s", s.kind, s.clients, s.path))
	}
	// A small serial heap, as the ensemble's servers get, but the default JIT:
	// C1-only would handicap Curator.
	cmd := h.Command(ctx, []string{"-XX:+UseSerialGC", "-Xmx256m"}, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("curator harness: %w\n%s", err, tail(stderr.String(), 2000))
	}
	var runs []run
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var r run
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("curator harness output %q: %w", tail(sc.Text(), 200), err)
		}
		runs = append(runs, r)
	}
	if len(runs) != len(specs) {
		return nil, fmt.Errorf("curator harness: %d results for %d runs\n%s", len(runs), len(specs), tail(stderr.String(), 2000))
	}
	return runs, nil
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}
