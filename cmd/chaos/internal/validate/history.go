// Package validate judges what a campaign recorded: the history, by package
// checker (linearizability per lock and register, and the direct checks),
// and, for zklock, the protocol steps its sessions took, recorded in
// trace.jsonl as they happen and replayed at the end in the model of the
// specs (package model/trace). It returns report.json's account of both.
package validate

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/zklock/zklock/checker"
)

// OpCount is the number of operations of one kind, by outcome.
type OpCount struct {
	Kind    checker.Kind `json:"kind"`
	OK      int          `json:"ok"`
	Failed  int          `json:"failed"`
	Unknown int          `json:"unknown"`
}

// CheckSummary is report.json's account of the checker's result.
type CheckSummary struct {
	Verdict    checker.Verdict `json:"verdict"`
	Summary    string          `json:"summary"`
	Operations int             `json:"operations"`
	Unknown    int             `json:"unknown"`
	Faults     int             `json:"faults"`
	Elapsed    string          `json:"elapsed"`
	Models     []ModelSummary  `json:"models"`
	Violations int             `json:"violations"`
	Excused    int             `json:"excused"`
	Findings   []Finding       `json:"findings,omitempty"`
	Suppressed int             `json:"suppressed,omitempty"`
	// Election counts an election's leaderships, proclaims and observer
	// reports; absent for locks.
	Election *checker.ElectionSummary `json:"election,omitempty"`
	// Semaphore counts a semaphore's leases and the most held at once.
	Semaphore *checker.SemaphoreSummary `json:"semaphore,omitempty"`
}

// ModelSummary is the linearizability check of one partition of the history.
type ModelSummary struct {
	Model      string `json:"model"`
	Key        string `json:"key"`
	Operations int    `json:"operations"`
	Unknown    int    `json:"unknown"`
	Result     string `json:"result"`
	Elapsed    string `json:"elapsed"`
	HTML       string `json:"html,omitempty"`
}

// Finding is one finding of the direct checks.
type Finding struct {
	Check     checker.CheckName `json:"check"`
	Violation bool              `json:"violation"`
	Path      string            `json:"path,omitempty"`
	Register  string            `json:"register,omitempty"`
	Clients   []string          `json:"clients,omitempty"`
	Tokens    []int64           `json:"tokens,omitempty"`
	Text      string            `json:"text"`
	Excuse    string            `json:"excuse,omitempty"`
}

// HistoryCheck is where CheckHistory finds the history and writes its
// reports, and whom it tells.
type HistoryCheck struct {
	Dir     string        // the campaign's output folder, which holds history.jsonl
	Timeout time.Duration // bound on the linearizability search (--check-timeout)
	// RewindGrace is the checker's Options.RewindGrace (--rewind-grace; 0:
	// its default).
	RewindGrace time.Duration
	Note        func(format string, args ...any) // progress, for people
	Fail        func(format string, args ...any) // what went wrong, for the report
}

// HistoryResult is what CheckHistory found.
type HistoryResult struct {
	History    checker.History // nil if it could not be read back
	Result     *checker.Result // nil if it could not be checked
	Operations []OpCount       // the history's operations by kind and outcome
	Check      *CheckSummary   // nil if it could not be checked
	Files      map[string]any  // report.json's files it wrote: "check", "html"
}

// CheckHistory reads history.jsonl back and checks it; it writes check.txt
// and, on a violation, porcupine's HTML of each failing partition.
func CheckHistory(c HistoryCheck) *HistoryResult {
	out := &HistoryResult{Files: map[string]any{}}
	h, err := checker.LoadFile(filepath.Join(c.Dir, "history.jsonl"))
	if err != nil {
		c.Fail("reading the history back: %v", err)
		return out
	}
	out.History, out.Operations = h, CountOps(h)
	c.Note("chaos: checking %d records...\n", len(h))
	res, err := checker.Check(h, checker.Options{Timeout: c.Timeout, HTMLDir: c.Dir, RewindGrace: c.RewindGrace})
	if err != nil {
		c.Fail("checking: %v", err)
		return out
	}
	out.Result, out.Check = res, Summarize(res, c.Dir)
	if f, err := os.Create(filepath.Join(c.Dir, "check.txt")); err == nil {
		res.WriteReport(f)
		f.Close()
		out.Files["check"] = "check.txt"
	}
	if html := res.HTML(); len(html) > 0 {
		var rel []string
		for _, p := range html {
			rel = append(rel, relTo(c.Dir, p))
		}
		out.Files["html"] = rel
	}
	return out
}

// CountOps tallies the history's operations by kind and outcome, and an
// election's proclaims and observer reports when it has any.
func CountOps(h checker.History) []OpCount {
	kinds := []checker.Kind{checker.KindAcquire, checker.KindRelease, checker.KindLost, checker.KindWrite, checker.KindRead}
	if slices.ContainsFunc(h, func(r checker.Record) bool { return r.Kind == checker.KindProclaim || r.Kind == checker.KindObserve }) {
		kinds = append(kinds, checker.KindProclaim, checker.KindObserve)
	}
	idx := map[checker.Kind]int{}
	out := make([]OpCount, len(kinds))
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

// Summarize is report.json's account of res; the HTML files it names are
// made relative to dir.
func Summarize(res *checker.Result, dir string) *CheckSummary {
	s := &CheckSummary{
		Verdict: res.Verdict, Summary: res.String(), Operations: res.Operations, Unknown: res.Unknown,
		Faults: res.Faults, Elapsed: res.Elapsed.Round(time.Millisecond).String(), Suppressed: res.Suppressed,
		Election:  res.Election,
		Semaphore: res.Semaphore,
	}
	for _, m := range res.Models {
		ms := ModelSummary{Model: m.Model, Key: m.Key, Operations: m.Operations, Unknown: m.Unknown,
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
		s.Findings = append(s.Findings, Finding{Check: f.Check, Violation: f.Violation(), Path: f.Path,
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
