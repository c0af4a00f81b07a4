package zklock

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"
	"os"
	"regexp"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zklock/zklock/ensemble/ensembletest"
	"github.com/zklock/zklock/faultinject"
	"github.com/zklock/zklock/traceevent"
)

// Close returns only once every goroutine the session started has stopped,
// judged at the instant it returns: no settle wait, which would let a Close
// that returns early pass whenever its goroutines happen to end soon after.
//
// Which goroutines are the session's: those carrying a pprof label the test
// goroutine wore while it made the session and used it (a goroutine inherits
// its creator's labels, so go-zookeeper's, the monitor, the heartbeat and
// the call workers all carry it), printed in the goroutine dump under
// GODEBUG=tracebacklabels=1. What counts as still running: a goroutine
// that is parked (on a channel, a lock, the network, a timer). One that
// Close waited for has signalled its end (closed a channel, Done on a
// WaitGroup) and has nothing left to wait on: the dump can catch it only
// running or runnable on its way out.
//
// A goroutine Close did not wait for usually ends soon after anyway, so each
// subtest holds one kind of the session's goroutines parked in a hook until
// Close returns (then it notes that Close did not wait for it) or until
// closeHold has passed (Close was waiting: it cannot return before the hook
// does). Whatever the machine's speed, Close cannot return while a hook it
// waits for is still holding, so the verdict on the real code never depends
// on timing; a Close that does not wait is caught unless it takes closeHold
// to return on its own.
func TestCloseReturnsAfterEveryGoroutine(t *testing.T) {
	t.Setenv("GODEBUG", strings.TrimPrefix(os.Getenv("GODEBUG")+",tracebacklabels=1", ","))

	// The monitor goroutine tears the connection down, go-zookeeper's
	// goroutines with it, and reports the session's end last: it is held
	// there (code mutant close-skips-monitor).
	t.Run("monitor", func(t *testing.T) {
		h := newCloseHooks()
		s := h.session(t, func(ev TraceEvent) {
			if ev.Action == traceevent.LearnExpiry {
				h.hold("the monitor, reporting the session's end")
			}
		})
		h.closeAndCheck(t, s, 1)
	})

	// A call in flight on a worker, and a clean-up left to the background
	// (an Unlock's delete that goes on): both are the session's goroutines
	// that Close waits for after the monitor (code mutant close-skips-calls).
	t.Run("calls", func(t *testing.T) {
		h := newCloseHooks()
		s := h.session(t, nil)
		h.use(func() {
			h.running.Add(1)
			if _, err := start(s, func() (struct{}, error) {
				defer h.running.Done()
				h.hold("a call in flight")
				return struct{}{}, nil
			}); err != nil {
				h.running.Done()
				t.Fatal(err)
			}
			h.running.Add(1)
			if !s.background(func(life context.Context) {
				defer h.running.Done()
				<-life.Done()
				h.hold("a background clean-up")
			}) {
				h.running.Done()
				t.Fatal("the session ended before its background clean-up started")
			}
		})
		h.closeAndCheck(t, s, 2)
	})
}

// closeHold is how long a hook holds a goroutine of the session while
// Close has not returned: long enough that a Close that does not wait for it
// returns first, since it then has nothing slow left to do.
const closeHold = 2 * time.Second

// closeHooks holds goroutines of one session until Close returns.
type closeHooks struct {
	label    string
	returned chan struct{} // closed once Close has returned and the dump is taken
	running  sync.WaitGroup

	mu   sync.Mutex
	held int      // hooks that ran
	late []string // hooks still holding when Close returned
}

func newCloseHooks() *closeHooks {
	var b [6]byte
	rand.Read(b[:])
	return &closeHooks{label: "closetest-" + hex.EncodeToString(b[:]), returned: make(chan struct{})}
}

// hold parks the calling goroutine of the session until Close returns or
// closeHold has passed.
func (h *closeHooks) hold(what string) {
	h.mu.Lock()
	h.held++
	h.mu.Unlock()
	t := time.NewTimer(closeHold)
	defer t.Stop()
	select {
	case <-h.returned:
		h.mu.Lock()
		h.late = append(h.late, what)
		h.mu.Unlock()
	case <-t.C:
	}
}

// use runs f on the test goroutine wearing the session's label, so that
// every goroutine f makes the session start carries it.
func (h *closeHooks) use(f func()) {
	ctx := pprof.WithLabels(context.Background(), pprof.Labels(closeLabelKey, h.label))
	pprof.SetGoroutineLabels(ctx)
	defer pprof.SetGoroutineLabels(context.Background())
	f()
}

const closeLabelKey = "zklock-close-test"

// session makes a session (behind proxies made before, so that theirs do
// not carry the label) and takes a lock with it, so that call workers and
// watches exist; tracer, if not nil, receives its trace.
func (h *closeHooks) session(t *testing.T, tracer func(TraceEvent)) *Session {
	t.Helper()
	set, err := faultinject.NewSet(ensembletest.Require(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { set.Close() })
	opts := []SessionOption{WithSessionTimeout(longTimeout), timing(),
		WithLogger(slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn})))}
	if tracer != nil {
		opts = append(opts, WithTracer(tracer))
	}
	var s *Session
	h.use(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if s, err = NewSession(ctx, set.Addrs(), opts...); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		m, err := NewMutex(s, lockPath(t))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m.Lock(ctx); err != nil {
			t.Fatal(err)
		}
	})
	return s
}

// closeAndCheck closes s, takes the goroutine dump the instant Close
// returns, then lets the hooks go and judges; hooks is how many hooks must
// have held a goroutine (a hook that never ran tested nothing).
func (h *closeHooks) closeAndCheck(t *testing.T, s *Session, hooks int) {
	t.Helper()
	// Without labels in the dump nothing would be found after Close
	// either: the check would pass without looking.
	if live := parkedWithLabel(goroutineDump(), h.label); len(live) == 0 {
		t.Fatalf("no goroutine labelled %s in the dump while the session lives: are labels printed (GODEBUG=tracebacklabels=1)?", h.label)
	}
	start := time.Now()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	dump := goroutineDump()
	took := time.Since(start)
	close(h.returned)
	// A Close that returned early leaves them running: they end now.
	h.running.Wait()
	<-s.stopped
	s.goroutines.Wait()
	t.Logf("Close took %v", took.Round(time.Millisecond))
	h.mu.Lock()
	late, held := h.late, h.held
	h.mu.Unlock()
	if held != hooks {
		t.Errorf("%d of the %d hooks held a goroutine of the session", held, hooks)
	}
	for _, what := range late {
		t.Errorf("Close returned while %s was still running", what)
	}
	if parked := parkedWithLabel(dump, h.label); len(parked) > 0 {
		t.Errorf("%d goroutines of the session still parked when Close returned:\n%s", len(parked), strings.Join(parked, "\n\n"))
	}
}

// goroutineDump is the stack of every goroutine.
func goroutineDump() string {
	buf := make([]byte, 1<<22)
	return string(buf[:runtime.Stack(buf, true)])
}

// goroutineHeader is the first line of a goroutine in a dump: its status
// (a wait reason for a parked one), then what follows it (how long it has
// waited, its labels).
var goroutineHeader = regexp.MustCompile(`^goroutine \d+ \[([^,\]]*?)(?:,| labels:|\])`)

// parkedWithLabel returns the goroutines of dump that carry label and are
// parked. Running, runnable, in a system call, preempted or having their
// stack moved, a goroutine is on its way somewhere and may be on its way
// out; so may one the garbage collector holds (an assist), which the
// program's code did not ask for.
func parkedWithLabel(dump, label string) []string {
	var out []string
	for _, g := range strings.Split(dump, "\n\n") {
		header, _, _ := strings.Cut(g, "\n")
		if !strings.Contains(header, label) {
			continue
		}
		m := goroutineHeader.FindStringSubmatch(header)
		if m == nil {
			out = append(out, g) // an unreadable header: show it
			continue
		}
		switch status := m[1]; {
		case status == "running", status == "runnable", status == "syscall",
			status == "preempted", status == "copystack", strings.HasPrefix(status, "GC "):
		default:
			out = append(out, g)
		}
	}
	return out
}
