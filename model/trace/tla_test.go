package trace

import (
	"errors"
	"strings"
	"testing"
)

// TestTLARendersTraces: the handmade traces become one module per lock,
// extending the trace spec of the lock's kind, with every event once and
// nodes named by request (and kind, for a read/write lock). TLC's verdicts
// on them are cmd/tlatrace's tests.
func TestTLARendersTraces(t *testing.T) {
	for _, tc := range []struct {
		file, extends, node string
		events              int
	}{
		{"mutex_correct.jsonl", "PredecessorLockTrace", `node |-> <<"c1", 1>>`, 25},
		{"rw_correct.jsonl", "SharedLockTrace", `node |-> <<<<"c3", 1>>, "write">>`, 27},
	} {
		mods, err := TLA(readFile(t, tc.file), "x-y", true)
		if err != nil {
			t.Fatal(err)
		}
		if len(mods) != 1 {
			t.Fatalf("%s: %d modules, want 1", tc.file, len(mods))
		}
		m := mods[0]
		src, cfg := string(m.Source), string(m.Config)
		if m.Module != "Trace_x_y" || !strings.HasPrefix(src, "---- MODULE Trace_x_y ----") {
			t.Errorf("%s: module %q:\n%.80s", tc.file, m.Module, src)
		}
		if got := strings.Count(src, "[line |-> "); got != tc.events || m.Events != tc.events {
			t.Errorf("%s: %d events rendered, Events = %d, want %d", tc.file, got, m.Events, tc.events)
		}
		for _, want := range []string{"EXTENDS " + tc.extends + "\n", tc.node, "TraceLog == TraceLog1\n"} {
			if !strings.Contains(src, want) {
				t.Errorf("%s: the module lacks %q", tc.file, want)
			}
		}
		if !strings.Contains(cfg, "LogReduce = TRUE") || !strings.Contains(cfg, "INVARIANT TraceUnmatched") {
			t.Errorf("%s: config:\n%s", tc.file, cfg)
		}
	}
}

// TestTLARanksTokens: tokens and sequence numbers are replaced by their
// ranks, which keep their order and fit TLC's integers.
func TestTLARanksTokens(t *testing.T) {
	evs := readFile(t, "mutex_correct.jsonl")
	for i := range evs {
		if evs[i].Token > 0 {
			evs[i].Token += 1 << 40
		}
	}
	mods, err := TLA(evs, "big", false)
	if err != nil {
		t.Fatal(err)
	}
	src := string(mods[0].Source)
	for _, want := range []string{"token |-> 1,", "token |-> 2,", "token |-> 3,", `<<<<"c1", 1>>, 0>>`} {
		if !strings.Contains(src, want) {
			t.Errorf("the module lacks %q", want)
		}
	}
	if strings.Contains(src, "1099511627") {
		t.Error("a token outgrows TLC's integers")
	}
	if !strings.Contains(string(mods[0].Config), "LogReduce = FALSE") {
		t.Error("reduce = false should set LogReduce = FALSE")
	}
}

// TestTLAUnsupported: a trace Validate cannot judge is refused the same way.
func TestTLAUnsupported(t *testing.T) {
	_, err := TLA(readFile(t, "unsupported_concurrent_requests.jsonl"), "u", true)
	if !errors.Is(err, ErrUnsupported) {
		t.Fatalf("err = %v, want ErrUnsupported", err)
	}
}

// TestTLAString: names with quotes and backslashes stay one literal.
func TestTLAString(t *testing.T) {
	if got, want := tlaString(`a"b\c`), `"a\"b\\c"`; got != want {
		t.Errorf("tlaString = %s, want %s", got, want)
	}
}
