package report

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zklock/zklock/checker"
)

const sec = int64(time.Second)

// history builds a small history on /locks/a: c1 holds token 10 from 1 s to
// 5 s; c2 is granted token 12 at 2.1 s and releases at 3 s, so with overlap
// the two believe they hold at once from 2.1 s to 3 s. A sever fault on c1
// runs from 1.5 s to 2.5 s; c3's acquire has an unknown outcome.
func history(overlap bool) checker.History {
	c2Start, c2Token := int64(2*sec), int64(12)
	if !overlap {
		c2Start = 6 * sec
	}
	return checker.History{
		{Kind: checker.KindAcquire, Client: "c1", Session: "0x1", Path: "/locks/a", Mode: checker.ModeExclusive,
			Call: 1 * sec, Return: 1*sec + sec/10, Outcome: checker.OutcomeOK, Token: 10},
		{Kind: checker.KindFault, Fault: "sever", Target: "c1", Call: 3 * sec / 2, Return: 5 * sec / 2},
		{Kind: checker.KindAcquire, Client: "c2", Session: "0x2", Path: "/locks/a", Mode: checker.ModeExclusive,
			Call: c2Start, Return: c2Start + sec/10, Outcome: checker.OutcomeOK, Token: c2Token},
		{Kind: checker.KindRelease, Client: "c2", Session: "0x2", Path: "/locks/a", Call: c2Start + sec,
			Return: c2Start + sec + sec/10, Outcome: checker.OutcomeOK, Token: c2Token},
		{Kind: checker.KindRelease, Client: "c1", Session: "0x1", Path: "/locks/a", Call: 5 * sec,
			Return: 5*sec + sec/10, Outcome: checker.OutcomeOK, Token: 10},
		{Kind: checker.KindAcquire, Client: "c3", Session: "0x3", Path: "/locks/a", Mode: checker.ModeExclusive,
			Call: 8 * sec, Return: 9 * sec, Outcome: checker.OutcomeUnknown},
	}
}

func campaign(t *testing.T, overlap bool) *Campaign {
	t.Helper()
	h := history(overlap)
	res, err := checker.Check(h, checker.Options{})
	if err != nil {
		t.Fatal(err)
	}
	verdict := "pass"
	if res.Verdict == checker.VerdictFail {
		verdict = "fail"
	}
	return &Campaign{Title: "test campaign", Verdict: verdict, Elapsed: "10s", Server: "none",
		Replay: "go run ./cmd/chaos --seed 1", History: h, Result: res,
		Trace: &Trace{Verdict: "valid", Steps: 12, Sessions: 3, Elapsed: "1ms"}}
}

func TestSummarize(t *testing.T) {
	s := Summarize(campaign(t, true))
	if s.Operations != 5 || s.Tenures != 2 || s.Faults["sever"] != 1 || s.Anomalies["overlap"] == 0 {
		t.Errorf("overlapping history: %+v", s)
	}
	if s := Summarize(campaign(t, false)); len(s.Anomalies) != 0 {
		t.Errorf("clean history has anomalies: %+v", s.Anomalies)
	}
	var b bytes.Buffer
	c := campaign(t, true)
	c.Control = "a control"
	s.WriteText(&b, c)
	for _, want := range []string{"5 operations, 2 lock tenures", "faults:    sever 1", "overlap 1", "not linearizable (mutex) 1", "a control: flagged"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, b.String())
		}
	}
}

func TestTenures(t *testing.T) {
	h := history(true)
	ls := lanes(h, historySpan(h).to)
	if len(ls) != 1 || len(ls[0].tenures) != 3 || strings.Join(ls[0].clients, ",") != "c1,c2,c3" {
		t.Fatalf("lanes: %+v", ls)
	}
	c1 := ls[0].tenures[0]
	if c1.client != "c1" || c1.start != sec+sec/10 || c1.end != 5*sec || c1.token != 10 || c1.unknown {
		t.Errorf("c1's tenure: %+v", c1)
	}
	if c3 := ls[0].tenures[2]; !c3.unknown || c3.start != 8*sec {
		t.Errorf("c3's unknown acquire: %+v", c3)
	}
}

// TestPage checks the page's content without a browser: a failing campaign
// shows its shortest window, a passing one has none, and nothing on the page
// is fetched from elsewhere.
func TestPage(t *testing.T) {
	for _, overlap := range []bool{true, false} {
		var b bytes.Buffer
		if err := Write(&b, campaign(t, overlap)); err != nil {
			t.Fatal(err)
		}
		page := b.String()
		if got := strings.Contains(page, `id="violation"`); got != overlap {
			t.Errorf("overlap %v: violation section shown %v", overlap, got)
		}
		if got := strings.Contains(page, `class="violation worst"`); got != overlap {
			t.Errorf("overlap %v: shortest window outlined %v", overlap, got)
		}
		for _, bad := range []string{"<script src", "<link", "http://", "https://", "@import"} {
			if strings.Contains(strings.ReplaceAll(page, `xmlns="http://www.w3.org/2000/svg"`, ""), bad) {
				t.Errorf("page refers outside itself: %q", bad)
			}
		}
	}
}

// TestBrowserRendersReports loads report pages in a real headless browser
// (Debian's chromium): a passing campaign's and a control's, and checks
// from the rendered DOM that the verdict and, for the control, the
// violation are there. Screenshots are kept in out/report-screenshots.
// With ZKLOCK_REPORT_PASS and ZKLOCK_REPORT_FAIL set (make chaos-short
// sets them) it loads those real campaigns' report.html instead of pages
// built from hand-made histories.
func TestBrowserRendersReports(t *testing.T) {
	browser := findBrowser()
	if browser == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("chromium is not installed (make setup installs it)")
		}
		t.Skip("chromium is not installed (make setup installs it)")
	}
	shots := filepath.Join(repoRoot(t), "out", "report-screenshots")
	if err := os.MkdirAll(shots, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, env string
		overlap   bool
	}{{"pass", "ZKLOCK_REPORT_PASS", false}, {"control", "ZKLOCK_REPORT_FAIL", true}} {
		path := os.Getenv(tc.env)
		if path == "" {
			path = filepath.Join(t.TempDir(), "report.html")
			var b bytes.Buffer
			if err := Write(&b, campaign(t, tc.overlap)); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		// go test runs in the package directory: a relative path from
		// the Makefile is relative to the repository's root.
		abs := path
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(repoRoot(t), path)
		}
		if _, err := os.Stat(abs); err != nil {
			t.Fatalf("%s: %v", tc.env, err)
		}
		dom := runBrowser(t, browser, "--dump-dom", "file://"+abs)
		wantVerdict := `id="verdict" class="verdict v-pass"`
		if tc.overlap {
			wantVerdict = `id="verdict" class="verdict v-fail"`
		}
		if !strings.Contains(dom, wantVerdict) {
			t.Errorf("%s: rendered page lacks %s", tc.name, wantVerdict)
		}
		if got := strings.Contains(dom, `id="violation"`) && strings.Contains(dom, `class="violation worst"`); got != tc.overlap {
			t.Errorf("%s: violation rendered %v, want %v", tc.name, got, tc.overlap)
		}
		if !strings.Contains(dom, `class="timeline"`) {
			t.Errorf("%s: no timeline rendered", tc.name)
		}
		shot := filepath.Join(shots, tc.name+".png")
		runBrowser(t, browser, "--window-size=1240,1400", "--screenshot="+shot, "file://"+abs)
		if st, err := os.Stat(shot); err != nil || st.Size() < 10000 {
			t.Errorf("%s: screenshot %s: %v", tc.name, shot, err)
		}
		t.Logf("%s: %s rendered; screenshot %s", tc.name, path, shot)
	}
}

func findBrowser() string {
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

func runBrowser(t *testing.T, browser string, args ...string) string {
	t.Helper()
	all := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
		"--user-data-dir=" + t.TempDir()}, args...)
	cmd := exec.Command(browser, all...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, errb.String())
		}
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		<-done
		t.Fatalf("%s: no answer in 2 minutes", strings.Join(cmd.Args, " "))
	}
	return out.String()
}

func repoRoot(t *testing.T) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test")
		}
		dir = parent
	}
}
