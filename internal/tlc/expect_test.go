package tlc

import (
	"strings"
	"testing"
)

const passCfg = `\* expect: pass
\* disabled: CreateReplyLost FindOwnNode IgnoreNotification Cancel LearnExpiry ExpireSession PauseClient ResumeClient
\* Without faults every request is granted.
CONSTANTS
    Clients = {c1, c2, c3}
SPECIFICATION FairSpec
INVARIANTS
    TypeOK
    MutualExclusion \* trailing comment
PROPERTIES StarvationFree TokensIncrease
CHECK_DEADLOCK FALSE
`

func TestParseModel(t *testing.T) {
	m, err := ParseModel([]byte(passCfg))
	if err != nil {
		t.Fatal(err)
	}
	if !m.Pass || m.Violation != "" || m.Deep || m.Specification != "FairSpec" {
		t.Errorf("%+v", m)
	}
	if strings.Join(m.Invariants, " ") != "TypeOK MutualExclusion" ||
		strings.Join(m.Properties, " ") != "StarvationFree TokensIncrease" {
		t.Errorf("invariants %v properties %v", m.Invariants, m.Properties)
	}
	if len(m.Disabled) != 8 || m.Description != "Without faults every request is granted." {
		t.Errorf("disabled %v description %q", m.Disabled, m.Description)
	}

	m, err = ParseModel([]byte("\\* expect: violation NoHerd\n\\* deep\nSPECIFICATION HerdSpec\nINVARIANT NoHerd\n"))
	if err != nil || m.Pass || m.Violation != "NoHerd" || !m.Deep {
		t.Errorf("%+v, %v", m, err)
	}
}

func TestParseModelErrors(t *testing.T) {
	for _, cfg := range []string{
		"SPECIFICATION Spec\n",                              // no expectation
		"\\* expect: maybe\nSPECIFICATION Spec\n",           // bad expectation
		"\\* expect: violation Foo\nINVARIANT Bar\n",        // Foo is not checked
		"\\* expect: pass\n\\* expect: pass\nINVARIANT X\n", // two expectations
	} {
		if _, err := ParseModel([]byte(cfg)); err == nil {
			t.Errorf("ParseModel accepted %q", cfg)
		}
	}
}

func TestCheckPassingConfig(t *testing.T) {
	m, err := ParseModel([]byte(passCfg))
	if err != nil {
		t.Fatal(err)
	}
	res := parseFile(t, "pass_coverage.txt")
	if err := Check(m, res); err != nil {
		t.Errorf("Check: %v", err)
	}

	// An action never taken and not declared disabled is a spec bug.
	m2 := m
	m2.Disabled = m.Disabled[1:] // CreateReplyLost no longer declared
	if err := Check(m2, res); err == nil || !strings.Contains(err.Error(), "CreateReplyLost") {
		t.Errorf("Check accepted an action never taken: %v", err)
	}
	// A stale declaration: Grant was taken.
	m3 := m
	m3.Disabled = append(append([]string(nil), m.Disabled...), "Grant")
	if err := Check(m3, res); err == nil || !strings.Contains(err.Error(), "stale") {
		t.Errorf("Check accepted a stale disabled declaration: %v", err)
	}
	// A misspelt declaration.
	m4 := m
	m4.Disabled = append(append([]string(nil), m.Disabled...), "Grnat")
	if err := Check(m4, res); err == nil || !strings.Contains(err.Error(), "Grnat") {
		t.Errorf("Check accepted an unknown disabled action: %v", err)
	}
	// Expected a violation, got a pass.
	if err := Check(Model{Violation: "NoHerd", Invariants: []string{"NoHerd"}}, res); err == nil {
		t.Error("Check accepted a pass for an expected violation")
	}
	// No coverage report at all.
	bare := *res
	bare.Coverage = nil
	if err := Check(m, &bare); err == nil {
		t.Error("Check accepted a passing run without coverage")
	}
}

func TestCheckViolations(t *testing.T) {
	inv := parseFile(t, "invariant_violation.txt")
	live := parseFile(t, "liveness_violation.txt")
	act := parseFile(t, "action_property_violation.txt")
	dead := parseFile(t, "deadlock.txt")
	// A refinement's [][Next]_vars: TLC names the action property by its location.
	refine := &Result{Verdict: ActionPropertyViolated, Trace: act.Trace}
	for _, tc := range []struct {
		name string
		m    Model
		res  *Result
		ok   bool
	}{
		{"named invariant", Model{Violation: "NoOrphans", Invariants: []string{"NoOrphans"}}, inv, true},
		{"other invariant", Model{Violation: "NoHerd", Invariants: []string{"NoHerd", "NoOrphans"}}, inv, false},
		{"pass expected", Model{Pass: true}, inv, false},
		{"action property", Model{Violation: "FencedSafety", Properties: []string{"FencedSafety"}}, act, true},
		{"action property, other name", Model{Violation: "TokensIncrease", Properties: []string{"TokensIncrease", "FencedSafety"}}, act, false},
		{"temporal, only property", Model{Violation: "StarvationFree", Properties: []string{"StarvationFree"}}, live, true},
		{"temporal, ambiguous", Model{Violation: "StarvationFree", Properties: []string{"StarvationFree", "Other"}}, live, false},
		{"temporal, but an invariant expected", Model{Violation: "NoOrphans", Invariants: []string{"NoOrphans"}}, live, false},
		{"refinement, only property", Model{Violation: "Refinement", Properties: []string{"Refinement"}}, refine, true},
		{"refinement, ambiguous", Model{Violation: "Refinement", Properties: []string{"Refinement", "FencedSafety"}}, refine, false},
		{"deadlock expected", Model{Violation: "Deadlock"}, dead, true},
		{"deadlock not expected", Model{Violation: "NoOrphans", Invariants: []string{"NoOrphans"}}, dead, false},
		{"parse error", Model{Pass: true}, parseFile(t, "parse_error.txt"), false},
		{"parse error, violation expected", Model{Violation: "X", Invariants: []string{"X"}}, parseFile(t, "semantic_error.txt"), false},
	} {
		err := Check(tc.m, tc.res)
		if (err == nil) != tc.ok {
			t.Errorf("%s: Check = %v, want ok=%v", tc.name, err, tc.ok)
		}
	}
}

// A TLCDeep config's TLC result must be the one its `tlc: deep` line
// records; one state off is an error.
func TestCheckRecordedResult(t *testing.T) {
	m, err := ParseModel([]byte(passCfg))
	if err != nil {
		t.Fatal(err)
	}
	r := parseFile(t, "pass_coverage.txt")
	m.TLCDeep = true
	m.Recorded.Distinct, m.Recorded.Generated, m.Recorded.Depth = r.DistinctStates, r.StatesGenerated, r.Depth
	if err := Check(m, r); err != nil {
		t.Fatalf("Check rejected the recorded result: %v", err)
	}
	m.Recorded.Distinct++
	if err := Check(m, r); err == nil || !strings.Contains(err.Error(), "tlc: deep") {
		t.Errorf("Check accepted a result other than the recorded one: %v", err)
	}
}
