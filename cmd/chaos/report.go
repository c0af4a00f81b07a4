package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/zklock/zklock/checker"
	htmlreport "github.com/zklock/zklock/internal/chaos/report"
	"github.com/zklock/zklock/model/trace"
)

// report is report.json: everything an operator needs to judge a campaign
// without reading the history.
type report struct {
	Verdict     string              `json:"verdict"` // pass, fail, unknown, or error
	ExitCode    int                 `json:"exit_code"`
	Started     time.Time           `json:"started"`
	Elapsed     string              `json:"elapsed"`
	Config      *config             `json:"config"`
	Seed        int64               `json:"seed"`
	Replay      string              `json:"replay"` // the command line that replays the schedule
	Target      string              `json:"target"`
	Root        string              `json:"zookeeper_root"`
	Interrupted bool                `json:"interrupted,omitempty"`
	Schedule    []plannedFault      `json:"schedule"`
	Faults      []faultEvent        `json:"faults"`
	FaultCounts []faultCount        `json:"fault_counts"`
	Operations  []opCount           `json:"operations"`
	Sessions    int64               `json:"sessions"`
	Check       *checkSummary       `json:"check,omitempty"`
	Trace       *traceSummary       `json:"trace,omitempty"`           // zklock's steps replayed in the model
	Live        []string            `json:"live_violations,omitempty"` // what the monitor saw during the run
	Summary     *htmlreport.Summary `json:"summary,omitempty"`         // the campaign in numbers (report.html's top)
	page        *htmlreport.Campaign
	Errors      []string       `json:"errors,omitempty"`
	Files       map[string]any `json:"files"`
}

type faultCount struct {
	Kind     faultKind `json:"kind"`
	Planned  int       `json:"planned"`
	Injected int       `json:"injected"`
	Skipped  int       `json:"skipped"`
}

type opCount struct {
	Kind    checker.Kind `json:"kind"`
	OK      int          `json:"ok"`
	Failed  int          `json:"failed"`
	Unknown int          `json:"unknown"`
}

type checkSummary struct {
	Verdict    checker.Verdict `json:"verdict"`
	Summary    string          `json:"summary"`
	Operations int             `json:"operations"`
	Unknown    int             `json:"unknown"`
	Faults     int             `json:"faults"`
	Elapsed    string          `json:"elapsed"`
	Models     []modelSummary  `json:"models"`
	Violations int             `json:"violations"`
	Excused    int             `json:"excused"`
	Findings   []findingJSON   `json:"findings,omitempty"`
	Suppressed int             `json:"suppressed,omitempty"`
}

type modelSummary struct {
	Model      string `json:"model"`
	Key        string `json:"key"`
	Operations int    `json:"operations"`
	Unknown    int    `json:"unknown"`
	Result     string `json:"result"`
	Elapsed    string `json:"elapsed"`
	HTML       string `json:"html,omitempty"`
}

type findingJSON struct {
	Check     checker.CheckName `json:"check"`
	Violation bool              `json:"violation"`
	Path      string            `json:"path,omitempty"`
	Register  string            `json:"register,omitempty"`
	Clients   []string          `json:"clients,omitempty"`
	Tokens    []int64           `json:"tokens,omitempty"`
	Text      string            `json:"text"`
	Excuse    string            `json:"excuse,omitempty"`
}

// countFaults tallies the schedule and what became of it, by kind.
func countFaults(sched []plannedFault, events []faultEvent) []faultCount {
	byKind := map[faultKind]*faultCount{}
	var order []faultKind
	get := func(k faultKind) *faultCount {
		if byKind[k] == nil {
			byKind[k] = &faultCount{Kind: k}
			order = append(order, k)
		}
		return byKind[k]
	}
	for _, f := range allFaults {
		for _, p := range sched {
			if p.Kind == f.kind {
				get(f.kind)
				break
			}
		}
	}
	for _, p := range sched {
		get(p.Kind).Planned++
	}
	for _, e := range events {
		if e.Skipped != "" {
			get(e.Kind).Skipped++
		} else {
			get(e.Kind).Injected++
		}
	}
	out := make([]faultCount, len(order))
	for i, k := range order {
		out[i] = *byKind[k]
	}
	return out
}

// countOps tallies the history's operations by kind and outcome.
func countOps(h checker.History) []opCount {
	kinds := []checker.Kind{checker.KindAcquire, checker.KindRelease, checker.KindLost, checker.KindWrite, checker.KindRead}
	idx := map[checker.Kind]int{}
	out := make([]opCount, len(kinds))
	for i, k := range kinds {
		idx[k] = i
		out[i].Kind = k
	}
	for _, r := range h {
		i, ok := idx[r.Kind]
		if !ok {
			continue
		}
		switch r.Outcome {
		case checker.OutcomeFailed:
			out[i].Failed++
		case checker.OutcomeUnknown:
			out[i].Unknown++
		default:
			out[i].OK++
		}
	}
	return out
}

func summarizeCheck(res *checker.Result, dir string) *checkSummary {
	s := &checkSummary{
		Verdict: res.Verdict, Summary: res.String(), Operations: res.Operations, Unknown: res.Unknown,
		Faults: res.Faults, Elapsed: res.Elapsed.Round(time.Millisecond).String(), Suppressed: res.Suppressed,
	}
	for _, m := range res.Models {
		ms := modelSummary{Model: m.Model, Key: m.Key, Operations: m.Operations, Unknown: m.Unknown,
			Result: string(m.Result), Elapsed: m.Elapsed.Round(time.Millisecond).String()}
		if m.HTML != "" {
			ms.HTML = relTo(dir, m.HTML)
		}
		s.Models = append(s.Models, ms)
	}
	for i := range res.Findings {
		f := &res.Findings[i]
		if f.Violation() {
			s.Violations++
		} else {
			s.Excused++
		}
		s.Findings = append(s.Findings, findingJSON{Check: f.Check, Violation: f.Violation(), Path: f.Path,
			Register: f.Register, Clients: f.Clients, Tokens: f.Tokens, Text: f.Text, Excuse: f.Excuse})
	}
	s.Violations += res.SuppressedViolations
	s.Excused += res.Suppressed - res.SuppressedViolations
	return s
}

func relTo(dir, p string) string {
	if r, err := filepath.Rel(dir, p); err == nil && !strings.HasPrefix(r, "..") {
		return r
	}
	return p
}

func writeJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// writeSummary prints the end-of-run table: faults, operations, verdict.
func writeSummary(w io.Writer, r *report, outDir string) {
	cfg := r.Config
	fence := "fenced"
	if cfg.NoFence {
		fence = "NOT fenced (control)"
	}
	lock := cfg.Lock
	if lock == lockZk {
		lock = "zk (go-zookeeper zk.Lock, control)"
	}
	fmt.Fprintf(w, "\nchaos campaign: lock %s, writes %s; seed %d; %s; %d clients, %d locks (%d read/write)\n",
		lock, fence, r.Seed, r.Elapsed, cfg.Clients, cfg.Locks, cfg.RWLocks)
	if r.Interrupted {
		fmt.Fprintln(w, "INTERRUPTED before the end of --duration")
	}
	if r.Summary != nil && r.page != nil {
		r.Summary.WriteText(w, r.page)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "fault kind\tplanned\tinjected\tskipped\t")
	var tp, ti, ts int
	for _, f := range r.FaultCounts {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t\n", f.Kind, f.Planned, f.Injected, f.Skipped)
		tp, ti, ts = tp+f.Planned, ti+f.Injected, ts+f.Skipped
	}
	fmt.Fprintf(tw, "total\t%d\t%d\t%d\t\n", tp, ti, ts)
	fmt.Fprintln(tw, "\t\t\t\t")
	fmt.Fprintln(tw, "operation\tok\tfailed\tunknown\t")
	for _, o := range r.Operations {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t\n", o.Kind, o.OK, o.Failed, o.Unknown)
	}
	tw.Flush()
	if c := r.Check; c != nil {
		fmt.Fprintf(w, "\nchecked %d operations (%d with unknown outcome) and %d faults in %s; %d sessions\n",
			c.Operations, c.Unknown, c.Faults, c.Elapsed, r.Sessions)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "partition\tmodel\tops\tunknown\tresult\t")
		for _, m := range c.Models {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%s\n", strings.ReplaceAll(m.Key, r.Root, ""), m.Model, m.Operations, m.Unknown, m.Result, m.HTML)
		}
		tw.Flush()
		fmt.Fprintf(w, "direct checks: %d violations, %d findings excused by a client freeze\n", c.Violations, c.Excused)
		shown := 0
		for _, f := range c.Findings {
			if f.Violation && shown < 5 {
				fmt.Fprintf(w, "  VIOLATION %s: %s\n", f.Check, f.Text)
				shown++
			}
		}
	}
	if t := r.Trace; t != nil {
		fmt.Fprintf(w, "trace: %d steps of %d sessions replayed in the model in %s: %s\n", t.Events, t.Sessions, t.Elapsed, strings.ToUpper(string(t.Verdict)))
		for _, l := range t.Locks {
			if l.Verdict != trace.Valid {
				fmt.Fprintf(w, "  %s (%s, %d steps): %s after %d search states; see %s\n",
					strings.ReplaceAll(l.Lock, r.Root, ""), l.Spec, l.Events, l.Verdict, l.Explored, t.Report)
			}
		}
	}
	for _, e := range r.Errors {
		fmt.Fprintf(w, "error: %s\n", e)
	}
	fmt.Fprintf(w, "verdict: %s (exit %d)\n", strings.ToUpper(r.Verdict), r.ExitCode)
	fmt.Fprintf(w, "report: %s\nreplay: %s\n", filepath.Join(outDir, "report.json"), r.Replay)
}

// replayCommand is the command line that runs the same schedule again.
func replayCommand(c *config) string {
	args := []string{"go run ./cmd/chaos",
		"--duration " + c.Duration.String(),
		fmt.Sprintf("--clients %d", c.Clients),
		fmt.Sprintf("--locks %d", c.Locks),
		fmt.Sprintf("--rw-ratio %g", c.RWRatio),
		fmt.Sprintf("--seed %d", c.Seed),
		"--faults " + faultsArg(c.Faults),
		"--fault-interval " + c.FaultInterval.String(),
		"--session-timeout " + c.SessionTimeout.String(),
		"--lock " + c.Lock,
	}
	if c.NoFence {
		args = append(args, "--no-fence")
	}
	if c.Pin {
		args = append(args, "--pin")
	}
	if c.SyncLimit != 5 {
		args = append(args, fmt.Sprintf("--sync-limit %d", c.SyncLimit))
	}
	if len(c.Servers) > 0 {
		args = append(args, "--tick-time "+c.TickTime.String())
	}
	if c.IdleHold > 0 {
		args = append(args, "--idle-hold "+c.IdleHold.String())
	}
	if len(c.Servers) > 0 {
		args = append(args, "--servers "+strings.Join(c.Servers, ","))
	}
	if c.KillCmd != "" {
		args = append(args, fmt.Sprintf("--kill-cmd %q", c.KillCmd))
	}
	return strings.Join(args, " ")
}

func faultsArg(ks []faultKind) string {
	if len(ks) == 0 {
		return "none"
	}
	if len(ks) == len(allFaults) {
		return "all"
	}
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = string(k)
	}
	sort.Strings(s)
	return strings.Join(s, ",")
}
