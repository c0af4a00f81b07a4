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

	"github.com/zklock/zklock/checker"
	"github.com/zklock/zklock/ensemble"
	htmlreport "github.com/zklock/zklock/internal/chaos/report"
	"github.com/zklock/zklock/model/trace"
)

// Exit statuses.
const (
	exitPass      = 0
	exitViolation = 1
	exitSetup     = 2
	exitUndecided = 3
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
	out, err := prepareOut(cfg.Out)
	if err != nil {
		oneLine(stderr, err)
		return exitSetup
	}
	notes := stderr
	if cfg.Quiet {
		notes = io.Discard
	}

	var clu cluster
	switch {
	case opt.ensemble != nil:
		clu = &localCluster{e: opt.ensemble}
	case len(cfg.Servers) > 0:
		clu, err = openExternal(ctx, cfg.Servers, cfg.KillCmd, cfg.TickTime, cfg.SyncLimit)
	default:
		fmt.Fprintln(notes, "chaos: starting a local 3-node ensemble...")
		clu, err = startLocal(ctx, cfg.SyncLimit)
	}
	if err != nil {
		out.discard()
		oneLine(stderr, err)
		return exitSetup
	}
	started := time.Now()
	sched := makeSchedule(scheduleParams{Seed: cfg.Seed, Kinds: cfg.Faults, Duration: cfg.Duration,
		Interval: cfg.FaultInterval, SessionTimeout: cfg.SessionTimeout})
	c := &campaign{cfg: cfg, out: out, clu: clu, sched: sched, stderr: notes}
	if err := c.setup(ctx); err != nil {
		clu.Close("")
		out.discard()
		oneLine(stderr, err)
		return exitSetup
	}
	fmt.Fprintf(notes, "chaos: %s; seed %d; output in %s\n", clu.Describe(), cfg.Seed, out.path)
	printSchedule(notes, cfg.Seed, sched)

	c.run(ctx)
	c.teardown()

	r := c.finish(started)
	keep := ""
	if r.ExitCode != exitPass {
		keep = out.path
	}
	if err := clu.Close(keep); err != nil {
		fmt.Fprintln(stderr, "chaos: stopping the ensemble:", err)
	}
	writeSummary(stdout, r, out.path)
	return r.ExitCode
}

// finish checks the history, writes check.txt and report.json, and decides
// the exit status.
func (c *campaign) finish(started time.Time) *report {
	cfg := c.cfg
	r := &report{
		Started: started, Elapsed: c.elapsed.Round(time.Second).String(), Config: cfg, Seed: cfg.Seed,
		Replay: replayCommand(cfg), Target: c.clu.Describe(), Root: c.root, Interrupted: c.interrupted,
		Schedule: c.sched, Faults: c.events, FaultCounts: countFaults(c.sched, c.events),
		Sessions: c.w.mon.sessions.Load(), Live: c.w.mon.examplesSoFar(),
		Files: map[string]any{"history": "history.jsonl"},
	}
	if r.Schedule == nil {
		r.Schedule = []plannedFault{}
	}
	h, err := checker.LoadFile(c.out.file("history.jsonl"))
	var res *checker.Result
	if err != nil {
		c.fail("reading the history back: %v", err)
	} else {
		r.Operations = countOps(h)
		fmt.Fprintf(c.stderr, "chaos: checking %d records...\n", len(h))
		res, err = checker.Check(h, checker.Options{Timeout: cfg.CheckTimeout, HTMLDir: c.out.path})
		if err != nil {
			c.fail("checking: %v", err)
		} else {
			r.Check = summarizeCheck(res, c.out.path)
			if f, err := os.Create(c.out.file("check.txt")); err == nil {
				res.WriteReport(f)
				f.Close()
				r.Files["check"] = "check.txt"
			}
			if html := res.HTML(); len(html) > 0 {
				var rel []string
				for _, p := range html {
					rel = append(rel, relTo(c.out.path, p))
				}
				r.Files["html"] = rel
			}
		}
	}
	if c.w.traces != nil {
		r.Trace = c.validateTrace()
		r.Files["trace"] = "trace.jsonl"
		if r.Trace != nil && r.Trace.Report != "" {
			r.Files["trace_check"] = r.Trace.Report
		}
	}
	acquired := 0
	for _, o := range r.Operations {
		if o.Kind == checker.KindAcquire {
			acquired = o.OK
		}
	}
	traced := c.w.traces == nil || r.Trace != nil
	switch {
	case r.Check != nil && r.Check.Verdict == checker.VerdictFail, r.Trace != nil && r.Trace.Verdict == trace.Invalid:
		r.Verdict, r.ExitCode = "fail", exitViolation
	case r.Check == nil || !traced || len(c.errors()) > 0:
		r.Verdict, r.ExitCode = "error", exitSetup
	case acquired == 0:
		c.fail("no lock was ever acquired: the campaign proves nothing")
		r.Verdict, r.ExitCode = "error", exitSetup
	case r.Check.Verdict == checker.VerdictUnknown, r.Trace != nil && r.Trace.Verdict != trace.Valid:
		r.Verdict, r.ExitCode = "unknown", exitUndecided
	default:
		r.Verdict, r.ExitCode = "pass", exitPass
	}
	if r.ExitCode != exitPass && len(cfg.Servers) == 0 {
		r.Files["server_logs"] = "zk*.log"
	}
	r.Errors = c.errors()
	r.Files["html_report"] = "report.html"
	r.page = pageOf(r, h, res)
	sum := htmlreport.Summarize(r.page)
	r.Summary = &sum
	if err := writeHTML(c.out.file("report.html"), r.page); err != nil {
		c.fail("writing report.html: %v", err)
		r.Errors = c.errors()
		delete(r.Files, "html_report")
	}
	if err := writeJSON(c.out.file("report.json"), r); err != nil {
		fmt.Fprintln(c.stderr, "chaos: writing report.json:", err)
		if r.ExitCode == exitPass {
			r.ExitCode = exitSetup
		}
	}
	return r
}

// oneLine prints err as the single line of a usage or set-up failure.
func oneLine(w io.Writer, err error) {
	msg := strings.Join(strings.Fields(strings.ReplaceAll(err.Error(), "\n", "; ")), " ")
	var se *setupError
	if errors.As(err, &se) {
		msg = strings.Join(strings.Fields(strings.ReplaceAll(se.err.Error(), "\n", "; ")), " ")
	}
	fmt.Fprintf(w, "chaos: %s\n", msg)
}
