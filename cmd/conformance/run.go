package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/zklock/zklock/internal/tlc"
	"github.com/zklock/zklock/internal/tlccfg"
	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/specs"
)

// config is one .cfg and the module it checks.
type config = tlccfg.Config

// discover reads every config in dir.
func discover(dir string) ([]config, error) { return tlccfg.Discover(dir) }

// row is the comparison of one config.
type row struct {
	cfg      config
	rec      tlc.Record
	reused   bool
	recorded bool // rec is the config's `tlc: deep` line, TLC not run
	model    *specs.Outcome
	replay   string // what replaying TLC's counterexample in the model showed
	problems []string
}

// recordedResult is TLC's result of a TLCDeep config as its `tlc: deep`
// line records it (TLC checks the line whenever it runs the config).
func recordedResult(c config) tlc.Record {
	r := c.Model.Recorded
	return tlc.Record{Module: c.Module, Name: c.Name, Expected: "pass", Check: "ok", Verdict: tlc.Pass,
		DistinctStates: r.Distinct, StatesGenerated: r.Generated, Depth: r.Depth}
}

// tlcOnly checks a config only TLC checks (`\* tlc-only: reason`): TLC's
// result must meet the config's expectation; the model is not explored.
func tlcOnly(r *row, w io.Writer) {
	if r.rec.Check != "ok" {
		r.problems = append(r.problems, "TLC's result does not meet the config's expectation: "+firstLine(r.rec.Check))
	}
	status := "skip"
	if len(r.problems) > 0 {
		status = "FAIL"
	}
	logf(w, "%-4s %-50s TLC %d states (%s); TLC-only, the model does not explore it: %s", status, r.cfg.ID(),
		r.rec.DistinctStates, reuseText(r.reused), r.cfg.Model.TLCOnly)
	for _, p := range r.problems {
		logf(w, "     %s", p)
	}
}

// selectConfigs is the set o asks for: the configs TLC runs in it and,
// for the CI set, those too large for TLC there (`tlc: deep`), which the
// model explores against TLC's recorded graph.
func selectConfigs(o options) ([]config, error) {
	selected, err := tlccfg.Select(o.specDir, o.deep, o.filter)
	if o.deep {
		return selected, err
	}
	more, merr := tlccfg.SelectTLCDeep(o.specDir, o.filter)
	if merr != nil {
		return nil, merr
	}
	if errors.Is(err, tlccfg.ErrNoConfig) && len(more) > 0 {
		err = nil
	}
	return append(selected, more...), err
}

func run(ctx context.Context, o options, w io.Writer) error {
	selected, err := selectConfigs(o)
	if err != nil {
		return err
	}
	src := &tlcSource{o: o}
	start := time.Now()
	var rows []*row
	var explorer time.Duration
	for _, c := range selected {
		r := &row{cfg: c}
		rows = append(rows, r)
		if c.Model.TLCDeep && !o.deep {
			r.rec, r.recorded = recordedResult(c), true
		} else if !o.modelOnly {
			if r.rec, r.reused, err = src.record(ctx, c, w); err != nil {
				r.problems = append(r.problems, "TLC: "+err.Error())
				continue
			}
		}
		if c.Model.TLCOnly != "" {
			if !o.modelOnly {
				tlcOnly(r, w)
			}
			continue
		}
		inst, err := specs.Load(c.Module, c.Model)
		if err != nil {
			r.problems = append(r.problems, "model: "+err.Error())
			continue
		}
		opt := explore.Options{Workers: o.workers, TLCOrder: !c.Model.Pass, MaxStates: o.maxStates}
		if o.verbose {
			id := c.ID()
			opt.Progress = func(level int, distinct int64, frontier int) {
				logf(w, "     %s: level %d, %d distinct states, %d in the next level", id, level, distinct, frontier)
			}
		}
		out, err := inst.Check(opt)
		if err != nil {
			r.problems = append(r.problems, "explorer: "+err.Error())
			continue
		}
		explorer += out.Duration
		r.model = out
		if !o.modelOnly {
			compare(r, inst)
		}
		status := "ok"
		if len(r.problems) > 0 {
			status = "FAIL"
		}
		logf(w, "%-4s %-50s TLC %d states (%s), model %d states in %s (%s)", status, c.ID(),
			r.rec.DistinctStates, sourceText(r), out.Distinct, out.Duration.Round(time.Millisecond), modeText(out))
		for _, p := range r.problems {
			logf(w, "     %s", p)
		}
		if o.verbose && out.Trace != "" {
			logf(w, "     model's counterexample (%s):\n%s", strings.Join(out.TraceActions, " -> "), out.Trace)
			logf(w, "     TLC's counterexample: %s", strings.Join(r.rec.TraceActions, " -> "))
		}
	}
	if err := src.save(); err != nil {
		return err
	}
	table := renderTable(rows, explorer, time.Since(start), o)
	fmt.Fprintln(w)
	fmt.Fprint(w, table)
	if o.results != "" {
		doc := "# Conformance: the Go model against TLC\n\n" +
			"Written by `go run ./cmd/conformance -results model/CONFORMANCE.md`; do not edit by hand. " +
			"How the numbers are compared: model/README.md.\n\n" + table
		if err := os.WriteFile(o.results, []byte(doc), 0o644); err != nil {
			return fmt.Errorf("writing %s: %w", o.results, err)
		}
		logf(w, "\nwrote %s", o.results)
	}
	var failed []string
	for _, r := range rows {
		if len(r.problems) > 0 {
			failed = append(failed, r.cfg.ID())
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d of %d configs disagree: %s", len(failed), len(rows), strings.Join(failed, ", "))
	}
	logf(w, "the model agrees with TLC on all %d configs", len(rows))
	return nil
}

// sourceText says where a row's TLC result came from.
func sourceText(r *row) string {
	if r.recorded {
		return "recorded in the config: TLC runs it with the deep set"
	}
	return reuseText(r.reused)
}

func reuseText(reused bool) string {
	if reused {
		return "from results.json"
	}
	return "TLC run now"
}

// compare checks the model's outcome against TLC's record.
func compare(r *row, inst specs.Instance) {
	rec, out, m := r.rec, r.model, r.cfg.Model
	bad := func(format string, args ...any) { r.problems = append(r.problems, fmt.Sprintf(format, args...)) }
	if rec.Check != "ok" {
		bad("TLC's result does not meet the config's expectation: %s", firstLine(rec.Check))
	}
	if string(rec.Verdict) != string(out.Verdict) {
		bad("verdict: TLC %q, model %q", rec.Verdict, out.Verdict)
		return
	}
	tlcProp := rec.Property
	if rec.Verdict == tlc.TemporalViolated && tlcProp == "" && len(m.Properties) == 1 {
		tlcProp = m.Properties[0] // TLC does not name it; the config lists only this one
	}
	if tlcProp != out.Property {
		bad("violated property: TLC %q, model %q", tlcProp, out.Property)
	}
	if m.Pass {
		if rec.DistinctStates != out.Distinct {
			bad("distinct states: TLC %d, model %d", rec.DistinctStates, out.Distinct)
		}
		if rec.StatesGenerated != out.Generated {
			bad("states generated: TLC %d, model %d", rec.StatesGenerated, out.Generated)
		}
		if rec.Depth != out.Depth {
			bad("depth: TLC %d, model %d", rec.Depth, out.Depth)
		}
		return
	}
	if rec.Workers != "1" {
		bad("TLC ran this expected failure with -workers %s, not 1", rec.Workers)
	}
	temporal := rec.Verdict == tlc.TemporalViolated
	if !temporal {
		if rec.TraceLength != len(out.TraceActions) {
			bad("counterexample length: TLC %d, model %d", rec.TraceLength, len(out.TraceActions))
		}
		if rec.DistinctStates != out.Distinct {
			bad("distinct states at the violation: TLC %d, model %d", rec.DistinctStates, out.Distinct)
		}
		if rec.StatesGenerated != out.Generated {
			bad("states generated at the violation: TLC %d, model %d", rec.StatesGenerated, out.Generated)
		}
	} else {
		// A liveness run explores the whole graph before checking.
		if rec.DistinctStates != out.Distinct {
			bad("distinct states: TLC %d, model %d", rec.DistinctStates, out.Distinct)
		}
		if rec.StatesGenerated != out.Generated {
			bad("states generated: TLC %d, model %d", rec.StatesGenerated, out.Generated)
		}
		if rec.Depth != out.Depth {
			bad("depth: TLC %d, model %d", rec.Depth, out.Depth)
		}
	}
	if len(rec.Trace) == 0 {
		bad("TLC's record has no counterexample states")
		return
	}
	prop, err := inst.MatchTLC(rec.TraceActions, rec.Trace, rec.TraceLoop, rec.TraceStutters)
	switch {
	case err != nil:
		bad("TLC's counterexample is not a run of the model: %v", err)
	case prop != tlcProp:
		bad("TLC's counterexample violates %q in the model, not %q", prop, tlcProp)
	case temporal:
		r.replay = "fair lasso, violates " + prop
	case rec.Verdict == tlc.Deadlock:
		r.replay = "replays, deadlocks"
	default:
		r.replay = "replays, violates " + prop
	}
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}
