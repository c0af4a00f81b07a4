package specs

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/zklock/zklock/internal/tlccfg"
	"github.com/zklock/zklock/model/explore"
)

var specDir = filepath.Join("..", "..", "spec", "tla")

// configs reads every config in spec/tla.
func configs(t *testing.T) map[string]tlccfg.Model {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(specDir, "*.cfg"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no configs: %v", err)
	}
	out := map[string]tlccfg.Model{}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		m, err := tlccfg.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out[strings.TrimSuffix(filepath.Base(p), ".cfg")] = m
	}
	return out
}

// tlcResult is one row of spec/tla/RESULTS.md.
type tlcResult struct {
	verdict  string
	distinct int64
	trace    int
}

// results reads TLC's results from spec/tla/RESULTS.md (written by make tlc).
func results(t *testing.T) map[string]tlcResult {
	t.Helper()
	f, err := os.Open(filepath.Join(specDir, "RESULTS.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]tlcResult{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cells := strings.Split(sc.Text(), "|")
		if len(cells) < 11 || strings.TrimSpace(cells[1]) == "spec" || strings.HasPrefix(strings.TrimSpace(cells[1]), "---") {
			continue
		}
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
		}
		distinct, err1 := strconv.ParseInt(cells[5], 10, 64)
		trace, err2 := strconv.Atoi(cells[8])
		if err1 != nil {
			continue
		}
		if err2 != nil {
			trace = 0
		}
		out[cells[1]+"."+cells[2]] = tlcResult{verdict: cells[4], distinct: distinct, trace: trace}
	}
	return out
}

func TestEveryConfigLoads(t *testing.T) {
	for id, m := range configs(t) {
		if m.TLCOnly != "" {
			continue // only TLC checks it (cmd/conformance prints why)
		}
		module, _, _ := strings.Cut(id, ".")
		in, err := Load(module, m)
		if err != nil {
			t.Errorf("%s: %v", id, err)
			continue
		}
		if !strings.HasPrefix(in.Name(), module+"!") {
			t.Errorf("%s: name %s", id, in.Name())
		}
	}
}

// TestAgreesWithResults explores the CI configs and compares the verdict,
// the distinct states and the counterexample length with TLC's in
// spec/tla/RESULTS.md (cmd/conformance compares much more, with TLC's own
// records). Under -short only the configs below 20,000 states.
func TestAgreesWithResults(t *testing.T) {
	res := results(t)
	if len(res) == 0 {
		t.Fatal("no results in RESULTS.md")
	}
	for id, m := range configs(t) {
		want, ok := res[id]
		if m.Deep || !ok || m.TLCOnly != "" {
			continue
		}
		if testing.Short() && want.distinct > 20000 {
			continue
		}
		t.Run(id, func(t *testing.T) {
			module, _, _ := strings.Cut(id, ".")
			in, err := Load(module, m)
			if err != nil {
				t.Fatal(err)
			}
			out, err := in.Check(explore.Options{TLCOrder: !m.Pass})
			if err != nil {
				t.Fatal(err)
			}
			if out.Distinct != want.distinct {
				t.Errorf("%d distinct states, TLC %d", out.Distinct, want.distinct)
			}
			if !strings.HasPrefix(want.verdict, string(out.Verdict)) {
				t.Errorf("verdict %s %s, TLC %s", out.Verdict, out.Property, want.verdict)
			}
			if out.Verdict != explore.Pass && out.Verdict != explore.TemporalViolated && len(out.TraceActions) != want.trace {
				t.Errorf("counterexample of %d states, TLC %d", len(out.TraceActions), want.trace)
			}
		})
	}
}

func TestLoadErrors(t *testing.T) {
	base := configs(t)["PredecessorLock.Safety"]
	edit := func(f func(*tlccfg.Model)) tlccfg.Model {
		m := base
		m.Constants = append([]tlccfg.Constant(nil), base.Constants...)
		m.Invariants = append([]string(nil), base.Invariants...)
		m.Properties = append([]string(nil), base.Properties...)
		f(&m)
		return m
	}
	setConst := func(m *tlccfg.Model, name, value string) {
		for i := range m.Constants {
			if m.Constants[i].Name == name {
				m.Constants[i].Value = value
			}
		}
	}
	for name, tc := range map[string]struct {
		module string
		m      tlccfg.Model
	}{
		"unknown module":          {"Paxos", base},
		"unknown invariant":       {"PredecessorLock", edit(func(m *tlccfg.Model) { m.Invariants = append(m.Invariants, "Nonsense") })},
		"unknown property":        {"PredecessorLock", edit(func(m *tlccfg.Model) { m.Properties = append(m.Properties, "Nonsense") })},
		"mutant spec in base":     {"PredecessorLock", edit(func(m *tlccfg.Model) { m.Specification = "HerdSpec" })},
		"unknown spec":            {"PredecessorLock", edit(func(m *tlccfg.Model) { m.Specification = "OtherSpec" })},
		"no spec":                 {"PredecessorLock", edit(func(m *tlccfg.Model) { m.Specification = "" })},
		"missing constant":        {"PredecessorLock", edit(func(m *tlccfg.Model) { m.Constants = m.Constants[1:] })},
		"extra constant":          {"PredecessorLock", edit(func(m *tlccfg.Model) { m.Constants = append(m.Constants, tlccfg.Constant{Name: "X", Value: "1"}) })},
		"negative bound":          {"PredecessorLock", edit(func(m *tlccfg.Model) { setConst(m, "MaxSeq", "-1") })},
		"bad boolean":             {"PredecessorLock", edit(func(m *tlccfg.Model) { setConst(m, "Fencing", "1") })},
		"grant rule not a string": {"PredecessorLock", edit(func(m *tlccfg.Model) { setConst(m, "GrantRule", "checked") })},
		"unknown grant rule":      {"PredecessorLock", edit(func(m *tlccfg.Model) { setConst(m, "GrantRule", `"eager"`) })},
		"clients not a set":       {"PredecessorLock", edit(func(m *tlccfg.Model) { setConst(m, "Clients", "c1") })},
		"clients not values":      {"PredecessorLock", edit(func(m *tlccfg.Model) { setConst(m, "Clients", "{1, 2}") })},
		"unsupported symmetry":    {"PredecessorLock", edit(func(m *tlccfg.Model) { m.Unsupported = []string{"SYMMETRY"} })},
		"no fair spec":            {"PredecessorLockHerdParent", edit(func(m *tlccfg.Model) { m.Specification = "BlindFairSpec" })},
	} {
		if _, err := Load(tc.module, tc.m); err == nil {
			t.Errorf("%s: Load accepted it", name)
		}
	}
	// The marker's own constants and specifications.
	marked := configs(t)["PredecessorLockMarked.Checked"]
	for name, f := range map[string]func(*tlccfg.Model){
		"unknown mark rule":   func(m *tlccfg.Model) { setConst(m, "MarkRule", `"eager"`) },
		"plain not a client":  func(m *tlccfg.Model) { setConst(m, "Plain", "{c9}") },
		"forged spec in base": func(m *tlccfg.Model) { m.Specification = "FSpec" },
		"bad WithForgery":     func(m *tlccfg.Model) { setConst(m, "WithForgery", "1") },
	} {
		m := marked
		m.Constants = append([]tlccfg.Constant(nil), marked.Constants...)
		f(&m)
		if _, err := Load("PredecessorLockMarked", m); err == nil {
			t.Errorf("%s: Load accepted it", name)
		}
	}
	// INIT Init / NEXT Next is the same as SPECIFICATION Spec.
	m := edit(func(m *tlccfg.Model) { m.Specification, m.Init, m.Next = "", "Init", "Next" })
	if in, err := Load("PredecessorLock", m); err != nil || in.Name() != "PredecessorLock!Spec" {
		t.Errorf("INIT/NEXT: %v", err)
	}
}
