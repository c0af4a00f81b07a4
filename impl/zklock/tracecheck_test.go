package zklock

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zklock/zklock/model/trace"
	"github.com/zklock/zklock/traceevent"
)

// Every integration test's trace, all its clients together, is replayed in
// the model of the spec when the test ends: the implementation must only
// ever take steps the spec allows. A test that steps outside the model (an
// operator deleting a lock node, processes that emit no trace) says so with
// skipTraceCheck.

type testTrace struct {
	mu      sync.Mutex
	clients []*client
	env     []trace.Event // an outsider's steps (traceOutsider)
	skip    string
}

var (
	tracesMu sync.Mutex
	traces   = map[testing.TB]*testTrace{}
)

// traceTest registers a client's trace with its test, and on the test's
// first client arranges for the check.
func traceTest(t testing.TB, c *client) {
	tracesMu.Lock()
	tt, ok := traces[t]
	if !ok {
		tt = &testTrace{}
		traces[t] = tt
	}
	// An entry skipTraceCheck made is left unarmed: no check.
	first := !ok
	tracesMu.Unlock()
	tt.mu.Lock()
	tt.clients = append(tt.clients, c)
	tt.mu.Unlock()
	if !first {
		return
	}
	t.Cleanup(func() {
		tracesMu.Lock()
		delete(traces, t)
		tracesMu.Unlock()
		if t.Failed() || tt.skip != "" {
			return
		}
		var evs []trace.Event
		for _, c := range tt.clients {
			evs = append(evs, modelEvents(c.name, c.trace.all())...)
		}
		tt.mu.Lock()
		evs = append(evs, tt.env...)
		tt.mu.Unlock()
		if err := checkTrace(t, t.Name(), evs); err != nil {
			t.Error(err)
		}
	})
}

// traceOutsider adds an outsider's step (ForeignDelete, ForeignReplace:
// an environment event of client traceevent.EnvClient) to the test's
// trace; the test's first client must be registered already.
func traceOutsider(t testing.TB, e trace.Event) {
	tracesMu.Lock()
	tt := traces[t]
	tracesMu.Unlock()
	if tt == nil {
		t.Fatalf("traceOutsider before the test's first client")
	}
	e.Client = traceevent.EnvClient
	tt.mu.Lock()
	tt.env = append(tt.env, e)
	tt.mu.Unlock()
}

// skipTraceCheck exempts a test's trace from the model check.
func skipTraceCheck(t testing.TB, why string) {
	tracesMu.Lock()
	defer tracesMu.Unlock()
	if tt := traces[t]; tt != nil {
		tt.skip = why
		return
	}
	traces[t] = &testTrace{skip: why}
}

// modelEvents turns a client's trace into the model's trace format
// (TraceEvent.Record): the client's name is made unique by its session.
func modelEvents(name string, evs []TraceEvent) []trace.Event {
	out := make([]trace.Event, 0, len(evs))
	for _, ev := range evs {
		out = append(out, ev.Record(name))
	}
	return out
}

// logger is what checkTrace needs of a test: testing.TB or rapid.T.
type logger interface {
	Logf(format string, args ...any)
}

// checkTrace validates a trace and explains a failure. The trace of a
// failure is kept in a file for cmd/conformance -validate; with
// ZKLOCK_TRACE_DIR set, every trace is.
func checkTrace(t logger, name string, evs []trace.Event) error {
	if len(evs) == 0 {
		return nil
	}
	if err := checkCreateZxids(evs); err != nil {
		return err
	}
	saved := ""
	if dir := os.Getenv("ZKLOCK_TRACE_DIR"); dir != "" {
		saved = saveTrace(name, dir, evs)
	}
	start := time.Now()
	rep, err := trace.Validate(evs, trace.Options{})
	if err != nil {
		return fmt.Errorf("trace of %d events: %w", len(evs), err)
	}
	t.Logf("trace of %d events: %s in %s", len(evs), rep.Verdict, time.Since(start).Round(time.Millisecond))
	if rep.Verdict != trace.Valid {
		if saved == "" {
			saved = saveTrace(name, "", evs)
		}
		return fmt.Errorf("trace of %d events (%s) is %s against the model:\n%s", len(evs), saved, rep.Verdict, rep)
	}
	return nil
}

// saveTrace writes evs under dir (the system's temporary directory if
// empty) and returns the file's name, or why it could not.
func saveTrace(name, dir string, evs []trace.Event) string {
	name = strings.NewReplacer("/", "_", " ", "_").Replace(name)
	f, err := os.CreateTemp(dir, "zklock-trace-"+name+"-*.jsonl")
	if err != nil {
		return "not saved: " + err.Error()
	}
	defer f.Close()
	if err := trace.Write(f, evs); err != nil {
		return "not saved: " + err.Error()
	}
	return "saved in " + f.Name()
}

// checkCreateZxids checks the zxids the wire reads from reply headers
// against what ZooKeeper says of the node: a create's zxid is its node's
// czxid, the token its Grant hands out.
func checkCreateZxids(evs []trace.Event) error {
	created := map[string]int64{}
	for _, e := range evs {
		switch {
		case e.Action == traceevent.CreateOk && e.Zxid != 0:
			created[e.Request] = e.Zxid
		case e.Action == traceevent.Grant:
			if z, ok := created[e.Request]; ok && z != e.Token {
				return fmt.Errorf("%s: the create's reply carried zxid %d, its node's czxid is %d", e.String(), z, e.Token)
			}
		}
	}
	return nil
}

// The zxids a trace carries are ZooKeeper's: a create's is its node's
// czxid (the token), a listing's the zxid of the last change it saw, and
// a delete's the next change a listing sees. b, alone behind a, is
// granted on a's deletion without a listing; c, with two nodes ahead of it,
// lists again after a's release (it watched a's node as the node two
// ahead) and is granted on b's deletion without a listing.
func TestTraceZxids(t *testing.T) {
	lock := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	a, b, c3 := newClient(t, "a"), newClient(t, "b"), newClient(t, "c")
	ma, _ := NewMutex(a.Session, lock)
	mb, _ := NewMutex(b.Session, lock)
	mc, _ := NewMutex(c3.Session, lock)
	held, err := ma.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	waiter := lockAsync(ctx, mb.Lock)
	b.trace.waitFor(t, "b queued", time.Minute, waiting)
	last := lockAsync(ctx, mc.Lock)
	c3.trace.waitFor(t, "c queued", time.Minute, waiting)
	if err := held.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	next, err := waiter.wait(t, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	// b holds until c has listed again (a's deletion woke it as the node
	// two ahead): released sooner, b would be gone from that listing and c
	// granted by it, not by b's deletion.
	c3.trace.waitUntil(t, "c listed again while b held", time.Minute, func(evs []TraceEvent) bool {
		n := 0
		for _, ev := range evs {
			if ev.Action == traceevent.ListChildren && ev.Result == traceevent.ResultWait {
				n++
			}
		}
		return n >= 2
	})
	if err := next.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	third, err := last.wait(t, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if err := third.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	zxid := func(c *client, act traceevent.Action, result traceevent.Result) int64 {
		t.Helper()
		for _, ev := range c.trace.all() {
			if ev.Action == act && ev.Result == result {
				if ev.Zxid == 0 {
					t.Fatalf("%s's %s %s has no zxid of its own: %+v", c.name, act, result, ev)
				}
				return ev.Zxid
			}
		}
		t.Fatalf("%s has no %s %s; trace:\n%s", c.name, act, result, c.trace.dump())
		return 0
	}
	aCreate, bCreate := zxid(a, traceevent.CreateOk, ""), zxid(b, traceevent.CreateOk, "")
	cCreate := zxid(c3, traceevent.CreateOk, "")
	aRelease, bRelease, cRelease := zxid(a, traceevent.Release, ""), zxid(b, traceevent.Release, ""), zxid(c3, traceevent.Release, "")
	// c watched a's node too (two ahead of its own): it listed again when
	// a went, while b held, and b's release was then its grant.
	var relisted int64
	for _, ev := range c3.trace.all() {
		if ev.Action == traceevent.ListChildren && ev.Result == traceevent.ResultWait {
			relisted = ev.Zxid
		}
	}
	if c3.trace.count(action(traceevent.GrantOnHeadGone)) != 1 {
		t.Errorf("c was not handed the lock in one notification; trace:\n%s", c3.trace.dump())
	}
	for _, c := range []struct {
		what      string
		got, want int64
	}{
		{"a's token", held.Token(), aCreate},
		{"b's token", next.Token(), bCreate},
		{"c's token", third.Token(), cCreate},
		{"a's granting listing", zxid(a, traceevent.ListChildren, traceevent.ResultGrant), aCreate},
		{"b's waiting listing", zxid(b, traceevent.ListChildren, traceevent.ResultWait), bCreate},
		{"c's waiting listing", zxid(c3, traceevent.ListChildren, traceevent.ResultWait), cCreate},
		{"c's listing after a's release", relisted, aRelease},
	} {
		if c.got != c.want {
			t.Errorf("%s: zxid %d, want %d", c.what, c.got, c.want)
		}
	}
	if !(aCreate < bCreate && bCreate < cCreate && cCreate < aRelease && aRelease < bRelease && bRelease < cRelease) {
		t.Errorf("writes out of order: created %d, %d, %d, released %d, %d, %d", aCreate, bCreate, cCreate, aRelease, bRelease, cRelease)
	}
}
