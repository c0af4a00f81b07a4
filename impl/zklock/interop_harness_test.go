package zklock

// The interop tests' harness: a Curator process driven over stdin, and a tracker of who holds.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// holdTracker is the overlap detector. Grants from both sides are reported
// to it as they are observed; a grant that conflicts with a holder that has not
// yet been told to release is a violation. A holder marked releasing may still
// be deleting its node, so a grant then is legitimate.
type holdTracker struct {
	mu         sync.Mutex
	held       map[string]heldBy
	violations []string
}

type heldBy struct {
	mode      string // "exclusive", "read" or "write"
	releasing bool
}

func newHoldTracker() *holdTracker { return &holdTracker{held: map[string]heldBy{}} }

func (h *holdTracker) grant(who, mode string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	var errs []error
	for other, hb := range h.held {
		if !hb.releasing && (mode != "read" || hb.mode != "read") {
			errs = append(errs, fmt.Errorf("%s granted %s while %s holds %s", who, mode, other, hb.mode))
		}
	}
	h.held[who] = heldBy{mode: mode}
	for _, e := range errs {
		h.violations = append(h.violations, e.Error())
	}
	return errors.Join(errs...)
}

func (h *holdTracker) releasing(who string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	hb := h.held[who]
	hb.releasing = true
	h.held[who] = hb
}

func (h *holdTracker) released(who string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.held, who)
}

func (h *holdTracker) check(t *testing.T) {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, v := range h.violations {
		t.Errorf("held together: %s", v)
	}
}

// javaHolder is one holder process in hold mode: the Curator harness, in
// which each contender has a session of its own, or the kazoo holder.
type javaHolder struct {
	side  string // "curator" or "kazoo": the holders' names in the tracker
	stdin io.WriteCloser
	track *holdTracker

	mu      sync.Mutex
	changed chan struct{}     // closed and replaced on every line
	mode    map[string]string // what each contender id asked for, for the tracker
	granted map[string]string
	freed   map[string]bool
	errs    []string
	exited  bool
}

func startCurator(t *testing.T, servers []string, track *holdTracker) *javaHolder {
	t.Helper()
	h := curatorHarness(t)
	ctx, cancel := context.WithCancel(context.Background())
	// A JVM that starts fast: the harness waits, it does not compute.
	cmd := h.Command(ctx, []string{"-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx128m"},
		"hold", "--servers", strings.Join(servers, ","), "--session-timeout-ms", fmt.Sprint(longTimeout.Milliseconds()))
	return startHolder(t, "curator", cmd, cancel, track)
}

// startHolder starts a holder process that speaks the hold protocol on
// stdin and stdout (acquire, release, quit; ready, granted, released), as
// the Curator harness and testdata/kazoo_holder.py do, and waits until it
// is ready. side names it in the tracker and in failures; cancel kills it.
func startHolder(t *testing.T, side string, cmd *exec.Cmd, cancel context.CancelFunc, track *holdTracker) *javaHolder {
	t.Helper()
	cmd.Stderr = testWriter{t}
	cmd.WaitDelay = 5 * time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		cancel()
		t.Fatalf("starting the %s holder: %v", side, err)
	}
	j := &javaHolder{side: side, stdin: stdin, track: track, changed: make(chan struct{}),
		mode: map[string]string{}, granted: map[string]string{}, freed: map[string]bool{}}
	ready := make(chan struct{})
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			j.line(sc.Text(), ready)
		}
		j.mu.Lock()
		j.exited = true
		j.mu.Unlock()
		j.wake()
	}()
	t.Cleanup(func() {
		io.WriteString(stdin, "quit\n")
		stdin.Close()
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cancel() // kills our process, and only it
			<-done
		}
		cancel()
		<-readerDone
	})
	select {
	case <-ready:
	case <-readerDone:
		t.Fatalf("the %s holder exited before it was ready", side)
	case <-time.After(time.Minute):
		t.Fatalf("the %s holder did not start within a minute", side)
	}
	return j
}

func (j *javaHolder) line(s string, ready chan struct{}) {
	f := strings.Fields(s)
	if len(f) == 0 {
		return
	}
	j.mu.Lock()
	switch {
	case f[0] == "ready":
		close(ready)
	case f[0] == "granted" && len(f) == 3:
		j.granted[f[1]] = f[2]
		// Checked here, as the line arrives, not when the test gets to it.
		j.track.grant(j.side+" "+f[1], j.mode[f[1]])
	case f[0] == "released" && len(f) == 2:
		j.freed[f[1]] = true
		j.track.released(j.side + " " + f[1])
	default:
		j.errs = append(j.errs, s)
	}
	j.mu.Unlock()
	j.wake()
}

func (j *javaHolder) wake() {
	j.mu.Lock()
	close(j.changed)
	j.changed = make(chan struct{})
	j.mu.Unlock()
}

func (j *javaHolder) send(t *testing.T, format string, args ...any) {
	t.Helper()
	if _, err := fmt.Fprintf(j.stdin, format+"\n", args...); err != nil {
		t.Fatalf("writing to the %s holder: %v", j.side, err)
	}
}

// acquire asks the holder for a lock; kind is mutex, read, write, or latch
// (a LeaderLatch, "granted" once it leads) for Curator, lock (kazoo's Lock),
// read or write for kazoo.
func (j *javaHolder) acquire(t *testing.T, id, kind, path string) {
	t.Helper()
	mode := map[string]string{"mutex": "exclusive", "read": "read", "write": "write", "latch": "exclusive", "lock": "exclusive"}[kind]
	j.mu.Lock()
	j.mode[id] = mode
	j.mu.Unlock()
	j.send(t, "acquire %s %s %s", id, kind, path)
}

// release marks id releasing in the tracker, then tells Curator.
func (j *javaHolder) release(t *testing.T, id string) {
	t.Helper()
	j.track.releasing(j.side + " " + id)
	j.send(t, "release %s", id)
}

// waitFor waits until cond, under j.mu, holds; it fails on a harness error.
func (j *javaHolder) waitFor(t *testing.T, what string, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.After(d)
	for {
		j.mu.Lock()
		ok, errs, exited, changed := cond(), j.errs, j.exited, j.changed
		j.mu.Unlock()
		if len(errs) > 0 {
			t.Fatalf("%s holder: %s", j.side, strings.Join(errs, "; "))
		}
		if ok {
			return
		}
		if exited {
			t.Fatalf("the %s holder exited while waiting for %s", j.side, what)
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("%s: no %s within %v", j.side, what, d)
		}
	}
}

func (j *javaHolder) waitGranted(t *testing.T, id string) string {
	t.Helper()
	var node string
	j.waitFor(t, "grant of "+id, time.Minute, func() bool { node = j.granted[id]; return node != "" })
	return node
}

func (j *javaHolder) waitReleased(t *testing.T, id string) {
	t.Helper()
	j.waitFor(t, "release of "+id, time.Minute, func() bool { return j.freed[id] })
}

func (j *javaHolder) isGranted(id string) bool {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.granted[id] != ""
}

// curatorQueued asks the holder (Curator or kazoo) for the lock (kind as for
// acquire), waits until the contender has its node under lock (the holder
// stores "<side>:<id>" in it), then for waitGrace, and fails if the holder
// granted it meanwhile. It returns the node's name.
func curatorQueued(t *testing.T, j *javaHolder, a *adminClient, id, kind, lock string) string {
	t.Helper()
	j.acquire(t, id, kind, lock)
	var name string
	eventually(t, j.side+"'s node for "+id, time.Minute, func() bool {
		for _, n := range nodes(t, a, lock) {
			if data, _, err := a.Get(lock + "/" + n); err == nil && string(data) == j.side+":"+id {
				name = n
				return true
			}
		}
		return false
	})
	time.Sleep(waitGrace)
	if j.isGranted(id) {
		t.Fatalf("%s granted %s while it should wait", j.side, id)
	}
	return name
}

// zkLock starts a zklock acquisition whose grant the tracker checks at once.
func zkLock(ctx context.Context, track *holdTracker, who, mode string, lock func(context.Context) (*Lease, error)) *pending {
	return lockAsync(ctx, func(ctx context.Context) (*Lease, error) {
		l, err := lock(ctx)
		if err == nil {
			track.grant(who, mode)
		}
		return l, err
	})
}

// zkQueued waits until c's trace shows a contender asleep on a watch (the
// n-th such event), then for waitGrace, and fails if p returned meanwhile.
func zkQueued(t *testing.T, c *client, n int, p *pending) {
	t.Helper()
	c.trace.waitCount(t, "zklock waiting", time.Minute, n, waiting)
	time.Sleep(waitGrace)
	if p.returned() {
		t.Fatalf("zklock Lock returned while it should wait: %v", p.err)
	}
}

func zkUnlock(t *testing.T, ctx context.Context, track *holdTracker, who string, l *Lease) {
	t.Helper()
	track.releasing(who)
	if err := l.Unlock(ctx); err != nil {
		t.Fatalf("%s Unlock: %v", who, err)
	}
	track.released(who)
}

func mustGrant(t *testing.T, who string, p *pending) *Lease {
	t.Helper()
	l, err := p.wait(t, time.Minute)
	if err != nil {
		t.Fatalf("%s: %v", who, err)
	}
	return l
}

func checkName(t *testing.T, who, name string, re *regexp.Regexp) {
	t.Helper()
	if !re.MatchString(name) {
		t.Errorf("%s's node %q does not match %s", who, name, re)
	}
}
