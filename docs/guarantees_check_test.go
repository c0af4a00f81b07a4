package docs

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// index is what exists in the repository, by kind of check, for
// checkGuarantees to look names up in.
type index struct {
	tests   map[string]bool            // func TestX, ExampleX, FuzzX, BenchmarkX in *_test.go
	mutants map[string]bool            // Name fields of cmd/mutants
	chaos   map[string]bool            // checker.CheckName values
	configs map[string]string          // Module.Name of spec/tla/Module.Name.cfg -> its expected verdict
	defs    map[string]map[string]bool // module -> identifiers defined in it
	extends map[string][]string        // module -> modules it EXTENDS
}

var (
	testFunc    = regexp.MustCompile(`(?m)^func ((?:Test|Example|Fuzz|Benchmark)\w*)\(`)
	mutantName  = regexp.MustCompile(`\bName:\s*"([^"]+)"`)
	checkName   = regexp.MustCompile(`\bCheckName\s*=\s*"([^"]+)"`)
	tlaDef      = regexp.MustCompile(`(?m)^([A-Za-z_][A-Za-z0-9_]*)\s*(?:\([^)]*\)|\[[^\]]*\])?\s*==`)
	tlaExtends  = regexp.MustCompile(`(?m)^EXTENDS\s+([A-Za-z0-9_,\s]+?)\s*$`)
	promiseHead = regexp.MustCompile(`^###\s+(.+)$`)
	checksLine  = regexp.MustCompile(`^- ([a-z]+): (.*)$`)
	nameToken   = regexp.MustCompile("`([^`]+)`")
	cfgExpect   = regexp.MustCompile(`(?m)^\\\* expect: (\S+)`)
)

// buildIndex scans the repository at root for the names of its checks.
func buildIndex(root string) (*index, error) {
	ix := &index{
		tests: map[string]bool{}, mutants: map[string]bool{}, chaos: map[string]bool{},
		configs: map[string]string{}, defs: map[string]map[string]bool{}, extends: map[string][]string{},
	}
	goFiles, err := walk(root, func(rel string) bool { return strings.HasSuffix(rel, ".go") })
	if err != nil {
		return nil, err
	}
	for _, f := range goFiles {
		raw, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			return nil, err
		}
		text := string(raw)
		switch {
		case strings.HasSuffix(f, "_test.go"):
			for _, m := range testFunc.FindAllStringSubmatch(text, -1) {
				ix.tests[m[1]] = true
			}
		case strings.HasPrefix(f, "cmd/mutants/"):
			for _, m := range mutantName.FindAllStringSubmatch(text, -1) {
				ix.mutants[m[1]] = true
			}
		}
		if !strings.HasSuffix(f, "_test.go") {
			for _, m := range checkName.FindAllStringSubmatch(text, -1) {
				ix.chaos[m[1]] = true
			}
		}
	}
	specs, err := filepath.Glob(filepath.Join(root, "spec", "tla", "*"))
	if err != nil {
		return nil, err
	}
	for _, p := range specs {
		base := filepath.Base(p)
		switch {
		case strings.HasSuffix(base, ".cfg"):
			raw, err := os.ReadFile(p)
			if err != nil {
				return nil, err
			}
			expect := "(none)"
			if m := cfgExpect.FindStringSubmatch(string(raw)); m != nil {
				expect = m[1]
			}
			ix.configs[strings.TrimSuffix(base, ".cfg")] = expect
		case strings.HasSuffix(base, ".tla"):
			raw, err := os.ReadFile(p)
			if err != nil {
				return nil, err
			}
			ix.addModule(strings.TrimSuffix(base, ".tla"), string(raw))
		}
	}
	return ix, nil
}

// addModule records the definitions and the EXTENDS of a TLA+ module.
func (ix *index) addModule(module, text string) {
	defs := map[string]bool{}
	for _, m := range tlaDef.FindAllStringSubmatch(text, -1) {
		defs[m[1]] = true
	}
	ix.defs[module] = defs
	if m := tlaExtends.FindStringSubmatch(text); m != nil {
		for _, e := range strings.Split(m[1], ",") {
			ix.extends[module] = append(ix.extends[module], strings.TrimSpace(e))
		}
	}
}

// defines reports whether module, or a module it EXTENDS, defines name.
func (ix *index) defines(module, name string) bool {
	seen := map[string]bool{}
	var visit func(string) bool
	visit = func(m string) bool {
		if seen[m] {
			return false
		}
		seen[m] = true
		if ix.defs[m][name] {
			return true
		}
		for _, e := range ix.extends[m] {
			if visit(e) {
				return true
			}
		}
		return false
	}
	return visit(module)
}

// checkKinds are the keys of a promise's check lines, each with how a name
// of that kind is looked up.
var checkKinds = map[string]func(ix *index, name string) error{
	"tests": func(ix *index, name string) error {
		top, _, _ := strings.Cut(name, "/")
		if !ix.tests[top] {
			return fmt.Errorf("no func %s in any *_test.go", top)
		}
		return nil
	},
	"mutants": func(ix *index, name string) error {
		if !ix.mutants[name] {
			return fmt.Errorf("no mutant named %q in cmd/mutants", name)
		}
		return nil
	},
	"chaos": func(ix *index, name string) error {
		if !ix.chaos[name] {
			return fmt.Errorf("no checker.CheckName %q", name)
		}
		return nil
	},
	"spec": func(ix *index, name string) error {
		module, prop, ok := strings.Cut(name, ".")
		if !ok {
			return fmt.Errorf("%q is not Module.Property", name)
		}
		if _, ok := ix.defs[module]; !ok {
			return fmt.Errorf("no spec/tla/%s.tla", module)
		}
		if !ix.defines(module, prop) {
			return fmt.Errorf("%s is not defined in spec/tla/%s.tla or what it extends", prop, module)
		}
		return nil
	},
	"configs": func(ix *index, name string) error {
		switch expect, ok := ix.configs[name]; {
		case !ok:
			return fmt.Errorf("no spec/tla/%s.cfg", name)
		case expect != "pass":
			return fmt.Errorf("spec/tla/%s.cfg expects %s, not pass: list it under controls", name, expect)
		}
		return nil
	},
	"controls": func(ix *index, name string) error {
		switch expect, ok := ix.configs[name]; {
		case !ok:
			return fmt.Errorf("no spec/tla/%s.cfg", name)
		case expect == "pass":
			return fmt.Errorf("spec/tla/%s.cfg must pass, not fail: list it under configs", name)
		}
		return nil
	},
}

// promise is one "### " section of GUARANTEES.md.
type promise struct {
	title  string
	line   int
	bound  bool
	checks map[string][]string
}

// parsePromises reads the promises of a GUARANTEES.md: each "### " heading
// starts one; a "Bound:" line gives its bound; lines "- KIND: `a`, `b`"
// name its checks. Malformed check lines are reported.
func parsePromises(text string) ([]*promise, []string) {
	var ps []*promise
	var bad []string
	var cur *promise
	for _, ll := range logicalLines(proseLines(text)) {
		i, l := ll.line, ll.text
		if strings.HasPrefix(l, "## ") || strings.HasPrefix(l, "# ") {
			cur = nil
			continue
		}
		if m := promiseHead.FindStringSubmatch(l); m != nil {
			cur = &promise{title: m[1], line: i + 1, checks: map[string][]string{}}
			ps = append(ps, cur)
			continue
		}
		if cur == nil {
			continue
		}
		if strings.HasPrefix(l, "Bound:") && strings.TrimSpace(strings.TrimPrefix(l, "Bound:")) != "" {
			cur.bound = true
		}
		m := checksLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		kind, rest := m[1], m[2]
		if _, ok := checkKinds[kind]; !ok {
			if strings.Contains(rest, "`") {
				bad = append(bad, fmt.Sprintf("GUARANTEES.md:%d: unknown kind of check %q", i+1, kind))
			}
			continue
		}
		names := nameToken.FindAllStringSubmatch(rest, -1)
		left := strings.Trim(nameToken.ReplaceAllString(rest, ""), " ,.")
		if strings.Trim(left, " ,") != "" || len(names) == 0 {
			bad = append(bad, fmt.Sprintf("GUARANTEES.md:%d: %s: only backticked names, comma-separated", i+1, kind))
		}
		for _, n := range names {
			cur.checks[kind] = append(cur.checks[kind], n[1])
		}
	}
	return ps, bad
}

// numbered is a line of text and its 0-based line number.
type numbered struct {
	line int
	text string
}

// logicalLines joins a list item's continuation lines (indented, not a new
// item) to it, so that a list of names may wrap.
func logicalLines(lines []string) []numbered {
	var out []numbered
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if len(out) > 0 && strings.HasPrefix(l, "  ") && t != "" && !strings.HasPrefix(t, "- ") &&
			strings.HasPrefix(out[len(out)-1].text, "- ") {
			out[len(out)-1].text += " " + t
			continue
		}
		out = append(out, numbered{i, l})
	}
	return out
}

// checkGuarantees reports a GUARANTEES.md that promises something no test
// stands behind, names a check that does not exist, or leaves a mutant of
// cmd/mutants out (every mutant breaks a promise, so some promise names it).
func checkGuarantees(ix *index, text string) []string {
	ps, bad := parsePromises(text)
	named := map[string]bool{}
	for _, p := range ps {
		for _, n := range p.checks["mutants"] {
			named[n] = true
		}
	}
	var unnamed []string
	for m := range ix.mutants {
		if !named[m] {
			unnamed = append(unnamed, m)
		}
	}
	sort.Strings(unnamed)
	for _, m := range unnamed {
		bad = append(bad, fmt.Sprintf("GUARANTEES.md: no promise names the mutant %q", m))
	}
	if len(ps) == 0 {
		bad = append(bad, "GUARANTEES.md: no promise (### heading)")
	}
	titles := map[string]bool{}
	for _, p := range ps {
		where := fmt.Sprintf("GUARANTEES.md:%d: %q", p.line, p.title)
		if titles[p.title] {
			bad = append(bad, where+": a second promise of that title")
		}
		titles[p.title] = true
		if !p.bound {
			bad = append(bad, where+": no Bound: line")
		}
		if len(p.checks["tests"]) == 0 {
			bad = append(bad, where+": names no test")
		}
		for kind, names := range p.checks {
			for _, n := range names {
				if err := checkKinds[kind](ix, n); err != nil {
					bad = append(bad, fmt.Sprintf("%s: %s `%s`: %v", where, kind, n, err))
				}
			}
		}
	}
	return bad
}

// checkReadmeTable reports a promise of GUARANTEES.md that README.md's
// table of promises does not link to: the README lists every promise, a
// line each.
func checkReadmeTable(readme, guarantees string) []string {
	linked := map[string]bool{}
	targets, _ := links(readme)
	for _, t := range targets {
		if a, ok := strings.CutPrefix(t, "docs/GUARANTEES.md#"); ok {
			linked[a] = true
		}
	}
	ps, _ := parsePromises(guarantees)
	var bad []string
	for _, p := range ps {
		if !linked[slug(p.title)] {
			bad = append(bad, fmt.Sprintf("README.md: no line of the promises' table links to GUARANTEES.md#%s (%q)", slug(p.title), p.title))
		}
	}
	return bad
}
