// Package report renders a chaos campaign for people: report.html, one
// self-contained page (no script, style or font fetched at view time) with a
// Jepsen-style summary, a timeline per lock path of who believed it held the
// lock when (with tokens and unknown outcomes), the injected faults shaded on
// the same time axis, the verdict of every check, and, when a check failed,
// the shortest offending window drawn on its own; plus the same summary as
// text for the terminal.
//
// The page reads only what a campaign already wrote: the history
// (checker.Record, one clock for operations and faults) and the checker's
// result. cmd/chaos fills a Campaign (PageOf) and calls Write and Summarize.
//
// The package also writes report.json (Report: the campaign's settings,
// schedule, faults and the verdicts of package validate, for an operator or
// a script) and the end-of-run table on the terminal (WriteTable).
package report

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/zklock/zklock/checker"
)

// Campaign is everything the page shows about one campaign.
type Campaign struct {
	Title    string // one line: lock, fencing, seed, size
	Verdict  string // pass, fail, unknown or error
	ExitCode int
	Started  time.Time
	Elapsed  string
	Server   string // what the campaign ran against, e.g. "embedded 3-node ensemble, ZooKeeper 3.9"
	// Control is empty for a campaign that must pass; for a control campaign
	// (one built to be flagged) it says what it controls.
	Control string
	Replay  string   // the command line that runs the same schedule again
	Root    string   // ZooKeeper root every path starts with, trimmed for display
	Errors  []string // set-up and run errors
	History checker.History
	Result  *checker.Result // nil when the check did not run
	// ModelHTML maps a porcupine partition key to its visualisation, relative
	// to the page.
	ModelHTML map[string]string
	Trace     *Trace // nil when no trace was validated
	// Intruder is what the intruder faults tried and the servers answered;
	// nil without one.
	Intruder *Intrusions
	// Breaches counts the intruder's successes on locks with ACLs: each is
	// an anomaly.
	Breaches int
}

// Trace is the trace check's verdict.
type Trace struct {
	Verdict  string // valid, invalid, inconclusive
	Steps    int
	Sessions int
	Elapsed  string
	Report   string // the validator's report file, relative to the page
}

// Summary is the campaign in numbers, the top of the page and of the
// terminal output.
type Summary struct {
	Operations int            // operation records
	ByOutcome  map[string]int // "acquire ok", "write unknown", ...
	Tenures    int            // leases granted (acquires that returned ok)
	Faults     map[string]int // injected faults by kind
	Anomalies  map[string]int // violations by check (overlap, stale-write, ...), illegal partitions, an invalid trace
	Excused    int            // findings explained by an injected fault (a client freeze, an operator's delete or replace, a wipe)
	Intruder   *Intrusions    // what the intruder faults tried; nil without one
	// Election counts an election's leaderships (its tenures), proclaims
	// and observer reports; nil for locks.
	Election *checker.ElectionSummary
	// Semaphore counts a semaphore campaign's leases and the most believed
	// held at once; nil for any other campaign.
	Semaphore *checker.SemaphoreSummary
}

// Summarize counts what the campaign did and found.
func Summarize(c *Campaign) Summary {
	s := Summary{ByOutcome: map[string]int{}, Faults: map[string]int{}, Anomalies: map[string]int{}, Intruder: c.Intruder}
	for i := range c.History {
		r := &c.History[i]
		switch r.Kind {
		case checker.KindFault:
			s.Faults[r.Fault]++
		case checker.KindAcquire, checker.KindRelease, checker.KindLost, checker.KindWrite, checker.KindRead:
			s.Operations++
			out := r.Outcome
			if out == "" {
				out = checker.OutcomeOK
			}
			s.ByOutcome[string(r.Kind)+" "+string(out)]++
			if r.Kind == checker.KindAcquire && out == checker.OutcomeOK {
				s.Tenures++
			}
		}
	}
	if res := c.Result; res != nil {
		s.Election = res.Election
		s.Semaphore = res.Semaphore
		for _, f := range res.Findings {
			if f.Violation() {
				s.Anomalies[string(f.Check)]++
			} else {
				s.Excused++
			}
		}
		if res.SuppressedViolations > 0 {
			s.Anomalies["more findings, not listed"] += res.SuppressedViolations
		}
		for _, m := range res.Models {
			if string(m.Result) == "Illegal" {
				s.Anomalies["not linearizable ("+m.Model+")"]++
			}
		}
	}
	if c.Breaches > 0 {
		s.Anomalies["intruder got past the ACLs"] = c.Breaches
	}
	if c.Trace != nil && c.Trace.Verdict == "invalid" {
		s.Anomalies["trace not a run of the spec"]++
	}
	return s
}

// WriteText prints the summary the way Jepsen ends a run: a few lines a
// person reads first.
func (s Summary) WriteText(w io.Writer, c *Campaign) {
	fmt.Fprintf(w, "summary: %s\n", c.Title)
	fmt.Fprintf(w, "  %d operations, %d lock tenures, %s\n", s.Operations, s.Tenures, c.Elapsed)
	fmt.Fprintf(w, "  faults:    %s\n", countsText(s.Faults, "none"))
	fmt.Fprintf(w, "  anomalies: %s\n", countsText(s.Anomalies, "none"))
	if s.Election != nil {
		fmt.Fprintf(w, "  election:  %s\n", s.Election)
	}
	if s.Semaphore != nil {
		fmt.Fprintf(w, "  semaphore: %s\n", s.Semaphore)
	}
	if s.Intruder != nil {
		fmt.Fprintf(w, "  intruder:  %s\n", s.Intruder.Text())
	}
	if s.Excused > 0 {
		fmt.Fprintf(w, "  excused:   %d findings explained by an injected fault (a client freeze, an operator's delete or replace, a wipe)\n", s.Excused)
	}
	if c.Control != "" {
		flagged := "NOT flagged: the check missed it"
		if c.Verdict == "fail" {
			flagged = "flagged, as it must be"
		}
		fmt.Fprintf(w, "  control:   %s: %s\n", c.Control, flagged)
	}
}

// countsText renders counts by name, most first.
func countsText(m map[string]int, none string) string {
	if len(m) == 0 {
		return none
	}
	names := sortedByCount(m)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s %d", n, m[n])
	}
	return strings.Join(parts, ", ")
}

func sortedByCount(m map[string]int) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if m[names[i]] != m[names[j]] {
			return m[names[i]] > m[names[j]]
		}
		return names[i] < names[j]
	})
	return names
}
