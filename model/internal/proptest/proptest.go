// Package proptest holds helpers for the models' property-based tests
// (pgregory.net/rapid): setting rapid's flags for one test, and running a
// property that must fail (a positive control) without failing the test.
package proptest

import (
	"flag"
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// SetFlag sets a flag (rapid.checks, rapid.shrinktime, ...) and returns a
// function that restores it. Tests that use it must not run in parallel.
func SetFlag(t *testing.T, name, value string) func() {
	t.Helper()
	f := flag.Lookup(name)
	if f == nil {
		t.Fatalf("no flag %s", name)
	}
	old := f.Value.String()
	if err := flag.Set(name, value); err != nil {
		t.Fatal(err)
	}
	return func() { _ = flag.Set(name, old) }
}

// recorder is a rapid.TB that records a failure instead of failing the test.
type recorder struct {
	*testing.T
	failed bool
	msg    strings.Builder
}

// The rapid.TB methods: failures are recorded, logs dropped.
func (r *recorder) Logf(string, ...any) {}
func (r *recorder) Log(...any)          {}
func (r *recorder) Errorf(format string, args ...any) {
	r.failed = true
	fmt.Fprintf(&r.msg, format, args...)
}
func (r *recorder) Error(args ...any)                 { r.failed = true; fmt.Fprint(&r.msg, args...) }
func (r *recorder) Fatalf(format string, args ...any) { r.Errorf(format, args...) }
func (r *recorder) Fatal(args ...any)                 { r.Error(args...) }
func (r *recorder) Fail()                             { r.failed = true }
func (r *recorder) FailNow()                          { r.failed = true }
func (r *recorder) Failed() bool                      { return r.failed }

// ExpectFailure runs a rapid property that must fail within checks random
// tests (a fifth of them under -short, where shrinking is also limited to
// a second), without writing a rapid fail file. It fails t if the property
// holds, and returns rapid's report of the shrunk counterexample.
func ExpectFailure(t *testing.T, checks int, prop func(*rapid.T)) string {
	t.Helper()
	defer SetFlag(t, "rapid.nofailfile", "true")()
	defer SetFlag(t, "rapid.checks", fmt.Sprint(checks))()
	if testing.Short() {
		defer SetFlag(t, "rapid.shrinktime", "1s")()
	}
	r := &recorder{T: t}
	rapid.Check(r, prop)
	if !r.failed {
		t.Fatal("the property held: the positive control has no teeth")
	}
	return r.msg.String()
}

// FirstLines returns the first n lines of s.
func FirstLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}
