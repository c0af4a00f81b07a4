package report

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	camp "github.com/zklock/zklock/internal/chaos/campaign"
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
