package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
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
	if len(specs) == 0 {
		return nil, nil
	}
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
		"--hold-us", fmt.Sprint(cfg.hold.Microseconds()),
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
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, fmt.Errorf("curator harness: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("curator harness: %w", err)
	}
	runs, readErr := readCuratorRuns(ctx, cfg, stdout)
	if readErr != nil {
		io.Copy(io.Discard, stdout) // let the harness finish writing, so that Wait returns
	}
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("curator harness: %w\n%s", err, tail(stderr.String(), 2000))
	}
	if readErr != nil {
		return nil, readErr
	}
	if len(runs) != len(specs) {
		return nil, fmt.Errorf("curator harness: %d results for %d runs\n%s", len(runs), len(specs), tail(stderr.String(), 2000))
	}
	return runs, nil
}

// readCuratorRuns reads the harness's results, one JSON object per line.
// Between a window's open and close markers the servers are asked for
// their mntr counters, as the Go runs' windows are (watchServers), and the
// load between them goes with the next result: the harness prints its
// markers as the window opens and closes, so the snapshots are late by a
// pipe's latency and an mntr round, as the Go runs' are by the latter.
func readCuratorRuns(ctx context.Context, cfg config, out io.Reader) ([]run, error) {
	var (
		runs   []run
		opened mntrCounters
		isOpen bool
		load   *serverLoad
	)
	sc := bufio.NewScanner(out)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var line struct {
			Window string `json:"window"` // "open" or "close": a marker, not a result
			run
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			return nil, fmt.Errorf("curator harness output %q: %w", tail(sc.Text(), 200), err)
		}
		switch line.Window {
		case "open":
			opened, isOpen = mntrSnapshot(ctx, cfg.servers)
			load = nil
		case "close":
			if closed, ok := mntrSnapshot(ctx, cfg.servers); ok && isOpen {
				load = loadBetween(opened, closed)
			}
			isOpen = false
		case "":
			line.run.Server, load = load, nil
			runs = append(runs, line.run)
		default:
			return nil, fmt.Errorf("curator harness output %q: unknown window marker", tail(sc.Text(), 200))
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("curator harness output: %w", err)
	}
	return runs, nil
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "..." + s[len(s)-n:]
}
