// Package tlccfg reads TLC configuration files: the expectation header
// this repository writes at the top of each .cfg, the CONSTANTS, and the
// names of the specification, invariants and properties. It is pure: the
// Go models (model/specs) and the TLC runner (internal/tlc, cmd/tlc,
// cmd/conformance) share it without pulling in a JVM or a download.
package tlccfg

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// Model is what a TLC configuration file says about itself: the
// expectation in its leading comment lines and the properties it checks.
//
// The header is a block of `\*` comment lines at the top of the .cfg:
//
//	\* expect: pass                      (or: \* expect: violation NoHerd)
//	\* deep                              (only run by `make tlc-deep`)
//	\* disabled: PauseClient ResumeClient
//	\* tlc-only: the reason the Go model does not explore this config
//	\* tlc: deep 536451 2176030 25         (see TLCDeep)
//	\* Any other comment line describes the question the config asks.
//
// "disabled" names the actions this config's constants turn off; every
// other action must be taken at least once in a passing run. "tlc-only"
// marks a config that only TLC checks (an inductive invariant from a
// TypeOK start, a refinement mapping, SYMMETRY): cmd/conformance still
// requires TLC's result to meet the expectation and prints the reason.
type Model struct {
	// Pass is true for "expect: pass".
	Pass bool
	// Violation is the property expected to be violated ("Deadlock" for a
	// deadlock); empty when Pass.
	Violation string
	// Deep marks configs run only by the deep target.
	Deep bool
	// TLCDeep marks a passing config too large for TLC in make verify's
	// time: TLC runs it with the deep set, and make verify has the Go
	// model (whose state graph equals TLC's on every config TLC runs
	// there) explore it instead. Recorded is TLC's result, which each
	// must reproduce: `\* tlc: deep DISTINCT GENERATED DEPTH`.
	TLCDeep bool
	// Recorded is TLC's result of a TLCDeep config.
	Recorded Recorded
	// Disabled lists the actions the config's constants disable.
	Disabled []string
	// TLCOnly is the reason given by a `\* tlc-only:` line: only TLC
	// checks the config, the Go model does not explore it. Empty for the
	// configs the model mirrors.
	TLCOnly string
	// Description is the remaining header comment text.
	Description string
	// Specification is the SPECIFICATION of the config, if any.
	Specification string
	// Invariants and Properties are the names listed under INVARIANT(S)
	// and PROPERTY(IES).
	Invariants, Properties []string
	// Init and Next are the INIT and NEXT of the config, if any (a config
	// names either SPECIFICATION or INIT and NEXT).
	Init, Next string
	// Constants are the CONSTANT(S) assignments in file order.
	Constants []Constant
	// CheckDeadlock is CHECK_DEADLOCK; TLC's default is TRUE.
	CheckDeadlock bool
	// Unsupported lists the sections a Go model of the config cannot
	// mirror (SYMMETRY, VIEW, CONSTRAINT, ACTION_CONSTRAINT, ALIAS,
	// POSTCONDITION); TLC accepts them.
	Unsupported []string
}

// Recorded is the size of a passing config's state graph as TLC found it:
// distinct states, states generated and depth.
type Recorded struct {
	Distinct, Generated int64
	Depth               int
}

// Constant is one assignment of a config's CONSTANTS section: `Name = Value`
// (a TLA+ value: an integer, TRUE or FALSE, a string, a model value, or a
// set or tuple of those) or `Name <- Op` (a substitution, Subst is true).
type Constant struct {
	Name string
	// Value is the right-hand side, normalised to single spaces after
	// commas: "{c1, c2, c3}", "3", "TRUE".
	Value string
	// Subst is true for `Name <- Op` and `Name <- [Module] Op`.
	Subst bool
	// Module is the module whose definition Name a `Name <- [Module] Op`
	// overrides ("" for a constant or a definition of the root module).
	Module string
}

// Constant returns the value of the named constant and whether the config
// assigns it (substitutions are not values and are not returned).
func (m Model) Constant(name string) (string, bool) {
	for _, c := range m.Constants {
		if c.Name == name && !c.Subst {
			return c.Value, true
		}
	}
	return "", false
}

// cfgKeywords are the section keywords of a TLC configuration file.
var cfgKeywords = map[string]bool{
	"CONSTANT": true, "CONSTANTS": true, "INIT": true, "NEXT": true,
	"SPECIFICATION": true, "INVARIANT": true, "INVARIANTS": true,
	"PROPERTY": true, "PROPERTIES": true, "SYMMETRY": true, "VIEW": true,
	"CONSTRAINT": true, "CONSTRAINTS": true, "ACTION_CONSTRAINT": true,
	"ACTION_CONSTRAINTS": true, "CHECK_DEADLOCK": true, "POSTCONDITION": true,
	"ALIAS": true,
}

// Parse reads a configuration file's expectation header and the
// names of its specification, invariants and properties.
func Parse(cfg []byte) (Model, error) {
	p := &cfgParser{m: Model{CheckDeadlock: true}, header: true}
	sc := bufio.NewScanner(bytes.NewReader(cfg))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if c, ok := strings.CutPrefix(line, `\*`); ok {
			if !p.header {
				continue
			}
			if err := p.headerComment(strings.TrimSpace(c)); err != nil {
				return p.m, err
			}
			continue
		}
		if line == "" {
			continue
		}
		p.header = false
		if i := strings.Index(line, `\*`); i >= 0 {
			line = line[:i]
		}
		for _, tok := range strings.Fields(line) {
			p.token(tok)
		}
	}
	if err := sc.Err(); err != nil {
		return p.m, fmt.Errorf("reading config: %w", err)
	}
	return p.finish()
}

// cfgParser is Parse's state: the model so far, and what is collected
// before it can be checked (the description, the constants' text, the
// CHECK_DEADLOCK value).
type cfgParser struct {
	m          Model
	desc       []string
	constText  strings.Builder
	deadlock   string
	haveExpect bool
	header     bool   // still in the comments before the first section
	section    string // the keyword whose section the tokens belong to
}

// headerComment reads one comment of the header (c, without its \*): the
// expectation, the deep and disabled marks, or a line of the description.
func (p *cfgParser) headerComment(c string) error {
	switch {
	case strings.HasPrefix(c, "expect:"):
		if p.haveExpect {
			return errors.New("two expect: lines")
		}
		p.haveExpect = true
		f := strings.Fields(strings.TrimPrefix(c, "expect:"))
		switch {
		case len(f) == 1 && f[0] == "pass":
			p.m.Pass = true
		case len(f) == 2 && f[0] == "violation":
			p.m.Violation = f[1]
		default:
			return fmt.Errorf("bad expectation %q: want `expect: pass` or `expect: violation NAME`", c)
		}
	case c == "deep":
		p.m.Deep = true
	case strings.HasPrefix(c, "tlc:"):
		r := &p.m.Recorded
		var word string
		if n, err := fmt.Sscanf(strings.TrimPrefix(c, "tlc:"), "%s %d %d %d", &word, &r.Distinct, &r.Generated, &r.Depth); err != nil || n != 4 || word != "deep" {
			return fmt.Errorf("bad %q: want `tlc: deep DISTINCT GENERATED DEPTH`", c)
		}
		p.m.TLCDeep = true
	case strings.HasPrefix(c, "tlc-only:"):
		if p.m.TLCOnly != "" {
			return errors.New("two tlc-only: lines")
		}
		p.m.TLCOnly = strings.TrimSpace(strings.TrimPrefix(c, "tlc-only:"))
		if p.m.TLCOnly == "" {
			return errors.New("tlc-only: needs the reason the Go model does not explore the config")
		}
	case strings.HasPrefix(c, "disabled:"):
		p.m.Disabled = append(p.m.Disabled, strings.Fields(strings.TrimPrefix(c, "disabled:"))...)
	default:
		p.desc = append(p.desc, c)
	}
	return nil
}

// token reads one token of the config's body: a keyword opens its section,
// anything else belongs to the section open.
func (p *cfgParser) token(tok string) {
	m := &p.m
	if cfgKeywords[tok] {
		p.section = tok
		switch tok {
		case "SYMMETRY", "VIEW", "CONSTRAINT", "CONSTRAINTS", "ACTION_CONSTRAINT",
			"ACTION_CONSTRAINTS", "ALIAS", "POSTCONDITION":
			m.Unsupported = append(m.Unsupported, tok)
		case "CONSTANT", "CONSTANTS":
			p.constText.WriteString(" ")
		}
		return
	}
	switch p.section {
	case "SPECIFICATION":
		m.Specification = tok
	case "INIT":
		m.Init = tok
	case "NEXT":
		m.Next = tok
	case "INVARIANT", "INVARIANTS":
		m.Invariants = append(m.Invariants, tok)
	case "PROPERTY", "PROPERTIES":
		m.Properties = append(m.Properties, tok)
	case "CHECK_DEADLOCK":
		p.deadlock = tok
	case "CONSTANT", "CONSTANTS":
		p.constText.WriteString(tok)
		p.constText.WriteString(" ")
	}
}

// finish checks what needs the whole file (an expectation, CHECK_DEADLOCK's
// value, the constants, an expected violation the config checks) and
// completes the model.
func (p *cfgParser) finish() (Model, error) {
	m := p.m
	if !p.haveExpect {
		return m, errors.New("no `\\* expect:` line in the config header")
	}
	switch p.deadlock {
	case "":
	case "TRUE":
		m.CheckDeadlock = true
	case "FALSE":
		m.CheckDeadlock = false
	default:
		return m, fmt.Errorf("CHECK_DEADLOCK %s: want TRUE or FALSE", p.deadlock)
	}
	consts, err := parseConstants(p.constText.String())
	if err != nil {
		return m, err
	}
	m.Constants = consts
	if m.Violation != "" && m.Violation != "Deadlock" &&
		!slices.Contains(m.Invariants, m.Violation) && !slices.Contains(m.Properties, m.Violation) {
		return m, fmt.Errorf("expected violation %s is neither an invariant nor a property of the config", m.Violation)
	}
	if m.TLCDeep && (!m.Pass || m.Deep || m.TLCOnly != "") {
		return m, errors.New("`tlc: deep` is for a passing config of the CI set that the Go model explores (no `deep`, no `tlc-only:`)")
	}
	m.Description = strings.Join(p.desc, " ")
	return m, nil
}

// Config is one configuration file, <Module>.<Name>.cfg, beside the module
// <Module>.tla it checks.
type Config struct {
	Module string // root module name, e.g. PredecessorLockHerdParent
	Name   string // config name, e.g. NoHerd
	Spec   string // path of <Module>.tla
	Path   string // path of <Module>.<Name>.cfg
	Model  Model
}

// ID is Module.Name.
func (c Config) ID() string { return c.Module + "." + c.Name }

// Discover reads every <Module>.<Name>.cfg in dir, sorted by file name, and
// checks that its module is there.
func Discover(dir string) ([]Config, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.cfg"))
	if err != nil {
		return nil, fmt.Errorf("listing configs: %w", err)
	}
	sort.Strings(paths)
	var cfgs []Config
	for _, p := range paths {
		base := strings.TrimSuffix(filepath.Base(p), ".cfg")
		module, name, ok := strings.Cut(base, ".")
		if !ok || module == "" || name == "" || strings.Contains(name, ".") {
			return nil, fmt.Errorf("%s: config files are named <Module>.<Name>.cfg", p)
		}
		spec := filepath.Join(dir, module+".tla")
		if _, err := os.Stat(spec); err != nil {
			return nil, fmt.Errorf("%s: no module %s: %w", p, spec, err)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil, fmt.Errorf("reading config: %w", err)
		}
		m, err := Parse(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		cfgs = append(cfgs, Config{Module: module, Name: name, Spec: spec, Path: p, Model: m})
	}
	return cfgs, nil
}

// Select discovers the configs in dir and keeps those TLC runs in the set
// asked for (the deep configs and the TLCDeep ones, or the CI set without
// them) whose ID matches filter (a regexp; empty matches all). Selecting
// nothing is an error: a filter that matches no config is a typo, not a
// pass.
func Select(dir string, deep bool, filter string) ([]Config, error) {
	return selectWhere(dir, filter, func(m Model) bool { return (m.Deep || m.TLCDeep) == deep })
}

// SelectTLCDeep keeps the TLCDeep configs whose ID matches filter: the
// ones make verify has the Go model explore in TLC's stead. None is not an
// error.
func SelectTLCDeep(dir, filter string) ([]Config, error) {
	cfgs, err := selectWhere(dir, filter, func(m Model) bool { return m.TLCDeep })
	if errors.Is(err, ErrNoConfig) {
		return nil, nil
	}
	return cfgs, err
}

// ErrNoConfig is Select's error when no config is selected.
var ErrNoConfig = errors.New("no config selected")

func selectWhere(dir, filter string, keep func(Model) bool) ([]Config, error) {
	cfgs, err := Discover(dir)
	if err != nil {
		return nil, err
	}
	var re *regexp.Regexp
	if filter != "" {
		if re, err = regexp.Compile(filter); err != nil {
			return nil, fmt.Errorf("-run: %w", err)
		}
	}
	var selected []Config
	for _, c := range cfgs {
		if keep(c.Model) && (re == nil || re.MatchString(c.ID())) {
			selected = append(selected, c)
		}
	}
	if len(selected) == 0 {
		return nil, ErrNoConfig
	}
	return selected, nil
}
