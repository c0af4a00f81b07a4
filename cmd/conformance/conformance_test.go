package main

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zklock/zklock/internal/tlc"
	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/specs"
)

var specDir = filepath.Join("..", "..", "spec", "tla")

func configByID(t *testing.T, id string) config {
	t.Helper()
	cfgs, err := discover(specDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cfgs {
		if c.ID() == id {
			return c
		}
	}
	t.Fatalf("no config %s", id)
	return config{}
}

// fakeRecord builds the record TLC would write for c from the model's own
// outcome (so the test needs no TLC).
func fakeRecord(t *testing.T, c config) (tlc.Record, specs.Instance) {
	t.Helper()
	inst, err := specs.Load(c.Module, c.Model)
	if err != nil {
		t.Fatal(err)
	}
	out, err := inst.Check(explore.Options{TLCOrder: !c.Model.Pass})
	if err != nil {
		t.Fatal(err)
	}
	rec := tlc.Record{Module: c.Module, Name: c.Name, Workers: "auto", Verdict: tlc.Verdict(out.Verdict),
		Property: out.Property, DistinctStates: out.Distinct, StatesGenerated: out.Generated, Depth: out.Depth,
		TraceLength: len(out.TraceActions), TraceLoop: out.TraceLoop, TraceStutters: out.TraceStutters,
		TraceActions: out.TraceActions, Trace: out.TraceStates, Check: "ok"}
	if !c.Model.Pass {
		rec.Workers = "1"
	}
	if out.Verdict == explore.TemporalViolated {
		rec.Property = "" // TLC does not name it
	}
	return rec, inst
}

func compared(t *testing.T, c config, rec tlc.Record, inst specs.Instance) []string {
	t.Helper()
	out, err := inst.Check(explore.Options{TLCOrder: !c.Model.Pass})
	if err != nil {
		t.Fatal(err)
	}
	r := &row{cfg: c, rec: rec, model: out}
	compare(r, inst)
	return r.problems
}

// TestCompareCatchesDisagreement is the comparison's positive control:
// every kind of disagreement with TLC's record is reported.
func TestCompareCatchesDisagreement(t *testing.T) {
	for _, id := range []string{"PredecessorLockNotifyIsGrant.MiddleCancel", "SharedLock.ReadersShare",
		"PredecessorLockBlindRetry.Liveness", "SharedLock.PauseSafety"} {
		c := configByID(t, id)
		rec, inst := fakeRecord(t, c)
		if p := compared(t, c, rec, inst); len(p) > 0 {
			t.Fatalf("%s: the model disagrees with itself: %v", id, p)
		}
		for name, tc := range map[string]struct {
			edit func(*tlc.Record)
			want string
		}{
			"distinct":  {func(r *tlc.Record) { r.DistinctStates++ }, "distinct states"},
			"generated": {func(r *tlc.Record) { r.StatesGenerated-- }, "states generated"},
			"verdict":   {func(r *tlc.Record) { r.Verdict = tlc.Deadlock }, "verdict"},
			"check":     {func(r *tlc.Record) { r.Check = "expected pass" }, "expectation"},
		} {
			bad := rec
			tc.edit(&bad)
			if p := strings.Join(compared(t, c, bad, inst), "; "); !strings.Contains(p, tc.want) {
				t.Errorf("%s, %s: %q does not mention %q", id, name, p, tc.want)
			}
		}
		if c.Model.Pass {
			bad := rec
			bad.Depth++
			if p := strings.Join(compared(t, c, bad, inst), "; "); !strings.Contains(p, "depth") {
				t.Errorf("%s: depth: %q", id, p)
			}
			continue
		}
		// A counterexample that is not a run of the model.
		bad := rec
		bad.Trace = append([]map[string]string(nil), rec.Trace...)
		last := map[string]string{}
		for k, v := range rec.Trace[len(rec.Trace)-1] {
			last[k] = v
		}
		last["nextSeq"] = "99"
		bad.Trace[len(bad.Trace)-1] = last
		if p := strings.Join(compared(t, c, bad, inst), "; "); !strings.Contains(p, "not a run of the model") {
			t.Errorf("%s: tampered state: %q", id, p)
		}
		bad = rec
		bad.TraceActions = append([]string(nil), rec.TraceActions...)
		bad.TraceActions[1] = "Teleport"
		if p := strings.Join(compared(t, c, bad, inst), "; "); !strings.Contains(p, "not a run of the model") {
			t.Errorf("%s: wrong action: %q", id, p)
		}
		if rec.Verdict != tlc.TemporalViolated {
			bad = rec
			bad.TraceLength++
			if p := strings.Join(compared(t, c, bad, inst), "; "); !strings.Contains(p, "counterexample length") {
				t.Errorf("%s: length: %q", id, p)
			}
			bad = rec
			bad.Workers = "auto"
			if p := strings.Join(compared(t, c, bad, inst), "; "); !strings.Contains(p, "-workers") {
				t.Errorf("%s: workers: %q", id, p)
			}
		}
	}
}

// TestRunReusesRecords runs the command on two small configs with a
// results file that has their records: no TLC is needed, the table shows
// both, and a tampered record makes it fail.
func TestRunReusesRecords(t *testing.T) {
	dir := t.TempDir()
	jsonPath := filepath.Join(dir, "results.json")
	rs := &tlc.Records{}
	for _, id := range []string{"PredecessorLockHerdParent.NoHerd", "SharedLock.PauseSafety"} {
		c := configByID(t, id)
		rec, _ := fakeRecord(t, c)
		rec.ConfigHash, _ = tlc.FileHash(c.Path)
		rec.SpecHash, _ = tlc.SpecHash(specDir, c.Module)
		rec.Jar = tlc.JarName
		rs.Put(rec)
	}
	if err := rs.Save(jsonPath); err != nil {
		t.Fatal(err)
	}
	o := options{specDir: specDir, cacheDir: dir, jsonPath: jsonPath, filter: `HerdParent\.NoHerd|SharedLock\.PauseSafety`,
		workers: 2, tlcWorkers: "auto", java: "/nonexistent/java"}
	var out bytes.Buffer
	if err := run(context.Background(), o, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	if !strings.Contains(out.String(), "2 of 2 results reused") || !strings.Contains(out.String(), "| SharedLock.PauseSafety | 9663 | 9663 |") {
		t.Errorf("output:\n%s", out.String())
	}
	rec, _ := rs.Get("SharedLock.PauseSafety")
	rec.DistinctStates = 9662
	rs.Put(rec)
	if err := rs.Save(jsonPath); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := run(context.Background(), o, &out); err == nil || !strings.Contains(out.String(), "distinct states: TLC 9662, model 9663") {
		t.Errorf("a disagreement passed: %v\n%s", err, out.String())
	}
}

func TestValidateCommand(t *testing.T) {
	var out bytes.Buffer
	o := options{validate: filepath.Join("..", "..", "model", "trace", "testdata", "mutex_correct.jsonl")}
	if err := validate(o, &out); err != nil || !strings.Contains(out.String(), "trace: valid") {
		t.Errorf("%v\n%s", err, out.String())
	}
	out.Reset()
	o.validate = filepath.Join("..", "..", "model", "trace", "testdata", "mutex_holds_without_listing.jsonl")
	if err := validate(o, &out); err == nil || !strings.Contains(out.String(), "diverging event") {
		t.Errorf("%v\n%s", err, out.String())
	}
}

// TestTLCOnly: a TLC-only config is not explored; TLC's result must still
// meet the expectation (positive control: a failed check is reported).
func TestTLCOnly(t *testing.T) {
	c := configByID(t, "SharedLockRefinesPredecessor.Writers")
	if c.Model.TLCOnly == "" {
		t.Fatal("SharedLockRefinesPredecessor.Writers is not marked tlc-only")
	}
	var out bytes.Buffer
	ok := &row{cfg: c, rec: tlc.Record{Module: c.Module, Name: c.Name, Check: "ok"}}
	tlcOnly(ok, &out)
	if len(ok.problems) != 0 || !strings.Contains(out.String(), c.Model.TLCOnly) {
		t.Errorf("problems %v, output %q", ok.problems, out.String())
	}
	bad := &row{cfg: c, rec: tlc.Record{Module: c.Module, Name: c.Name, Check: "expected pass, got invariant violated"}}
	tlcOnly(bad, &out)
	if len(bad.problems) == 0 {
		t.Error("a TLC result that misses the expectation was accepted")
	}
}

// A config TLC runs only with the deep set is compared with the result
// its `tlc: deep` line records: the model's own numbers agree, and a
// recorded line one state off is reported.
func TestRecordedResultCompared(t *testing.T) {
	c := configByID(t, "OwnWatch.Safety")
	rec, inst := fakeRecord(t, c)
	c.Model.TLCDeep = true
	c.Model.Recorded.Distinct, c.Model.Recorded.Generated, c.Model.Recorded.Depth = rec.DistinctStates, rec.StatesGenerated, rec.Depth
	if p := compared(t, c, recordedResult(c), inst); len(p) > 0 {
		t.Fatalf("the recorded result disagrees with the model's own: %v", p)
	}
	c.Model.Recorded.Distinct++
	if p := strings.Join(compared(t, c, recordedResult(c), inst), "; "); !strings.Contains(p, "distinct states") {
		t.Errorf("a recorded result one state off: %q does not mention distinct states", p)
	}
}
