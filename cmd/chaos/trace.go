package main

import (
	"bufio"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/zklock/zklock/impl/zklock"
	"github.com/zklock/zklock/model/trace"
)

// traceFile records the protocol steps of every zklock session of the
// campaign in trace.jsonl, in model/trace's format, as they happen: at the
// end the whole trace is replayed in the model of the specs, so a campaign
// checks the steps the clients took as well as what their histories show.
type traceFile struct {
	mu     sync.Mutex
	f      *os.File
	w      *bufio.Writer
	events int
	err    error
}

func newTraceFile(path string) (*traceFile, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &traceFile{f: f, w: bufio.NewWriter(f)}, nil
}

// tracer is a client's zklock.Tracer. A client's sessions are told apart
// by their ids: each is a client of the model.
// A nil traceFile traces nothing.
func (t *traceFile) tracer(client string) zklock.Tracer {
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

// close flushes the file; later events are dropped.
func (t *traceFile) close() error {
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

// traceSummary is report.json's account of the trace validation.
type traceSummary struct {
	Verdict  trace.Verdict `json:"verdict"`
	Events   int           `json:"events"`
	Sessions int           `json:"sessions"`
	Locks    []traceLock   `json:"locks"`
	Elapsed  string        `json:"elapsed"`
	Report   string        `json:"report,omitempty"` // trace-check.txt, when not valid
}

type traceLock struct {
	Lock     string        `json:"lock"`
	Spec     string        `json:"spec"`
	Events   int           `json:"events"`
	Verdict  trace.Verdict `json:"verdict"`
	Explored int           `json:"explored"`
	Faults   int           `json:"fault_steps"` // unobservable fault steps the order found needed
}

// validateTrace replays trace.jsonl in the model.
func (c *campaign) validateTrace() *traceSummary {
	f, err := os.Open(c.out.file("trace.jsonl"))
	if err != nil {
		c.fail("reading the trace back: %v", err)
		return nil
	}
	evs, err := trace.Read(f)
	f.Close()
	if err != nil {
		c.fail("reading the trace back: %v", err)
		return nil
	}
	fmt.Fprintf(c.stderr, "chaos: replaying %d trace events in the model...\n", len(evs))
	start := time.Now()
	rep, err := trace.Validate(evs, trace.Options{Budget: c.cfg.TraceBudget})
	if err != nil {
		c.fail("validating the trace: %v", err)
		return nil
	}
	sessions := map[string]bool{}
	for _, e := range evs {
		sessions[e.Client] = true
	}
	s := &traceSummary{Verdict: rep.Verdict, Events: len(evs), Sessions: len(sessions),
		Elapsed: time.Since(start).Round(time.Millisecond).String()}
	for _, l := range rep.Locks {
		s.Locks = append(s.Locks, traceLock{Lock: l.Lock, Spec: l.Spec, Events: l.Events, Verdict: l.Verdict,
			Explored: l.Explored, Faults: len(l.Faults)})
	}
	if rep.Verdict != trace.Valid {
		if err := os.WriteFile(c.out.file("trace-check.txt"), []byte(rep.String()), 0o644); err != nil {
			c.fail("writing trace-check.txt: %v", err)
		} else {
			s.Report = "trace-check.txt"
		}
	}
	return s
}
