package validate

import (
	"bufio"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/zklock/zklock/impl/zklock"
	"github.com/zklock/zklock/model/trace"
	"github.com/zklock/zklock/traceevent"
)

// TraceFile records the protocol steps of every zklock session of the
// campaign in trace.jsonl, in model/trace's format, as they happen: at the
// end the whole trace is replayed in the model of the specs, so a campaign
// checks the steps the clients took as well as what their histories show.
type TraceFile struct {
	mu     sync.Mutex
	f      *os.File
	w      *bufio.Writer
	events int
	err    error
}

// NewTraceFile creates the trace file at path.
func NewTraceFile(path string) (*TraceFile, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &TraceFile{f: f, w: bufio.NewWriter(f)}, nil
}

// Tracer is a client's zklock.Tracer. A client's sessions are told apart
// by their ids: each is a client of the model.
// A nil TraceFile traces nothing.
func (t *TraceFile) Tracer(client string) zklock.Tracer {
	if t == nil {
		return nil
	}
	return func(ev zklock.TraceEvent) {
		e := ev.Record(client)
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.f != nil && t.err == nil {
			t.err = trace.Write(t.w, []trace.Event{e})
			t.events++
		}
	}
}

// Env records an environment event (traceevent.ForeignDelete,
// ForeignReplace), under the client name traceevent.EnvClient. A nil
// TraceFile records nothing.
func (t *TraceFile) Env(e traceevent.Event) {
	if t == nil {
		return
	}
	e.Client = traceevent.EnvClient
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.f != nil && t.err == nil {
		t.err = trace.Write(t.w, []trace.Event{e})
		t.events++
	}
}

// Close flushes the file; later events are dropped.
func (t *TraceFile) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.f == nil {
		return t.err
	}
	if t.err == nil {
		t.err = t.w.Flush()
	}
	if err := t.f.Close(); t.err == nil {
		t.err = err
	}
	t.f = nil
	return t.err
}

// TraceSummary is report.json's account of the trace validation.
type TraceSummary struct {
	Verdict  trace.Verdict `json:"verdict"`
	Events   int           `json:"events"`
	Sessions int           `json:"sessions"`
	Locks    []TraceLock   `json:"locks"`
	Elapsed  string        `json:"elapsed"`
	Report   string        `json:"report,omitempty"` // trace-check.txt, when not valid
}

// TraceLock is the validation of one lock path's steps.
type TraceLock struct {
	Lock     string        `json:"lock"`
	Spec     string        `json:"spec"`
	Events   int           `json:"events"`
	Verdict  trace.Verdict `json:"verdict"`
	Explored int           `json:"explored"`
	Faults   int           `json:"fault_steps"` // unobservable fault steps the order found needed
	// Diverging and Why are, for an invalid trace, the first event no model
	// state accepts and why the first candidate rejects it (for an
	// inconclusive one, the deepest point reached): the same lines as
	// trace-check.txt's, so that a log without the output folder (CI's)
	// still says where the trace and the model parted.
	Diverging string `json:"diverging,omitempty"`
	Why       string `json:"why,omitempty"`
}

// TraceCheck is where ValidateTrace finds the trace and writes its report,
// and whom it tells.
type TraceCheck struct {
	File   func(name string) string         // the path of a file in the campaign's output folder
	Budget int                              // search states per lock (--trace-budget)
	Note   func(format string, args ...any) // progress, for people
	Fail   func(format string, args ...any) // what went wrong, for the report
}

// ValidateTrace replays trace.jsonl in the model; on a verdict other than
// valid it writes trace-check.txt. It returns nil if the trace could not be
// read or replayed, after telling c.Fail why.
func ValidateTrace(c TraceCheck) *TraceSummary {
	f, err := os.Open(c.File("trace.jsonl"))
	if err != nil {
		c.Fail("reading the trace back: %v", err)
		return nil
	}
	evs, err := trace.Read(f)
	f.Close()
	if err != nil {
		c.Fail("reading the trace back: %v", err)
		return nil
	}
	c.Note("chaos: replaying %d trace events in the model...\n", len(evs))
	start := time.Now()
	rep, err := trace.Validate(evs, trace.Options{Budget: c.Budget})
	if err != nil {
		c.Fail("validating the trace: %v", err)
		return nil
	}
	sessions := map[string]bool{}
	for _, e := range evs {
		sessions[e.Client] = true
	}
	s := &TraceSummary{Verdict: rep.Verdict, Events: len(evs), Sessions: len(sessions),
		Elapsed: time.Since(start).Round(time.Millisecond).String()}
	for _, l := range rep.Locks {
		tl := TraceLock{Lock: l.Lock, Spec: l.Spec, Events: l.Events, Verdict: l.Verdict,
			Explored: l.Explored, Faults: len(l.Faults)}
		if d := l.Divergence; d != nil {
			tl.Diverging = fmt.Sprintf("after %d events matched: %s", d.Matched, d.Event.String())
			tl.Why = d.Reason
		}
		s.Locks = append(s.Locks, tl)
	}
	if rep.Verdict != trace.Valid {
		if err := os.WriteFile(c.File("trace-check.txt"), []byte(rep.String()), 0o644); err != nil {
			c.Fail("writing trace-check.txt: %v", err)
		} else {
			s.Report = "trace-check.txt"
		}
	}
	return s
}
