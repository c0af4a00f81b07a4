package trace

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/zklock/zklock/traceevent"
)

// TestGeneratedTracesAccepted: traces projected from random walks of the
// model, with plausible overlapping times, pending releases and faults,
// are accepted (rapid property; the walk is drawn through a seed).
func TestGeneratedTracesAccepted(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		opt := GenerateOptions{
			Clients:  rapid.IntRange(1, 6).Draw(t, "clients"),
			Requests: rapid.IntRange(1, 4).Draw(t, "requests"),
			Steps:    rapid.IntRange(20, 800).Draw(t, "steps"),
			Shared:   rapid.Bool().Draw(t, "shared"),
			Faults:   rapid.IntRange(0, 6).Draw(t, "faults"),
			Jitter:   rapid.Int64Range(0, 10000).Draw(t, "jitter"),
			Pending:  rapid.Float64Range(0, 0.5).Draw(t, "pending"),
		}
		rng := rand.New(rand.NewSource(rapid.Int64().Draw(t, "seed")))
		evs, err := Generate(opt, rng)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Validate(evs, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Verdict != Valid {
			var b bytes.Buffer
			_ = Write(&b, evs)
			t.Fatalf("a trace of the model is rejected:\n%s\n%s", b.String(), rep)
		}
	})
}

// generated returns a trace of a large run: 20 clients (more, counting
// their new sessions), a few hundred events.
func generated(t *testing.T, seed int64, shared bool) []Event {
	t.Helper()
	evs, err := Generate(GenerateOptions{Clients: 20, Requests: 6, Steps: 4000, Shared: shared, Faults: 8,
		Jitter: 8000, Pending: 0.2}, rand.New(rand.NewSource(seed)))
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// TestBrokenTracesRejected breaks generated traces in one event each (a
// listing that should wait says grant; a holder that skips its listing)
// and checks that they are rejected at that event.
func TestBrokenTracesRejected(t *testing.T) {
	seeds := 6
	if testing.Short() {
		seeds = 2
	}
	for seed := int64(1); seed <= int64(seeds); seed++ {
		for _, shared := range []bool{false, true} {
			evs := generated(t, seed, shared)
			for _, br := range []struct {
				name   string
				break_ func(e *Event) bool
			}{
				{"listing says grant", func(e *Event) bool {
					if e.Action != traceevent.ListChildren || e.Result != traceevent.ResultWait {
						return false
					}
					e.Result, e.Target = traceevent.ResultGrant, ""
					return true
				}},
				{"grant without listing", func(e *Event) bool {
					if e.Action != traceevent.ListChildren || e.Result != traceevent.ResultWait {
						return false
					}
					e.Action, e.Result, e.Target, e.Children = traceevent.Grant, "", "", nil
					return true
				}},
			} {
				broken := append([]Event(nil), evs...)
				at := -1
				for i := len(broken) / 2; i < len(broken); i++ {
					if br.break_(&broken[i]) {
						at = i
						break
					}
				}
				if at < 0 {
					continue
				}
				start := time.Now()
				rep, err := Validate(broken, Options{})
				if err != nil {
					t.Fatal(err)
				}
				took := time.Since(start)
				d := rep.Locks[0].Divergence
				if rep.Verdict != Invalid || d == nil || d.Event.Client != broken[at].Client || d.Event.Start != broken[at].Start {
					t.Errorf("seed %d shared %v, %s at %s: %s", seed, shared, br.name, broken[at].String(), rep)
					continue
				}
				t.Logf("seed %d shared %v, %s: rejected at that event in %s (%d states)", seed, shared, br.name,
					took.Round(time.Millisecond), rep.Locks[0].Explored)
			}
		}
	}
}

// TestLargeTraces: a few hundred events among more than 20 sessions take
// milliseconds, valid or not (the budget is never near).
func TestLargeTraces(t *testing.T) {
	for _, shared := range []bool{false, true} {
		evs := generated(t, 42, shared)
		start := time.Now()
		rep, err := Validate(evs, Options{})
		if err != nil {
			t.Fatal(err)
		}
		clients := map[string]bool{}
		for _, e := range evs {
			clients[e.Client] = true
		}
		took := time.Since(start)
		if rep.Verdict != Valid || took > 10*time.Second {
			t.Errorf("%s in %s", rep, took)
		}
		t.Logf("shared %v: %d events, %d sessions: %s in %s, %d search states", shared, len(evs), len(clients),
			rep.Verdict, took.Round(time.Millisecond), rep.Locks[0].Explored)
	}
}

func TestReadWriteRoundTrip(t *testing.T) {
	evs := generated(t, 7, true)
	var b bytes.Buffer
	if err := Write(&b, evs); err != nil {
		t.Fatal(err)
	}
	back, err := Read(&b)
	if err != nil || len(back) != len(evs) {
		t.Fatalf("%v: %d of %d events", err, len(back), len(evs))
	}
	for i := range evs {
		if back[i].Line != i+1 || back[i].Start != evs[i].Start || back[i].Action != evs[i].Action ||
			(back[i].End == nil) != (evs[i].End == nil) || strings.Join(back[i].Children, " ") != strings.Join(evs[i].Children, " ") {
			t.Fatalf("event %d: %+v, want %+v", i, back[i], evs[i])
		}
	}
	for _, bad := range []string{`{"client": "c1"`, `{"client": "c1", "action": "Grant", "bogus": 1}`} {
		if _, err := Read(strings.NewReader(bad)); err == nil {
			t.Errorf("Read accepted %q", bad)
		}
	}
}

func TestParseNode(t *testing.T) {
	for _, tc := range []struct {
		name string
		want nodeName
		ok   bool
		err  bool
	}{
		{"_c_6f1c-lock-0000000042", nodeName{"6f1c", "exclusive", 42}, true, false},
		{"_c_a-b-c-__READ__0000000001", nodeName{"a-b-c", "read", 1}, true, false},
		{"_c_x-__WRIT__0000000002", nodeName{"x", "write", 2}, true, false},
		{"_c_e1-latch-0000000004", nodeName{"e1", "exclusive", 4}, true, false}, // an election's candidate
		{"readme", nodeName{}, false, false},
		{"lock-0000000003", nodeName{}, true, true},
		{"_c_-lock-0000000003", nodeName{}, true, true},
		{"foo0000000003", nodeName{}, true, true},
	} {
		got, ok, err := parseNode(tc.name)
		if ok != tc.ok || (err != nil) != tc.err || (err == nil && got != tc.want) {
			t.Errorf("parseNode(%q) = %+v, %v, %v", tc.name, got, ok, err)
		}
		if err == nil && ok && tc.want.uuid != "e1" && NodeName(got.uuid, got.kind, got.seq) != tc.name {
			t.Errorf("NodeName does not give back %q", tc.name)
		}
	}
}
