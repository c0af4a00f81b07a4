package tlc

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func parseFile(t *testing.T, name string) *Result {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res, err := Parse(f)
	if err != nil {
		t.Fatalf("Parse(%s): %v", name, err)
	}
	return res
}

func actions(res *Result) []string {
	var a []string
	for _, s := range res.Trace {
		a = append(a, s.Action)
	}
	return a
}

func TestParseInvariantViolation(t *testing.T) {
	res := parseFile(t, "invariant_violation.txt")
	if res.Verdict != InvariantViolated || res.Property != "NoOrphans" {
		t.Fatalf("verdict %q property %q, want invariant violated NoOrphans", res.Verdict, res.Property)
	}
	if res.Version != "TLC2 Version 2.18 of 20 March 2023" {
		t.Errorf("version %q", res.Version)
	}
	if res.StatesGenerated != 48 || res.DistinctStates != 38 || res.Depth != 4 {
		t.Errorf("generated %d distinct %d depth %d, want 48 38 4", res.StatesGenerated, res.DistinctStates, res.Depth)
	}
	if res.Duration != 599*time.Millisecond {
		t.Errorf("duration %v, want 599ms", res.Duration)
	}
	want := "Init RequestLock CreateReplyLostRetry CancelKnown"
	if got := strings.Join(actions(res), " "); got != want {
		t.Errorf("trace actions %q, want %q", got, want)
	}
	last := res.Trace[len(res.Trace)-1]
	if last.Location != "line 31, col 5 to line 39, col 65 of module PredecessorLockBlindRetry" {
		t.Errorf("location %q", last.Location)
	}
	if got := last.State["nodes"]; got != "{[seq |-> 0, owner |-> <<c1, 1>>, uuid |-> <<c1, 1>>, czxid |-> 1]}" {
		t.Errorf("nodes = %q", got)
	}
	if got := last.State["pc"]; got != `(c1 :> "idle" @@ c2 :> "idle" @@ c3 :> "idle")` {
		t.Errorf("pc = %q", got)
	}
	if len(last.State) != 19 {
		t.Errorf("%d variables in the last state, want 19", len(last.State))
	}
	if res.TraceLoop != -1 || res.TraceStutters {
		t.Errorf("loop %d stutters %v for a safety trace", res.TraceLoop, res.TraceStutters)
	}
	if res.Trace[0].Location != "" {
		t.Errorf("Init has location %q", res.Trace[0].Location)
	}
}

func TestParseActionPropertyViolation(t *testing.T) {
	res := parseFile(t, "action_property_violation.txt")
	if res.Verdict != ActionPropertyViolated || res.Property != "FencedSafety" {
		t.Fatalf("verdict %q property %q", res.Verdict, res.Property)
	}
	if len(res.Trace) != 14 || res.Depth != 14 {
		t.Errorf("trace %d states, depth %d, want 14 and 14", len(res.Trace), res.Depth)
	}
	if res.Duration != 4227*time.Millisecond {
		t.Errorf("duration %v", res.Duration)
	}
	// The last two steps: the new holder writes, then the resumed old one.
	a := actions(res)
	if a[len(a)-1] != "Write" || res.Trace[len(a)-1].State["resTenure"] != "1" {
		t.Errorf("last step %s resTenure %s", a[len(a)-1], res.Trace[len(a)-1].State["resTenure"])
	}
}

func TestParseLivenessViolationStuttering(t *testing.T) {
	res := parseFile(t, "liveness_violation.txt")
	if res.Verdict != TemporalViolated || res.Property != "" {
		t.Fatalf("verdict %q property %q", res.Verdict, res.Property)
	}
	if len(res.Trace) != 10 || !res.TraceStutters || res.TraceLoop != -1 {
		t.Errorf("trace %d states, stutters %v, loop %d; want 10, true, -1", len(res.Trace), res.TraceStutters, res.TraceLoop)
	}
	// No final depth message in a liveness run: the last progress report counts.
	if res.Depth != 12 || res.DistinctStates != 228 {
		t.Errorf("depth %d distinct %d, want 12 228", res.Depth, res.DistinctStates)
	}
}

func TestParseLivenessViolationLasso(t *testing.T) {
	res := parseFile(t, "liveness_lasso.txt")
	if res.Verdict != TemporalViolated {
		t.Fatalf("verdict %q", res.Verdict)
	}
	if len(res.Trace) != 3 || res.TraceLoop != 0 || res.TraceStutters {
		t.Errorf("trace %d states, loop %d, stutters %v; want 3, 0, false", len(res.Trace), res.TraceLoop, res.TraceStutters)
	}
	// A single-variable spec prints "x = 0" without the "/\ ".
	if got := res.Trace[2].State["x"]; got != "2" {
		t.Errorf("x = %q in state 3", got)
	}
}

func TestParseDeadlock(t *testing.T) {
	res := parseFile(t, "deadlock.txt")
	if res.Verdict != Deadlock || len(res.Trace) != 4 {
		t.Fatalf("verdict %q, %d states", res.Verdict, len(res.Trace))
	}
	if !res.Verdict.IsViolation() {
		t.Error("deadlock is a violation")
	}
}

func TestParsePassWithCoverage(t *testing.T) {
	res := parseFile(t, "pass_coverage.txt")
	if res.Verdict != Pass || res.Property != "" || len(res.Trace) != 0 || len(res.Errors) != 0 {
		t.Fatalf("verdict %q property %q trace %d errors %v", res.Verdict, res.Property, len(res.Trace), res.Errors)
	}
	if res.DistinctStates != 1414 || res.StatesGenerated != 3109 || res.Depth != 17 {
		t.Errorf("distinct %d generated %d depth %d", res.DistinctStates, res.StatesGenerated, res.Depth)
	}
	if len(res.Coverage) != 16 {
		t.Fatalf("%d actions in coverage, want 16", len(res.Coverage))
	}
	want := ActionCoverage{Name: "PredecessorGone", Module: "PredecessorLock", Line: 302, Distinct: 0, Total: 123}
	if c, ok := res.Covered("PredecessorGone"); !ok || c != want {
		t.Errorf("PredecessorGone coverage %+v, want %+v", c, want)
	}
	if c, _ := res.Covered("ExpireSession"); c.Total != 0 {
		t.Errorf("ExpireSession taken %d times in a config without faults", c.Total)
	}
	if _, ok := res.Covered("Init"); ok {
		t.Error("Init is not an action")
	}
}

func TestParseErrors(t *testing.T) {
	for file, want := range map[string]string{
		"parse_error.txt":    "Could not parse module Bad",
		"semantic_error.txt": "Unknown operator: `y'",
		"config_error.txt":   "The invariant NoSuchInvariant specified in the configuration file",
	} {
		res := parseFile(t, file)
		if res.Verdict != Error {
			t.Errorf("%s: verdict %q, want error", file, res.Verdict)
			continue
		}
		if all := strings.Join(res.Errors, "\n"); !strings.Contains(all, want) {
			t.Errorf("%s: errors %q do not mention %q", file, all, want)
		}
	}
}

func TestParseRejectsNonTLCOutput(t *testing.T) {
	if _, err := Parse(strings.NewReader("Error: Could not find or load main class tlc2.TLC\n")); err == nil {
		t.Error("Parse accepted output without -tool messages")
	}
}

func TestParseTruncatedOutputIsError(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "pass_coverage.txt"))
	if err != nil {
		t.Fatal(err)
	}
	// Cut the output before TLC's success message: a killed run.
	cut := strings.Index(string(data), "@!@!@STARTMSG 2193:")
	if cut < 0 {
		t.Fatal("no success message in sample")
	}
	res, err := Parse(strings.NewReader(string(data[:cut])))
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != Error {
		t.Errorf("verdict %q for a run that never finished", res.Verdict)
	}
}

func TestParseDuration(t *testing.T) {
	for in, want := range map[string]time.Duration{
		"511ms":      511 * time.Millisecond,
		"05s":        5 * time.Second,
		"01min 05s":  65 * time.Second,
		"02h 01min":  2*time.Hour + time.Minute,
		"1d 00h 01s": 24*time.Hour + time.Second,
	} {
		got, err := parseDuration(in)
		if err != nil || got != want {
			t.Errorf("parseDuration(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	if _, err := parseDuration("soon"); err == nil {
		t.Error("parseDuration accepted garbage")
	}
}

func TestParseStateMultilineValue(t *testing.T) {
	step, err := parseState("2: <Next line 1, col 1 to line 1, col 9 of module M>", []string{
		`/\ s = { [a |-> 1],`,
		`     [a |-> 2] }`,
		`/\ x = 3`,
	})
	if err != nil {
		t.Fatal(err)
	}
	if step.Action != "Next" || step.State["s"] != "{ [a |-> 1],\n[a |-> 2] }" || step.State["x"] != "3" {
		t.Errorf("%+v", step)
	}
}

// A run longer than a minute prints the coverage every minute: the last
// report counts. An action not yet taken at the first report (0:0) but
// taken by the end is taken (PredecessorLock.Safety on a loaded machine
// was once refused for it).
func TestParseCoverageLastReportCounts(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "pass_coverage.txt"))
	if err != nil {
		t.Fatal(err)
	}
	early := "@!@!@STARTMSG 2772:0 @!@!@\n" +
		"<PredecessorGone line 302, col 1 to line 302, col 18 of module PredecessorLock>: 0:0\n" +
		"@!@!@ENDMSG 2772 @!@!@\n"
	res, err := Parse(strings.NewReader(early + string(b)))
	if err != nil {
		t.Fatal(err)
	}
	c, ok := res.Covered("PredecessorGone")
	if !ok || c.Total != 123 {
		t.Fatalf("PredecessorGone coverage %+v (found %v), want the last report's 0:123", c, ok)
	}
	n := 0
	for _, c := range res.Coverage {
		if c.Name == "PredecessorGone" {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("PredecessorGone listed %d times, want once", n)
	}
}

// TestParseUnnamedActionProperty: a refinement's [][Next]_vars is reported
// by its location, which is not a property's name.
func TestParseUnnamedActionProperty(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "action_property_violation.txt"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(data), "Action property FencedSafety is violated",
		"Action property line 551, col 17 to line 551, col 29 of module PredecessorLock is violated", 1)
	res, err := Parse(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != ActionPropertyViolated || res.Property != "" {
		t.Errorf("verdict %s, property %q; want an unnamed action property", res.Verdict, res.Property)
	}
}
