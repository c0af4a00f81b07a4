package report

import (
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/zklock/zklock/cmd/chaos/internal/workload"
	"github.com/zklock/zklock/model/trace"
)

// WriteTable prints the end-of-run table: faults, operations, verdict.
func WriteTable(w io.Writer, r *Report, outDir string) {
	cfg := r.Config
	fence := "fenced"
	if cfg.NoFence {
		fence = "NOT fenced (control)"
	}
	lock := cfg.Lock
	if lock == workload.LockZk {
		lock = "zk (go-zookeeper zk.Lock, control)"
	}
	fmt.Fprintf(w, "\nchaos campaign: lock %s, writes %s; seed %d; %s; %d clients, %d locks (%d read/write)\n",
		lock, fence, r.Seed, r.Elapsed, cfg.Clients, cfg.Locks, cfg.RWLocks)
	if r.Interrupted {
		fmt.Fprintln(w, "INTERRUPTED before the end of --duration")
	}
	if r.Summary != nil && r.Page != nil {
		r.Summary.WriteText(w, r.Page)
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
		if c.Election != nil {
			fmt.Fprintf(w, "election: %s\n", c.Election)
		}
		if c.Semaphore != nil {
			fmt.Fprintf(w, "semaphore: %s\n", c.Semaphore)
		}
		fmt.Fprintf(w, "direct checks: %d violations, %d findings excused by a fault (a client freeze, an operator's delete or a wipe)\n", c.Violations, c.Excused)
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
				if l.Diverging != "" {
					fmt.Fprintf(w, "    diverging event %s\n    why: %s\n", l.Diverging, l.Why)
				}
			}
		}
	}
	if r.Untraced != "" {
		fmt.Fprintf(w, "trace: %s\n", r.Untraced)
	}
	for _, e := range r.Errors {
		fmt.Fprintf(w, "error: %s\n", e)
	}
	fmt.Fprintf(w, "verdict: %s (exit %d)\n", strings.ToUpper(r.Verdict), r.ExitCode)
	if _, ok := r.Files["html_report"]; ok {
		fmt.Fprintf(w, "report: %s\n", fileURL(filepath.Join(outDir, "report.html")))
	}
	fmt.Fprintf(w, "data: %s\nreplay: %s\n", filepath.Join(outDir, "report.json"), r.Replay)
}

// fileURL is path as a file:// address, absolute, so that a terminal turns
// it into a link to the page a person reads.
func fileURL(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}
