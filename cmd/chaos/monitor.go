package main

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

// monitor keeps the live counts of a campaign for the progress line, and
// spots the plainest violations as they happen: two clients believing they
// hold conflicting leases at once when no freeze explains it, and a register
// accepting a write whose token is below one it accepted before. Its count is
// a preview; the verdict is the checker's, on the whole history.
type monitor struct {
	ops        atomic.Int64
	faults     atomic.Int64
	sessions   atomic.Int64
	violations atomic.Int64

	mu        sync.Mutex
	current   string                          // fault being injected, for the progress line
	examples  []string                        // the first violations, for the log
	believers map[string]map[*belief]struct{} // lock path -> live beliefs
	frozen    map[string]bool                 // clients frozen now
	thawedAt  map[string]int64                // when each client last thawed
	written   map[string]int64                // register -> highest token of writes returned ok
	beliefsOf map[string]map[*belief]struct{} // client -> live beliefs
}

// belief is one client's belief that it holds a lease, from the return of
// its acquire to its release call or the moment it saw the lease end.
type belief struct {
	client string
	path   string
	mode   checker.Mode
	token  int64
	paused bool // the client was frozen during it: an overlap is not a bug
}

func newMonitor() *monitor {
	return &monitor{
		believers: map[string]map[*belief]struct{}{},
		frozen:    map[string]bool{},
		thawedAt:  map[string]int64{},
		written:   map[string]int64{},
		beliefsOf: map[string]map[*belief]struct{}{},
	}
}

// violation counts one violation and keeps its description.
func (m *monitor) violation(format string, args ...any) {
	m.violations.Add(1)
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.examples) < 10 {
		m.examples = append(m.examples, fmt.Sprintf(format, args...))
	}
}

// begin records that client believes it holds a lease on path from now; call
// is when it asked for it.
func (m *monitor) begin(client, path string, mode checker.Mode, token, call int64) *belief {
	m.mu.Lock()
	b := &belief{client: client, path: path, mode: mode, token: token,
		paused: m.frozen[client] || m.thawedAt[client] >= call}
	var clash []string
	for o := range m.believers[path] {
		if (o.mode != checker.ModeRead || mode != checker.ModeRead) && !o.paused && !b.paused {
			clash = append(clash, fmt.Sprintf("%s (token %d)", o.client, o.token))
		}
	}
	if m.believers[path] == nil {
		m.believers[path] = map[*belief]struct{}{}
	}
	m.believers[path][b] = struct{}{}
	if m.beliefsOf[client] == nil {
		m.beliefsOf[client] = map[*belief]struct{}{}
	}
	m.beliefsOf[client][b] = struct{}{}
	m.mu.Unlock()
	for _, c := range clash {
		m.violation("%s and %s both believe they hold %s", c, fmt.Sprintf("%s (token %d)", client, token), path)
	}
	return b
}

// end records that the belief ended; ending it twice does nothing.
func (m *monitor) end(b *belief) {
	if b == nil {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.believers[b.path], b)
	delete(m.beliefsOf[b.client], b)
}

// freeze and thaw bracket an in-process freeze of client.
func (m *monitor) freeze(client string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.frozen[client] = true
	for b := range m.beliefsOf[client] {
		b.paused = true
	}
}

func (m *monitor) thaw(client string, at int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.frozen, client)
	m.thawedAt[client] = at
}

// writeCalled returns the highest token of the writes to reg that returned
// ok so far; pass it to writeOK when the write returns ok.
func (m *monitor) writeCalled(reg string) int64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.written[reg]
}

// writeOK counts a stale write: one accepted with a token below that of a
// write that had returned ok before it was called.
func (m *monitor) writeOK(reg, client string, token, before int64) {
	m.mu.Lock()
	m.written[reg] = max(m.written[reg], token)
	m.mu.Unlock()
	if token < before {
		m.violation("%s accepted %s's stale write (token %d < %d)", reg, client, token, before)
	}
}

func (m *monitor) setCurrent(s string) {
	m.mu.Lock()
	m.current = s
	m.mu.Unlock()
}

func (m *monitor) examplesSoFar() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]string(nil), m.examples...)
}

// progress writes the live progress line to w until stop closes: in place
// on a terminal, every ten seconds otherwise.
func (m *monitor) progress(w io.Writer, start time.Time, total time.Duration, stop <-chan struct{}) {
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

func (m *monitor) line(elapsed, total time.Duration) string {
	m.mu.Lock()
	cur := m.current
	m.mu.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, "chaos %s/%s  ops %d  faults %d", clock(elapsed), clock(total), m.ops.Load(), m.faults.Load())
	if cur != "" {
		fmt.Fprintf(&b, " [%s]", cur)
	}
	fmt.Fprintf(&b, "  sessions %d  violations %d", m.sessions.Load(), m.violations.Load())
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
