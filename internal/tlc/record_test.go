package tlc

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestRecordsRoundTrip(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "results.json")
	rs, err := LoadRecords(path)
	if err != nil || len(rs.Records) != 0 {
		t.Fatalf("missing file: %v, %+v", err, rs)
	}
	res := parseFile(t, "invariant_violation.txt")
	m := Model{Violation: "NoOrphans", Invariants: []string{"NoOrphans"}}
	rec := NewRecord("M", "B", "ch", "sh", "jar", "1", m, res, nil)
	if rec.Expected != "violation NoOrphans" || rec.Check != "ok" || rec.TraceLength != len(res.Trace) ||
		len(rec.TraceActions) != len(res.Trace) || rec.TraceActions[0] != "Init" {
		t.Errorf("record %+v", rec)
	}
	rs.Put(rec)
	rs.Put(NewRecord("M", "A", "ch", "sh", "jar", "auto", Model{Pass: true}, nil, errors.New("boom")))
	rs.Put(rec) // replaces
	if err := rs.Save(path); err != nil {
		t.Fatal(err)
	}
	back, err := LoadRecords(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Records) != 2 || back.Records[0].ID() != "M.A" || back.Records[0].Check != "boom" {
		t.Fatalf("records %+v", back.Records)
	}
	got, ok := back.Get("M.B")
	if !ok || !got.Matches("ch", "sh", "jar", "1") || got.Matches("ch", "other", "jar", "1") ||
		got.DistinctStates != res.DistinctStates || got.Trace[1]["pc"] == "" {
		t.Errorf("M.B: %v %+v", ok, got)
	}

	// Another schema is ignored.
	if err := os.WriteFile(path, []byte(`{"schema": 99, "records": [{"module": "X"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if back, err := LoadRecords(path); err != nil || len(back.Records) != 0 {
		t.Errorf("other schema: %v %+v", err, back)
	}
	if err := os.WriteFile(path, []byte(`{`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadRecords(path); err == nil {
		t.Error("LoadRecords accepted broken JSON")
	}
}

func TestSpecHash(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("Base.tla", "---- MODULE Base ----\nEXTENDS Integers, Sequences\n====\n")
	write("Mutant.tla", "---- MODULE Mutant ----\nEXTENDS Base \\* the base\n====\n")
	write("Other.tla", "---- MODULE Other ----\n====\n")
	h1, err := SpecHash(dir, "Mutant")
	if err != nil {
		t.Fatal(err)
	}
	write("Other.tla", "---- MODULE Other ----\n\\* changed\n====\n")
	if h2, _ := SpecHash(dir, "Mutant"); h2 != h1 {
		t.Error("an unrelated module changed the hash")
	}
	write("Base.tla", "---- MODULE Base ----\nEXTENDS Integers, Sequences\n\\* changed\n====\n")
	if h3, _ := SpecHash(dir, "Mutant"); h3 == h1 {
		t.Error("a change to an extended module kept the hash")
	}
	if _, err := SpecHash(dir, "Missing"); err == nil {
		t.Error("SpecHash of a missing module")
	}

	// A module INSTANCEd (as the lock specs INSTANCE ZooKeeper) counts too,
	// and so does one instantiated without a name; one named in a comment
	// does not.
	write("Server.tla", "---- MODULE Server ----\n====\n")
	write("Lock.tla", "---- MODULE Lock ----\nZK == INSTANCE Server\nINSTANCE Base WITH x <- y\n\\* INSTANCE Other\n====\n")
	l1, err := SpecHash(dir, "Lock")
	if err != nil {
		t.Fatal(err)
	}
	write("Server.tla", "---- MODULE Server ----\n\\* changed\n====\n")
	l2, _ := SpecHash(dir, "Lock")
	if l2 == l1 {
		t.Error("a change to an INSTANCEd module kept the hash")
	}
	write("Base.tla", "---- MODULE Base ----\n\\* changed again\n====\n")
	l3, _ := SpecHash(dir, "Lock")
	if l3 == l2 {
		t.Error("a change to a module instantiated without a name kept the hash")
	}
	write("Other.tla", "---- MODULE Other ----\n\\* changed again\n====\n")
	if l4, _ := SpecHash(dir, "Lock"); l4 != l3 {
		t.Error("a module named only in a comment changed the hash")
	}
}
