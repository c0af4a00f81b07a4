package tlc

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

// RecordSchema is the version of the results file format; a file with
// another version is ignored (treated as empty) by LoadRecords.
const RecordSchema = 1

// Record is the machine-readable result of one TLC run on one config, as
// cmd/tlc writes it to .cache/tlc/results.json and cmd/conformance reads it
// back instead of running TLC again. A record is valid for a config as long
// as ConfigHash, SpecHash, Jar and Workers match (see Matches).
type Record struct {
	// Module and Name identify the config spec/tla/<Module>.<Name>.cfg.
	Module string `json:"module"`
	Name   string `json:"name"`
	// ConfigHash is the sha256 of the .cfg file; SpecHash covers the root
	// module and every local module it extends (SpecHash).
	ConfigHash string `json:"config_sha256"`
	SpecHash   string `json:"spec_sha256"`
	// Jar is the TLC jar's file name and Version TLC's version line.
	Jar     string `json:"jar"`
	Version string `json:"tlc_version"`
	// Workers is the -workers value TLC ran with ("1" for expected failures).
	Workers string `json:"workers"`
	// Expected is the config's expectation: "pass" or "violation NAME".
	Expected string `json:"expected"`
	// Verdict and Property are Result.Verdict and Result.Property.
	Verdict  Verdict `json:"verdict"`
	Property string  `json:"property,omitempty"`
	// DistinctStates, StatesGenerated and Depth are TLC's statistics.
	DistinctStates  int64 `json:"distinct_states"`
	StatesGenerated int64 `json:"states_generated"`
	Depth           int   `json:"depth"`
	// TraceLength is the number of states in the counterexample (0 without one).
	TraceLength int `json:"trace_length"`
	// TraceLoop is the index of the state a lasso-shaped counterexample
	// goes back to, -1 otherwise; TraceStutters marks one that ends by
	// stuttering.
	TraceLoop     int  `json:"trace_loop"`
	TraceStutters bool `json:"trace_stutters,omitempty"`
	// TraceActions are the counterexample's action names, "Init" first.
	TraceActions []string `json:"trace_actions,omitempty"`
	// Trace holds every state of the counterexample: variable -> value as
	// TLC prints it.
	Trace []map[string]string `json:"trace,omitempty"`
	// Coverage is TLC's per-action coverage.
	Coverage []ActionCoverage `json:"coverage,omitempty"`
	// Seconds is TLC's own run time.
	Seconds float64 `json:"seconds"`
	// Check is "ok" when the result met the config's expectation, else
	// the reason it did not.
	Check string `json:"check"`
	// When is the time the run finished.
	When time.Time `json:"when"`
}

// ID returns Module.Name.
func (r Record) ID() string { return r.Module + "." + r.Name }

// Matches reports whether r was produced from the given config and spec
// contents, jar and worker setting.
func (r Record) Matches(configHash, specHash, jar, workers string) bool {
	return r.ConfigHash == configHash && r.SpecHash == specHash && r.Jar == jar && r.Workers == workers
}

// NewRecord builds the record of one run.
func NewRecord(module, name, configHash, specHash, jar, workers string, m Model, res *Result, check error) Record {
	rec := Record{
		Module: module, Name: name, ConfigHash: configHash, SpecHash: specHash,
		Jar: jar, Workers: workers, Expected: "pass", Check: "ok", TraceLoop: -1,
		When: time.Now().UTC().Truncate(time.Second),
	}
	if !m.Pass {
		rec.Expected = "violation " + m.Violation
	}
	if check != nil {
		rec.Check = check.Error()
	}
	if res == nil {
		rec.Verdict = Error
		return rec
	}
	rec.Version = res.Version
	rec.Verdict, rec.Property = res.Verdict, res.Property
	rec.DistinctStates, rec.StatesGenerated, rec.Depth = res.DistinctStates, res.StatesGenerated, res.Depth
	rec.TraceLength, rec.TraceLoop, rec.TraceStutters = len(res.Trace), res.TraceLoop, res.TraceStutters
	for _, s := range res.Trace {
		rec.TraceActions = append(rec.TraceActions, s.Action)
		rec.Trace = append(rec.Trace, s.State)
	}
	rec.Coverage = res.Coverage
	rec.Seconds = res.Duration.Seconds()
	return rec
}

// Records is the content of a results file.
type Records struct {
	Schema  int      `json:"schema"`
	Records []Record `json:"records"`
}

// LoadRecords reads a results file. A missing file, or one written with
// another schema, yields an empty set.
func LoadRecords(path string) (*Records, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &Records{Schema: RecordSchema}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("tlc: reading results: %w", err)
	}
	var rs Records
	if err := json.Unmarshal(data, &rs); err != nil {
		return nil, fmt.Errorf("tlc: %s: %w", path, err)
	}
	if rs.Schema != RecordSchema {
		return &Records{Schema: RecordSchema}, nil
	}
	return &rs, nil
}

// Get returns the record of Module.Name, if any.
func (rs *Records) Get(id string) (Record, bool) {
	for _, r := range rs.Records {
		if r.ID() == id {
			return r, true
		}
	}
	return Record{}, false
}

// Put adds r, replacing the record of the same config.
func (rs *Records) Put(r Record) {
	for i := range rs.Records {
		if rs.Records[i].ID() == r.ID() {
			rs.Records[i] = r
			return
		}
	}
	rs.Records = append(rs.Records, r)
	sort.Slice(rs.Records, func(i, j int) bool { return rs.Records[i].ID() < rs.Records[j].ID() })
}

// Save writes the records to path (atomically: a temporary file renamed
// over it), creating its folder.
func (rs *Records) Save(path string) error {
	rs.Schema = RecordSchema
	data, err := json.MarshalIndent(rs, "", "  ")
	if err != nil {
		return fmt.Errorf("tlc: encoding results: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("tlc: %w", err)
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("tlc: writing results: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("tlc: writing results: %w", err)
	}
	return nil
}

// FileHash returns the hex sha256 of a file's content.
func FileHash(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("tlc: %w", err)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}

// SpecHash returns a sha256 over the module <dir>/<module>.tla and every
// module in dir it extends, directly or not (standard modules such as
// Integers are not in dir and are not hashed: they come with the jar).
func SpecHash(dir, module string) (string, error) {
	seen := map[string][]byte{}
	var visit func(string) error
	visit = func(m string) error {
		if _, ok := seen[m]; ok {
			return nil
		}
		data, err := os.ReadFile(filepath.Join(dir, m+".tla"))
		if errors.Is(err, fs.ErrNotExist) && len(seen) > 0 {
			return nil // a standard module
		}
		if err != nil {
			return fmt.Errorf("tlc: %w", err)
		}
		seen[m] = data
		for _, e := range extends(data) {
			if err := visit(e); err != nil {
				return err
			}
		}
		return nil
	}
	if err := visit(module); err != nil {
		return "", err
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		fmt.Fprintf(h, "%s %d\n", n, len(seen[n]))
		h.Write(seen[n])
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// instanceRe matches a module instantiated anywhere on a line:
// `ZK == INSTANCE ZooKeeper`, `INSTANCE PredecessorLock WITH ...`.
var instanceRe = regexp.MustCompile(`\bINSTANCE\s+([A-Za-z0-9_]+)`)

// extends returns the modules a module's source depends on: those it
// EXTENDS and those it INSTANCEs. A result cached under a spec hash must be
// stale once any of them changes (the lock specs INSTANCE ZooKeeper).
func extends(src []byte) []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(src))
	for sc.Scan() {
		line := sc.Text()
		if i := strings.Index(line, `\*`); i >= 0 {
			line = line[:i]
		}
		for _, m := range instanceRe.FindAllStringSubmatch(line, -1) {
			out = append(out, m[1])
		}
		rest, ok := strings.CutPrefix(strings.TrimSpace(line), "EXTENDS")
		if !ok {
			continue
		}
		for _, n := range strings.Split(rest, ",") {
			if n = strings.TrimSpace(n); n != "" {
				out = append(out, n)
			}
		}
	}
	return out
}
