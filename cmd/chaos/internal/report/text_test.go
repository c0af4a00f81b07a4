package report

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	camp "github.com/zklock/zklock/cmd/chaos/internal/campaign"
	"github.com/zklock/zklock/cmd/chaos/internal/validate"
	"github.com/zklock/zklock/model/trace"
)

// The table ends with the page a person opens, as an absolute file://
// address (a terminal makes it a link), then report.json; with no page
// written, no report line names one.
func TestWriteTableNamesThePage(t *testing.T) {
	dir := t.TempDir()
	r := &Report{Config: &camp.Config{}, Verdict: "pass", Files: map[string]any{"html_report": "report.html"}}
	var b bytes.Buffer
	WriteTable(&b, r, dir)
	want := "report: file://" + filepath.ToSlash(filepath.Join(dir, "report.html")) + "\n"
	if !strings.Contains(b.String(), want) {
		t.Fatalf("no %q in:\n%s", want, b.String())
	}
	if !strings.Contains(b.String(), "data: "+filepath.Join(dir, "report.json")+"\n") {
		t.Fatalf("report.json not named in:\n%s", b.String())
	}
	delete(r.Files, "html_report")
	b.Reset()
	WriteTable(&b, r, dir)
	if strings.Contains(b.String(), "report.html") {
		t.Fatalf("a page named that was not written:\n%s", b.String())
	}
}

// An invalid trace's diverging event and why reach the table, not only
// trace-check.txt: CI keeps the log, not the output folder.
func TestWriteTableShowsTheDivergence(t *testing.T) {
	r := &Report{Config: &camp.Config{}, Verdict: "fail", Root: "/zklock-chaos/run",
		Trace: &validate.TraceSummary{Verdict: trace.Invalid, Events: 9, Sessions: 2, Report: "trace-check.txt",
			Locks: []validate.TraceLock{
				{Lock: "/zklock-chaos/run/locks/ex-0", Spec: "PredecessorLock", Events: 5, Verdict: trace.Valid},
				{Lock: "/zklock-chaos/run/locks/election-1", Spec: "Election", Events: 4, Verdict: trace.Invalid, Explored: 12,
					Diverging: "after 3 events matched: line 7: c2 ListChildren result=wait", Why: "the model's nodes are []"}}}}
	var b bytes.Buffer
	WriteTable(&b, r, t.TempDir())
	for _, want := range []string{
		"/locks/election-1 (Election, 4 steps): invalid after 12 search states; see trace-check.txt\n",
		"    diverging event after 3 events matched: line 7: c2 ListChildren result=wait\n    why: the model's nodes are []\n",
	} {
		if !strings.Contains(b.String(), want) {
			t.Fatalf("no %q in:\n%s", want, b.String())
		}
	}
	if strings.Contains(b.String(), "ex-0") {
		t.Fatalf("a valid lock listed:\n%s", b.String())
	}
}
