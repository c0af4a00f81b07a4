package main

import (
	"fmt"
	"runtime"
	"strings"
	"time"

	"github.com/zklock/zklock/internal/tlc"
	"github.com/zklock/zklock/model/specs"
)

// renderTable renders the comparison as one Markdown table.
func renderTable(rows []*row, explorer, wall time.Duration, o options) string {
	var b strings.Builder
	b.WriteString("| config | TLC distinct | model distinct | TLC generated | model generated | TLC verdict | model verdict | TLC trace | model trace | TLC's trace in the model | TLC states/s | model states/s | model mode | check |\n")
	b.WriteString("|---|---:|---:|---:|---:|---|---|---:|---:|---|---:|---:|---|---|\n")
	var tlcTime float64
	reused := 0
	for _, r := range rows {
		rec, out := r.rec, r.model
		tlcTime += rec.Seconds
		if r.reused {
			reused++
		}
		cell := func(v string) string {
			if v == "" {
				return "-"
			}
			return strings.ReplaceAll(v, "|", `\|`)
		}
		tlcVerdict, tlcTrace, tlcRate := "-", "-", "-"
		tlcDistinct, tlcGen := "-", "-"
		if rec.Module != "" {
			tlcVerdict = verdictText(string(rec.Verdict), rec.Property, r.cfg.Model)
			tlcDistinct, tlcGen = fmt.Sprint(rec.DistinctStates), fmt.Sprint(rec.StatesGenerated)
			tlcTrace = traceText(rec.TraceLength, rec.TraceLoop, rec.TraceStutters)
			if rec.Seconds > 0 {
				tlcRate = fmt.Sprintf("%.0f", float64(rec.DistinctStates)/rec.Seconds)
			}
		}
		mVerdict, mTrace, mRate, mDistinct, mGen, mode := "-", "-", "-", "-", "-", "-"
		if out != nil {
			mVerdict = verdictText(string(out.Verdict), out.Property, r.cfg.Model)
			if out.Param != "" {
				mVerdict += " for " + out.Param
			}
			mDistinct, mGen = fmt.Sprint(out.Distinct), fmt.Sprint(out.Generated)
			mTrace = traceText(len(out.TraceActions), out.TraceLoop, out.TraceStutters)
			mRate = fmt.Sprintf("%.0f", out.StatesPerSecond())
			mode = modeText(out)
		}
		check := "ok"
		if why := r.cfg.Model.TLCOnly; why != "" {
			check = "TLC only (" + why + ")"
		}
		if r.recorded {
			check = "ok (TLC's recorded result; TLC runs it with the deep set)"
		}
		if len(r.problems) > 0 {
			check = "**FAIL**: " + strings.Join(r.problems, "; ")
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			r.cfg.ID(), tlcDistinct, mDistinct, tlcGen, mGen, cell(tlcVerdict), cell(mVerdict), tlcTrace, mTrace,
			cell(r.replay), tlcRate, mRate, mode, cell(check))
	}
	set := "CI set"
	if o.deep {
		set = "deep set"
	}
	fmt.Fprintf(&b, "\n%s: %d configs on %d cores. Explorer: %s in total (search and liveness, all configs). "+
		"TLC: %s in total by its own clock (%d of %d results reused from %s). Wall time %s.\n",
		set, len(rows), runtime.NumCPU(), explorer.Round(10*time.Millisecond),
		(time.Duration(tlcTime * float64(time.Second))).Round(100*time.Millisecond), reused, len(rows),
		o.jsonPath, wall.Round(100*time.Millisecond))
	b.WriteString("Passing configs: distinct states, states generated and depth must be equal (the explorer runs in parallel). " +
		"Expected safety failures (TLC with one worker, the explorer in TLC's order): the counterexample length and the counts " +
		"at the violation must be equal. Every TLC counterexample must replay in the model, state for state, and violate the same property there. " +
		"A liveness counterexample's length is not compared: TLC checks one branch per client in parallel and prints whichever bad cycle it finds first " +
		"(the trace differs from run to run); the explorer prints a shortest lasso. " +
		"\"trace\" counts states (the initial state included); \"+stutter\" marks a lasso that ends by stuttering, \"loop@k\" one that goes back to state k. " +
		"TLC's states/s includes its JVM start.\n")
	return b.String()
}

func verdictText(verdict, prop string, m tlc.Model) string {
	switch {
	case prop != "":
		return verdict + " " + prop
	case verdict == string(tlc.TemporalViolated) && len(m.Properties) == 1:
		return verdict + " (" + m.Properties[0] + ")"
	}
	return verdict
}

func traceText(n, loop int, stutters bool) string {
	switch {
	case n == 0:
		return "-"
	case stutters:
		return fmt.Sprintf("%d+stutter", n)
	case loop >= 0:
		return fmt.Sprintf("%d loop@%d", n, loop+1)
	}
	return fmt.Sprint(n)
}

func modeText(out *specs.Outcome) string {
	mode := fmt.Sprintf("%s, %d worker", out.Mode, out.Workers)
	if out.Workers > 1 {
		mode += "s"
	}
	return mode
}
