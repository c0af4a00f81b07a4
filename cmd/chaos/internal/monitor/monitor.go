// Package monitor keeps a campaign's live counts for its progress line and
// spots the plainest violations as they happen. It is a preview: the verdict
// is package checker's, on the whole history.
package monitor

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/zklock/zklock/checker"
)

// Monitor keeps the live counts of a campaign for the progress line, and
// spots the plainest violations as they happen: two clients believing they
// hold conflicting leases at once when no freeze explains it, and a register
// accepting a write whose token is below one it accepted before. Its count is
// a preview; the verdict is the checker's, on the whole history.
type Monitor struct {
	Ops        atomic.Int64 // operations recorded
	Faults     atomic.Int64 // faults injected
	Sessions   atomic.Int64 // sessions opened
	Violations atomic.Int64 // violations seen

	mu        sync.Mutex
	current   string                          // fault being injected, for the progress line
	examples  []string                        // the first violations, for the log
	believers map[string]map[*Belief]struct{} // lock path -> live beliefs
	frozen    map[string]bool                 // clients frozen now
	thawedAt  map[string]int64                // when each client last thawed
	written   map[string]int64                // register -> highest token of writes returned ok
	beliefsOf map[string]map[*Belief]struct{} // client -> live beliefs
}

// Belief is one client's belief that it holds a lease, from the return of
// its acquire to its release call or the moment it saw the lease end.
type Belief struct {
	client string
	path   string
	mode   checker.Mode
	token  int64
	paused bool // the client was frozen during it: an overlap is not a bug
}

// New returns a monitor with nothing counted.
func New() *Monitor {
	return &Monitor{
		believers: map[string]map[*Belief]struct{}{},
		frozen:    map[string]bool{},
		thawedAt:  map[string]int64{},
		written:   map[string]int64{},
		beliefsOf: map[string]map[*Belief]struct{}{},
	}
}

// Violation counts one violation and keeps its description.
func (m *Monitor) Violation(format string, args ...any) {
	m.Violations.Add(1)
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.examples) < 10 {
		m.examples = append(m.examples, fmt.Sprintf(format, args...))
	}
}

// Begin records that client believes it holds a lease on path from now; call
// is when it asked for it.
func (m *Monitor) Begin(client, path string, mode checker.Mode, token, call int64) *Belief {
	m.mu.Lock()
	b := &Belief{client: client, path: path, mode: mode, token: token,
		paused: m.frozen[client] || m.thawedAt[client] >= call}
	var clash []string
	for o := range m.believers[path] {
		if (o.mode != checker.ModeRead || mode != checker.ModeRead) && !o.paused && !b.paused {
			clash = append(clash, fmt.Sprintf("%s (token %d)", o.client, o.token))
		}
	}
	if m.believers[path] == nil {
		m.believers[path] = map[*Belief]struct{}{}
	}
	m.believers[path][b] = struct{}{}
	if m.beliefsOf[client] == nil {
		m.beliefsOf[client] = map[*Belief]struct{}{}
	}
	m.beliefsOf[client][b] = struct{}{}
	m.mu.Unlock()
	for _, c := range clash {
		m.Violation("%s and %s both believe they hold %s", c, fmt.Sprintf("%s (token %d)", client, token), path)
	}
	return b
}

// End records that the belief ended; ending it twice does nothing.
func (m *Monitor) End(b *Belief) {
	if b == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.believers[b.path], b)
	delete(m.beliefsOf[b.client], b)
}

// Freeze marks client frozen in-process (until Thaw): the beliefs it holds
// now, and those it begins before it thaws, excuse an overlap.
func (m *Monitor) Freeze(client string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.frozen[client] = true
	for b := range m.beliefsOf[client] {
		b.paused = true
	}
}

// Thaw ends client's freeze at history time at.
func (m *Monitor) Thaw(client string, at int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.frozen, client)
	m.thawedAt[client] = at
}

// WriteCalled returns the highest token of the writes to reg that returned
// ok so far; pass it to WriteOK when the write returns ok.
func (m *Monitor) WriteCalled(reg string) int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.written[reg]
}

// WriteOK counts a stale write: one accepted with a token below that of a
// write that had returned ok before it was called.
func (m *Monitor) WriteOK(reg, client string, token, before int64) {
	m.mu.Lock()
	m.written[reg] = max(m.written[reg], token)
	m.mu.Unlock()
	if token < before {
		m.Violation("%s accepted %s's stale write (token %d < %d)", reg, client, token, before)
	}
}

// SetCurrent names the fault being injected for the progress line; "" for none.
func (m *Monitor) SetCurrent(s string) {
	m.mu.Lock()
	m.current = s
	m.mu.Unlock()
}

// Examples returns the first violations seen (at most ten).
func (m *Monitor) Examples() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.examples...)
}

// Progress writes the live progress line to w until stop closes: in place
// on a terminal, every ten seconds otherwise.
func (m *Monitor) Progress(w io.Writer, start time.Time, total time.Duration, stop <-chan struct{}) {
	tty := isTerminal(w)
	every := 10 * time.Second
	if tty {
		every = time.Second
	}
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-stop:
			if tty {
				fmt.Fprintf(w, "\r%s\n", m.line(time.Since(start), total))
			}
			return
		case <-t.C:
			if tty {
				fmt.Fprintf(w, "\r%s\x1b[K", m.line(time.Since(start), total))
			} else {
				fmt.Fprintln(w, m.line(time.Since(start), total))
			}
		}
	}
}

func (m *Monitor) line(elapsed, total time.Duration) string {
	m.mu.Lock()
	cur := m.current
	m.mu.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, "chaos %s/%s  ops %d  faults %d", clock(elapsed), clock(total), m.Ops.Load(), m.Faults.Load())
	if cur != "" {
		fmt.Fprintf(&b, " [%s]", cur)
	}
	fmt.Fprintf(&b, "  sessions %d  violations %d", m.Sessions.Load(), m.Violations.Load())
	return b.String()
}

func clock(d time.Duration) string {
	s := int(d.Round(time.Second) / time.Second)
	return fmt.Sprintf("%02d:%02d", s/60, s%60)
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
