// Command chaos runs chaos campaigns against ZooKeeper locks and checks what
// happened: clients contend for locks through fault-injecting proxies while a
// seeded schedule severs, blackholes and delays their connections, cuts the
// replies of their creates, freezes them, and kills and pauses servers. Every
// acquire, release, lost lease, fenced write and read is recorded in one
// history, which package checker then checks for linearizability and with
// direct invariant checks.
//
//	go run ./cmd/chaos                                 # 3 minutes, all faults, local ensemble
//	go run ./cmd/chaos --duration 30s --seed 7         # replay seed 7's schedule
//	go run ./cmd/chaos --lock=zk --faults blackhole-holder   # control: must exit 1
//	go run ./cmd/chaos --no-fence --faults freeze-client     # control: must exit 1
//	go run ./cmd/chaos --no-acl --faults intruder            # control: must exit 1
//	go run ./cmd/chaos --load --duration 40s                 # no faults: availability under load
//
// Exit status: 0 pass, 1 violation, 2 usage or set-up error, 3 undecided.
// See --help for every flag.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/zklock/zklock/cmd/chaos/internal/campaign"
	"github.com/zklock/zklock/cmd/chaos/internal/nemesis"
	"github.com/zklock/zklock/cmd/chaos/internal/report"
	"github.com/zklock/zklock/cmd/chaos/internal/schedule"
	"github.com/zklock/zklock/ensemble"
)

// Exit statuses.
const (
	exitPass      = report.ExitPass
	exitViolation = report.ExitViolation
	exitSetup     = report.ExitSetup
	exitUndecided = report.ExitUndecided
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		// The first signal ends the campaign early (faults heal, what was
		// recorded is checked); from then on a second one kills the process.
		select {
		case <-ctx.Done():
			fmt.Fprintln(os.Stderr, "\nchaos: interrupted: healing, then checking what was recorded (interrupt again to abort)")
			stop()
		case <-done:
		}
	}()
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr, options{})
	close(done)
	stop()
	os.Exit(code)
}

// options are what tests change about a run.
type options struct {
	// ensemble, if set, is used instead of starting a local one: healed, not
	// stopped, at the end.
	ensemble *ensemble.Ensemble
}

// run is the whole command; it returns the exit status.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, opt options) int {
	cfg, err := parseConfig(args, stdout)
	if err != nil {
		oneLine(stderr, err)
		return exitSetup
	}
	if cfg == nil {
		return exitPass // --help
	}
	out, err := campaign.PrepareOut(cfg.Out)
	if err != nil {
		oneLine(stderr, err)
		return exitSetup
	}
	notes := stderr
	if cfg.Quiet {
		notes = io.Discard
	}

	var clu nemesis.Cluster
	switch {
	case opt.ensemble != nil:
		clu = nemesis.SharedLocal(opt.ensemble)
	case len(cfg.Servers) > 0:
		clu, err = nemesis.OpenExternal(ctx, cfg.Servers, cfg.KillCmd, cfg.TickTime, cfg.SyncLimit)
	case cfg.TLS:
		fmt.Fprintln(notes, "chaos: starting a local 3-node ensemble serving TLS...")
		clu, err = nemesis.StartLocalTLS(ctx, cfg.SyncLimit)
	default:
		fmt.Fprintln(notes, "chaos: starting a local 3-node ensemble...")
		clu, err = nemesis.StartLocal(ctx, cfg.SyncLimit)
	}
	if err != nil {
		out.Discard()
		oneLine(stderr, err)
		return exitSetup
	}
	if cfg.Load != nil {
		return runLoad(ctx, cfg, clu, out, stdout, notes)
	}
	started := time.Now()
	sched := schedule.Make(schedule.Params{Seed: cfg.Seed, Kinds: cfg.Faults, Duration: cfg.Duration,
		Interval: cfg.FaultInterval, SessionTimeout: cfg.SessionTimeout})
	c := &campaign.Campaign{Cfg: cfg, Out: out, Clu: clu, Sched: sched, Stderr: notes}
	if err := c.Setup(ctx); err != nil {
		clu.Close("")
		out.Discard()
		oneLine(stderr, err)
		return exitSetup
	}
	fmt.Fprintf(notes, "chaos: %s; seed %d; output in %s\n", clu.Describe(), cfg.Seed, out.Path)
	schedule.Print(notes, cfg.Seed, sched)

	c.Run(ctx)
	c.Teardown()

	r := report.Finish(c, started)
	keep := ""
	if r.ExitCode != exitPass {
		keep = out.Path
	}
	if err := clu.Close(keep); err != nil {
		fmt.Fprintln(stderr, "chaos: stopping the ensemble:", err)
	}
	report.WriteTable(stdout, r, out.Path)
	return r.ExitCode
}

// oneLine prints err as the single line of a usage or set-up failure.
func oneLine(w io.Writer, err error) {
	msg := strings.Join(strings.Fields(strings.ReplaceAll(err.Error(), "\n", "; ")), " ")
	var se *campaign.SetupError
	if errors.As(err, &se) {
		msg = strings.Join(strings.Fields(strings.ReplaceAll(se.Err.Error(), "\n", "; ")), " ")
	}
	fmt.Fprintf(w, "chaos: %s\n", msg)
}
