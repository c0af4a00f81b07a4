package report

import (
	"fmt"
	"time"

	"github.com/zklock/zklock/checker"
	camp "github.com/zklock/zklock/cmd/chaos/internal/campaign"
	"github.com/zklock/zklock/cmd/chaos/internal/schedule"
	"github.com/zklock/zklock/cmd/chaos/internal/validate"
	"github.com/zklock/zklock/model/trace"
)

// The command's exit statuses, which a report records.
const (
	ExitPass      = 0 // the checks passed
	ExitViolation = 1 // a check found a violation
	ExitSetup     = 2 // bad usage, a set-up error, or a campaign that proves nothing
	ExitUndecided = 3 // a check could not decide within its budget
)

// Finish checks the history and the trace of a campaign that has run and
// torn down, decides the verdict and exit status, and writes report.html
// and report.json to its output directory.
func Finish(c *camp.Campaign, started time.Time) *Report {
	cfg := c.Cfg
	r := &Report{
		Started: started, Elapsed: c.Elapsed.Round(time.Second).String(), Config: cfg, Seed: cfg.Seed,
		Replay: ReplayCommand(cfg), Target: c.Clu.Describe(), Root: c.Root, Interrupted: c.Interrupted,
		Schedule: c.Sched, Faults: c.Events, FaultCounts: CountFaults(c.Sched, c.Events),
		Intruder: CountIntrusions(c.Events),
		Sessions: c.Mon.Sessions.Load(), Live: c.Mon.Examples(),
		Files: map[string]any{"history": "history.jsonl"},
	}
	if r.Schedule == nil {
		r.Schedule = []schedule.Fault{}
	}
	hc := validate.CheckHistory(validate.HistoryCheck{Dir: c.Out.Path, Timeout: cfg.CheckTimeout, RewindGrace: cfg.RewindGrace, Note: c.Note, Fail: c.Fail})
	r.Operations, r.Check = hc.Operations, hc.Check
	for k, v := range hc.Files {
		r.Files[k] = v
	}
	intruded := r.Intruder != nil && r.Intruder.Succeeded > 0
	switch {
	case intruded && !cfg.NoACL:
		// The ACLs are what the intruder fault tests: one success is a
		// breach, whatever the lock's clients then saw.
		c.Fail("VIOLATION: the intruder succeeded %d times on locks with ACLs", r.Intruder.Succeeded)
	case intruded && c.Traces != nil:
		// Nodes deleted and written by a session that is no client are steps
		// outside the model: the history judges such a campaign alone.
		r.Untraced = fmt.Sprintf("not replayed: an intruder changed the lock nodes (%d attempts succeeded), steps of no client that the model does not have", r.Intruder.Succeeded)
		r.Files["trace"] = "trace.jsonl"
	}
	if c.Traces != nil && r.Untraced == "" {
		r.Trace = validate.ValidateTrace(validate.TraceCheck{File: c.Out.File, Budget: cfg.TraceBudget, Note: c.Note, Fail: c.Fail})
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
	traced := c.Traces == nil || r.Trace != nil || r.Untraced != ""
	switch {
	case r.Check != nil && r.Check.Verdict == checker.VerdictFail, r.Trace != nil && r.Trace.Verdict == trace.Invalid,
		intruded && !cfg.NoACL:
		r.Verdict, r.ExitCode = "fail", ExitViolation
	case r.Check == nil || !traced || len(c.Errors()) > 0:
		r.Verdict, r.ExitCode = "error", ExitSetup
	case acquired == 0:
		c.Fail("no lock was ever acquired: the campaign proves nothing")
		r.Verdict, r.ExitCode = "error", ExitSetup
	case r.Check.Verdict == checker.VerdictUnknown, r.Trace != nil && r.Trace.Verdict != trace.Valid:
		r.Verdict, r.ExitCode = "unknown", ExitUndecided
	default:
		r.Verdict, r.ExitCode = "pass", ExitPass
	}
	if r.ExitCode != ExitPass && len(cfg.Servers) == 0 {
		r.Files["server_logs"] = "zk*.log"
	}
	r.Errors = c.Errors()
	r.Files["html_report"] = "report.html"
	r.Page = PageOf(r, hc.History, hc.Result)
	sum := Summarize(r.Page)
	r.Summary = &sum
	if err := WriteHTML(c.Out.File("report.html"), r.Page); err != nil {
		c.Fail("writing report.html: %v", err)
		r.Errors = c.Errors()
		delete(r.Files, "html_report")
	}
	if err := WriteJSON(c.Out.File("report.json"), r); err != nil {
		fmt.Fprintln(c.Stderr, "chaos: writing report.json:", err)
		if r.ExitCode == ExitPass {
			r.ExitCode = ExitSetup
		}
	}
	return r
}
