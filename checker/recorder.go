package checker

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"
)

// A Clock turns instants into history times: nanoseconds since a start shared by
// everything that records one run, so operation and fault times compare.
type Clock struct {
	start time.Time
}

// NewClock returns a Clock that starts now.
func NewClock() Clock {
	return Clock{start: time.Now()}
}

// ClockAt returns a Clock that starts at start. Pass a time.Time from time.Now
// (not one decoded from text): only those carry the monotonic reading that makes
// differences immune to wall-clock steps.
func ClockAt(start time.Time) Clock {
	return Clock{start: start}
}

// Start returns the instant time 0 stands for.
func (c Clock) Start() time.Time { return c.start }

// Now returns the current history time.
func (c Clock) Now() int64 { return int64(time.Since(c.start)) }

// At converts an instant taken elsewhere (a fault injector's log, say) to history
// time.
func (c Clock) At(t time.Time) int64 { return int64(t.Sub(c.start)) }

// A Recorder collects the records of a run. It is safe for concurrent use.
type Recorder struct {
	clock Clock

	mu      sync.Mutex
	records []Record

	// flushMu keeps two Flush calls from writing the same records twice while
	// letting Add proceed during the (slow) encoding.
	flushMu sync.Mutex
	flushed int
}

// NewRecorder returns an empty Recorder that stamps times with clock.
func NewRecorder(clock Clock) *Recorder {
	return &Recorder{clock: clock}
}

// Clock returns the recorder's clock.
func (r *Recorder) Clock() Clock { return r.clock }

// Now returns the current history time; take it just before a call and just after it
// returns.
func (r *Recorder) Now() int64 { return r.clock.Now() }

// Add appends a record. It does not validate: a recorder must never lose data in the
// middle of a run, and [Check] reports bad records with their position.
func (r *Recorder) Add(rec Record) {
	r.mu.Lock()
	r.records = append(r.records, rec)
	r.mu.Unlock()
}

// Len returns the number of records added so far.
func (r *Recorder) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.records)
}

// History returns a copy of the records added so far.
func (r *Recorder) History() History {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append(History(nil), r.records...)
}

// Flush writes the records added since the last successful Flush to w as JSON
// lines. Calling it periodically streams the history, so a crashed run still
// leaves one behind.
func (r *Recorder) Flush(w io.Writer) error {
	r.flushMu.Lock()
	defer r.flushMu.Unlock()

	r.mu.Lock()
	pending := append([]Record(nil), r.records[r.flushed:]...)
	r.mu.Unlock()
	if len(pending) == 0 {
		return nil
	}

	bw := bufio.NewWriter(w)
	enc := json.NewEncoder(bw)
	for i := range pending {
		if err := enc.Encode(&pending[i]); err != nil {
			return fmt.Errorf("checker: flushing history: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("checker: flushing history: %w", err)
	}
	r.flushed += len(pending)
	return nil
}
