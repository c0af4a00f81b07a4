package main

import (
	"fmt"
	"os"
	"sort"
	"strings"
)

// A committed results table (spec/tla/RESULTS.md) is the record readers
// trust. `make tlc` checks every run against it instead of rewriting it, so
// a clean checkout stays clean after its own tests and a spec change that
// moves a count without `make results` fails loudly.

// committedRow is what must not change between runs of one config: its
// expectation, verdict and the state graph's size and depth, and a safety
// counterexample's length (one worker, breadth-first: a shortest one). A
// liveness counterexample's length varies from run to run; the time does too.
type committedRow struct {
	expected, verdict, distinct, generated, depth, trace string
}

// parseResults reads the rows of a results table written by resultsDoc,
// keyed by Module.Name.
func parseResults(doc string) (map[string]committedRow, error) {
	rows := map[string]committedRow{}
	for _, line := range strings.Split(doc, "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| spec ") {
			continue
		}
		f := strings.Split(strings.Trim(line, "| "), " | ")
		if len(f) != 10 {
			return nil, fmt.Errorf("results row %q: want 10 columns, got %d", line, len(f))
		}
		id := f[0] + "." + f[1]
		if _, dup := rows[id]; dup {
			return nil, fmt.Errorf("results: %s listed twice", id)
		}
		rows[id] = committedRow{expected: f[2], verdict: f[3], distinct: f[4], generated: f[5], depth: f[6], trace: f[7]}
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("results: no rows")
	}
	return rows, nil
}

// rowOf renders an outcome as the row that would be committed.
func rowOf(out outcome) committedRow {
	r := committedRow{expected: expectation(out.cfg.Model), verdict: "-", distinct: "-", generated: "-", depth: "-", trace: "-"}
	if res := out.res; res != nil {
		r.verdict = verdictText(out)
		r.distinct = fmt.Sprint(res.DistinctStates)
		r.generated = fmt.Sprint(res.StatesGenerated)
		r.depth = fmt.Sprint(res.Depth)
		if len(res.Trace) > 0 {
			r.trace = fmt.Sprint(len(res.Trace))
		}
	}
	return r
}

// compareResults lists every difference between the runs and the committed
// table. all says every config of the set ran, so a committed row without a
// run is stale.
func compareResults(committed map[string]committedRow, outs []outcome, all bool) []string {
	var diffs []string
	ran := map[string]bool{}
	for _, out := range outs {
		id := out.cfg.ID()
		ran[id] = true
		want, ok := committed[id]
		if !ok {
			diffs = append(diffs, id+": not in the committed table")
			continue
		}
		got := rowOf(out)
		liveness := strings.HasPrefix(got.verdict, "temporal")
		for _, c := range []struct{ name, want, got string }{
			{"expected", want.expected, got.expected},
			{"verdict", want.verdict, got.verdict},
			{"distinct states", want.distinct, got.distinct},
			{"states generated", want.generated, got.generated},
			{"depth", want.depth, got.depth},
			{"trace", want.trace, got.trace},
		} {
			if c.name == "trace" && liveness {
				continue
			}
			if c.want != c.got {
				diffs = append(diffs, fmt.Sprintf("%s: %s %s, committed %s", id, c.name, c.got, c.want))
			}
		}
	}
	if all {
		for id := range committed {
			if !ran[id] {
				diffs = append(diffs, id+": committed, but no such config ran")
			}
		}
	}
	sort.Strings(diffs)
	return diffs
}

// compareWith compares the runs with the committed table in path.
func compareWith(path string, outs []outcome, all bool) ([]string, error) {
	doc, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("-compare: %w", err)
	}
	committed, err := parseResults(string(doc))
	if err != nil {
		return nil, fmt.Errorf("-compare %s: %w", path, err)
	}
	return compareResults(committed, outs, all), nil
}
