// Command zkensemble starts and stops a long-lived local ZooKeeper ensemble
// for development, so that test runs can share one instead of starting their
// own:
//
//	eval "$(go run ./cmd/zkensemble up)"   # prints export ZKLOCK_SERVERS=...
//	go run ./cmd/zkensemble status
//	go run ./cmd/zkensemble down
//
// The servers outlive the command. Their pids, ports and directories are
// recorded in .ensemble/state.json under the repository root, and their data
// and logs live under .ensemble/ too.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/zklock/zklock/ensemble"
)

const usage = `usage: zkensemble <command> [flags]

commands:
  up      start a detached ensemble (or reuse the running one) and print
          export ZKLOCK_SERVERS=... on stdout
  down    kill the ensemble's servers and remove their directories
  status  show each server's pid, address and mode

flags (after the command):
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	cmd := args[0]
	fs := flag.NewFlagSet("zkensemble "+cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, usage); fs.PrintDefaults() }
	statePath := fs.String("state", "", "state file (default .ensemble/state.json under the repository root)")
	servers := fs.Int("n", ensemble.DefaultServers, "up: number of servers")
	tick := fs.Duration("tick", ensemble.DefaultTickTime, "up: ZooKeeper tickTime")
	timeout := fs.Duration("timeout", 2*time.Minute, "up: how long to wait for a healthy ensemble")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	if *statePath == "" {
		root, err := repoRoot()
		if err != nil {
			fmt.Fprintln(stderr, "zkensemble:", err)
			return 1
		}
		*statePath = defaultStatePath(root)
	}
	var err error
	switch cmd {
	case "up":
		ctx, cancel := context.WithTimeout(context.Background(), *timeout)
		defer cancel()
		err = up(ctx, *statePath, ensemble.Config{Servers: *servers, TickTime: *tick}, stdout, stderr)
	case "down":
		err = down(*statePath, stderr)
	case "status":
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		err = status(ctx, *statePath, stdout)
	default:
		fs.Usage()
		return 2
	}
	if err != nil {
		fmt.Fprintln(stderr, "zkensemble:", err)
		return 1
	}
	return 0
}

func exportLine(st ensemble.State) string {
	return "export ZKLOCK_SERVERS=" + strings.Join(st.Addrs(), ",")
}

func up(ctx context.Context, statePath string, cfg ensemble.Config, stdout, stderr io.Writer) error {
	old, err := readState(statePath)
	switch {
	case err == nil && allRunning(old):
		fmt.Fprintf(stderr, "zkensemble: already up (state %s)\n", statePath)
		fmt.Fprintln(stdout, exportLine(old))
		return nil
	case err == nil:
		fmt.Fprintln(stderr, "zkensemble: removing a stale ensemble whose servers are not all running")
		if err := ensemble.Teardown(old); err != nil {
			return err
		}
		if err := os.Remove(statePath); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	case !errors.Is(err, os.ErrNotExist):
		return err
	}
	cfg.Detached = true
	cfg.Dir = stateDir(statePath)
	start := time.Now()
	e, err := ensemble.Start(ctx, cfg)
	if err != nil {
		return err
	}
	st := e.State()
	if err := writeState(statePath, st); err != nil {
		return errors.Join(err, e.Stop())
	}
	fmt.Fprintf(stderr, "zkensemble: %d servers healthy after %v; logs:\n", len(st.Servers), time.Since(start).Round(time.Millisecond))
	for _, ss := range st.Servers {
		fmt.Fprintf(stderr, "  server %d pid %d %s  %s\n", ss.ID, ss.PID, ss.Addr, ss.Log)
	}
	fmt.Fprintln(stdout, exportLine(st))
	return nil
}

func allRunning(st ensemble.State) bool {
	for _, ss := range st.Servers {
		if !ss.Running() {
			return false
		}
	}
	return len(st.Servers) > 0
}

func down(statePath string, stderr io.Writer) error {
	st, err := readState(statePath)
	if errors.Is(err, os.ErrNotExist) {
		fmt.Fprintln(stderr, "zkensemble: no ensemble is up")
		return nil
	}
	if err != nil {
		return err
	}
	if err := ensemble.Teardown(st); err != nil {
		return err
	}
	if err := os.Remove(statePath); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	fmt.Fprintf(stderr, "zkensemble: stopped %d servers\n", len(st.Servers))
	return nil
}

func status(ctx context.Context, statePath string, stdout io.Writer) error {
	st, err := readState(statePath)
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("no ensemble is up (no %s)", statePath)
	}
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, exportLine(st))
	healthy := true
	for _, ss := range st.Servers {
		mode := "not running"
		if ss.Running() {
			out, err := ensemble.FourLetterWord(ctx, ss.Addr, "srvr")
			if err == nil {
				var s ensemble.Stat
				s, err = ensemble.ParseSrvr(out)
				mode = string(s.Mode)
			}
			if err != nil {
				mode = err.Error()
			}
		}
		if mode != string(ensemble.ModeLeader) && mode != string(ensemble.ModeFollower) && mode != string(ensemble.ModeStandalone) {
			healthy = false
		}
		fmt.Fprintf(stdout, "server %d  pid %-7d %-16s %s  log %s\n", ss.ID, ss.PID, ss.Addr, mode, ss.Log)
	}
	if !healthy {
		return errors.New("ensemble is not healthy")
	}
	return nil
}
