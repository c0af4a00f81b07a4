package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

type outcome struct {
	m      mutant
	failed []string // tests that failed: the killers
	err    error    // the mutant could not be built or run
	took   time.Duration
}

func (o outcome) killed() bool { return o.err == nil && len(o.failed) > 0 }

func (o outcome) verdict() string {
	switch {
	case o.err != nil:
		return "ERROR: " + o.err.Error()
	case o.killed():
		return "killed"
	default:
		return "SURVIVED"
	}
}

// run applies the mutant through an overlay and runs the tests with env
// added to the environment (the shared ensemble's address). Killers that
// skipped because they need a local ensemble to kill servers in run again
// with one of their own.
func run(root string, m mutant, all bool, timeout time.Duration, env []string) outcome {
	start := time.Now()
	o := outcome{m: m}
	overlay, cleanup, err := writeOverlay(root, m)
	if err != nil {
		o.err = err
		return o
	}
	defer cleanup()
	pattern := ""
	if !all {
		pattern = "^(" + strings.Join(m.Killers, "|") + ")$"
	}
	var local []string
	o.failed, local, o.err = goTest(root, overlay, pattern, timeout, append(os.Environ(), env...))
	if o.err == nil && len(local) > 0 {
		failed, _, err := goTest(root, overlay, "^("+strings.Join(local, "|")+")$", timeout, withoutServers(os.Environ()))
		o.failed, o.err = append(o.failed, failed...), err
		sort.Strings(o.failed)
	}
	o.took = time.Since(start)
	return o
}

// goTest runs go test on impl/zklock with the overlay, the tests matching
// pattern (all if empty), and env. It returns the tests that failed and
// those that skipped for want of a local ensemble.
func goTest(root, overlay, pattern string, timeout time.Duration, env []string) (failed, local []string, err error) {
	// -failfast: one killing test is enough to call the mutant killed; the
	// others, which may wait out their own deadlines against it, are not run.
	// -vet=off: go vet checks the shipped code once (make vet); on each
	// mutant it would only cost CPU (a quarter of a mutant's build) that
	// the stages running beside the mutants need.
	// -ldflags=-s -w: the test binary without its symbol table and DWARF
	// (stack traces keep their function names), a sixth less CPU to link
	// each of the mutants' binaries; the code itself is built as shipped.
	args := []string{"test", "-count=1", "-json", "-failfast", "-vet=off", "-ldflags=-s -w", "-overlay", overlay, "-timeout", timeout.String()}
	if pattern != "" {
		args = append(args, "-run", pattern)
	}
	// -rapid.shrinktime (the test binary's flag, after the package): a
	// mutant is killed by any failing case; rapid's search for the
	// smallest one (30 s by default) is for a person reading a real
	// failure, not for a verdict.
	args = append(args, "./impl/zklock/", "-rapid.shrinktime=1s")
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	cmd.Env = env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, _ := cmd.Output() // a failing test is the point: judge by the events
	failed, local, err = failures(out)
	switch {
	case err != nil || len(failed) > 0:
	case strings.Contains(string(out), "build failed") || strings.Contains(string(out), "[setup failed]"):
		err = errors.New("mutant does not compile")
	case strings.Contains(string(out), "no tests to run"):
		err = errors.New("none of its killer tests exists")
	}
	if err == nil && len(failed) == 0 && len(local) == 0 && stderr.Len() > 0 && !bytes.Contains(out, []byte(`"Action":"pass"`)) {
		err = fmt.Errorf("go test: %s", firstLine(stderr.String()))
	}
	return failed, local, err
}

// writeOverlay writes the mutated files to a temporary directory and the
// overlay description that points go test at them.
func writeOverlay(root string, m mutant) (string, func(), error) {
	dir, err := os.MkdirTemp("", "zklock-mutant-")
	if err != nil {
		return "", nil, err
	}
	cleanup := func() { os.RemoveAll(dir) }
	overlay, err := writeOverlayIn(root, dir, m)
	if err != nil {
		cleanup()
		return "", nil, err
	}
	return overlay, cleanup, nil
}

// writeOverlayIn applies every edit of m to its file (each Find must occur
// exactly once), writes the mutated copies and the overlay.json that points
// the go command at them into dir, and returns the overlay's path.
func writeOverlayIn(root, dir string, m mutant) (string, error) {
	replace := map[string]string{}
	for i, e := range m.edits() {
		src := filepath.Join(root, e.File)
		text, ok := replace[src]
		if ok {
			b, err := os.ReadFile(text)
			if err != nil {
				return "", err
			}
			text = string(b)
		} else {
			b, err := os.ReadFile(src)
			if err != nil {
				return "", err
			}
			text = string(b)
		}
		if n := strings.Count(text, e.Find); n != 1 {
			return "", fmt.Errorf("%s: the code to mutate occurs %d times, want 1 (did it move?)", e.File, n)
		}
		mutated, ok := replace[src]
		if !ok {
			// One subdirectory per file: two packages may have files of one name.
			sub := filepath.Join(dir, fmt.Sprint(i))
			if err := os.MkdirAll(sub, 0o755); err != nil {
				return "", err
			}
			mutated = filepath.Join(sub, filepath.Base(e.File))
			replace[src] = mutated
		}
		if err := os.WriteFile(mutated, []byte(strings.Replace(text, e.Find, e.Replace, 1)), 0o644); err != nil {
			return "", err
		}
	}
	spec, _ := json.Marshal(map[string]map[string]string{"Replace": replace})
	overlay := filepath.Join(dir, "overlay.json")
	return overlay, os.WriteFile(overlay, spec, 0o644)
}

// keepOverlay writes a mutant's overlay into dir (created) and leaves it
// there, for building a command with the mutant in it (make chaos-short
// builds cmd/chaos with one, a control its trace check must flag).
func keepOverlay(root string, m mutant, dir string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	return writeOverlayIn(root, abs, m)
}

var timedOut = regexp.MustCompile(`panic: test timed out.*\n(?:.*\n)*?\s+running tests:\n\s+(\S+)`)

// needsLocal is what ensembletest.RequireLocal says when it skips a test
// against an external ensemble.
const needsLocal = "needs a local ensemble"

// failures reads go test -json output and names the failed tests (a test
// binary that timed out names the test that was running) and the tests
// that skipped because they need a local ensemble.
func failures(out []byte) (failed, local []string, err error) {
	set := map[string]bool{}
	skipped := map[string]bool{}
	testOut := map[string]*strings.Builder{}
	var output strings.Builder
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var ev struct{ Action, Test, Output string }
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			continue
		}
		output.WriteString(ev.Output)
		if ev.Test != "" {
			b := testOut[topLevel(ev.Test)]
			if b == nil {
				b = &strings.Builder{}
				testOut[topLevel(ev.Test)] = b
			}
			b.WriteString(ev.Output)
		}
		switch {
		case ev.Action == "fail" && ev.Test != "":
			set[topLevel(ev.Test)] = true
		case ev.Action == "skip" && ev.Test != "" && !strings.Contains(ev.Test, "/"):
			skipped[ev.Test] = true
		}
	}
	if m := timedOut.FindStringSubmatch(output.String()); m != nil {
		set[topLevel(m[1])+" (timed out)"] = true
	}
	for n := range set {
		failed = append(failed, n)
	}
	for n := range skipped {
		if b := testOut[n]; b != nil && strings.Contains(b.String(), needsLocal) {
			local = append(local, n)
		}
	}
	sort.Strings(failed)
	sort.Strings(local)
	return failed, local, sc.Err()
}

func topLevel(test string) string {
	if i := strings.IndexByte(test, '/'); i >= 0 {
		return test[:i]
	}
	return test
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func repoRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", errors.New("not inside the zklock module")
	}
	return filepath.Dir(mod), nil
}
