package zklock

// Interoperability with Apache Curator 5.9: Go and Java processes contend on
// one lock path and never hold it together. The Java side is the harness in
// bench/curator (mode hold), fetched by Maven and checked against pinned
// sha256 sums through curator.Prepare, the same path cmd/bench uses; the first
// run downloads, later runs reuse .cache/curator.
//
// Why the assertions cannot pass vacuously: every step waits for a grant that
// must happen (a Curator "granted" line, a zklock Lock returning), so a run in
// which nothing is ever granted fails on a timeout; and every grant, on either
// side, is checked at the moment it is observed against every holder the test
// has not yet told to release (holdTracker). TestInteropOverlapControl shows
// that check firing when zklock locks a path Curator does not see.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zklock/zklock/bench/curator"
	"github.com/zklock/zklock/ensemble/ensembletest"
)

// waitGrace is how long a contender must stay queued, not granted, before a
// test accepts that it waits. Long enough for a wrong grant to show up on a
// loaded two-core machine; a grant that is not wrong never takes this long.
const waitGrace = 500 * time.Millisecond

// Node names, Curator's protected-mode shape: _c_<uuid>-<marker><10 digits>.
var (
	uuidRE    = `_c_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`
	mutexNode = regexp.MustCompile(`^` + uuidRE + `-lock-[0-9]{10}$`)
	readNode  = regexp.MustCompile(`^` + uuidRE + `-__READ__[0-9]{10}$`)
	writeNode = regexp.MustCompile(`^` + uuidRE + `-__WRIT__[0-9]{10}$`)
)

var harnessOnce struct {
	sync.Once
	h   *curator.Harness
	err error
}

// curatorHarness builds the harness once per test binary, or skips.
func curatorHarness(t *testing.T) *curator.Harness {
	t.Helper()
	ensembletest.Require(t) // skips under -short
	if os.Getenv("ZKLOCK_SKIP_INTEROP") != "" {
		t.Skip("ZKLOCK_SKIP_INTEROP is set")
	}
	if _, _, _, err := curator.Tools(); err != nil {
		t.Skipf("Curator interop needs a JDK and Maven: %v", err)
	}
	harnessOnce.Do(func() {
		start := time.Now()
		cache, err := curator.CacheDir()
		if err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			harnessOnce.h, err = curator.Prepare(ctx, cache, testWriter{t})
		}
		harnessOnce.err = err
		t.Logf("Curator harness ready in %v", time.Since(start).Round(time.Millisecond))
	})
	if harnessOnce.err != nil {
		// A checksum mismatch or a failed download is a failure, not a skip:
		// skipping would hide a tampered artifact.
		t.Fatalf("Curator harness (set ZKLOCK_SKIP_INTEROP=1 to skip offline): %v", harnessOnce.err)
	}
	return harnessOnce.h
}

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

// (a) Curator's InterProcessMutex and zklock's Mutex exclude each other, both
// ways, and name their nodes alike.
func TestInteropMutex(t *testing.T) {
	skipTraceCheck(t, "Curator's lock nodes belong to no traced client")
	track := newHoldTracker()
	j := startCurator(t, ensembletest.Require(t), track)
	a := admin(t)
	zc := newClient(t, "zklock")
	lock := lockPath(t)
	m, err := NewMutex(zc.Session, lock)
	if err != nil {
		t.Fatal(err)
	}
	ctx := ctxFor(t, 3*time.Minute)

	// Curator holds; zklock queues behind it and waits.
	j.acquire(t, "m1", "mutex", lock)
	cNode := j.waitGranted(t, "m1")
	p := zkLock(ctx, track, "zklock", "exclusive", m.Lock)
	zkQueued(t, zc, 1, p)
	names := nodes(t, a, lock)
	if len(names) != 2 {
		t.Fatalf("nodes under %s: %v, want Curator's and zklock's", lock, names)
	}
	for _, n := range names {
		checkName(t, "a contender", n, mutexNode)
	}
	checkName(t, "Curator", strings.TrimPrefix(cNode, lock+"/"), mutexNode)

	// Curator releases; zklock is granted.
	j.release(t, "m1")
	lease := mustGrant(t, "zklock Lock after Curator's release", p)
	j.waitReleased(t, "m1")
	checkName(t, "zklock", strings.TrimPrefix(lease.Node(), lock+"/"), mutexNode)

	// zklock holds; Curator queues behind it and waits.
	queued := curatorQueued(t, j, a, "m2", "mutex", lock)
	checkName(t, "Curator", queued, mutexNode)
	if seqOf(t, queued) <= seqOf(t, lease.Node()) {
		t.Errorf("Curator's node %s is not behind zklock's %s", queued, lease.Node())
	}
	zkUnlock(t, ctx, track, "zklock", lease)
	if got := j.waitGranted(t, "m2"); got != lock+"/"+queued {
		t.Errorf("Curator granted %s, queued as %s", got, queued)
	}
	j.release(t, "m2")
	j.waitReleased(t, "m2")

	track.check(t)
	eventually(t, "lock nodes gone", time.Minute, func() bool { return len(nodes(t, a, lock)) == 0 })
}

// (b) Curator's InterProcessReadWriteLock and zklock's RWMutex: readers of
// both share; a writer of either waits for the readers of the other, and
// readers of either wait for a writer of the other.
func TestInteropRWMutex(t *testing.T) {
	skipTraceCheck(t, "Curator's lock nodes belong to no traced client")
	track := newHoldTracker()
	j := startCurator(t, ensembletest.Require(t), track)
	a := admin(t)
	zr, zw := newClient(t, "zklock-reader"), newClient(t, "zklock-writer")
	lock := lockPath(t)
	rwR, err := NewRWMutex(zr.Session, lock)
	if err != nil {
		t.Fatal(err)
	}
	rwW, err := NewRWMutex(zw.Session, lock)
	if err != nil {
		t.Fatal(err)
	}
	ctx := ctxFor(t, 3*time.Minute)

	// Readers share across the two libraries: Curator, zklock, Curator.
	j.acquire(t, "r1", "read", lock)
	j.waitGranted(t, "r1")
	zR1 := mustGrant(t, "zklock RLock beside a Curator reader", zkLock(ctx, track, "zklock R1", "read", rwR.RLock))
	j.acquire(t, "r2", "read", lock)
	j.waitGranted(t, "r2")

	// A zklock writer waits for the readers; the zklock reader leaving is not
	// enough, nor is one Curator reader leaving.
	pW := zkLock(ctx, track, "zklock W", "write", rwW.Lock)
	zkQueued(t, zw, 1, pW)
	names := nodes(t, a, lock)
	if len(names) != 4 {
		t.Fatalf("nodes under %s: %v, want three readers and a writer", lock, names)
	}
	for _, n := range names {
		if !readNode.MatchString(n) && !writeNode.MatchString(n) {
			t.Errorf("node %q is neither a read nor a write node", n)
		}
	}
	checkName(t, "zklock reader", strings.TrimPrefix(zR1.Node(), lock+"/"), readNode)
	checkName(t, "Curator reader", strings.TrimPrefix(j.waitGranted(t, "r1"), lock+"/"), readNode)
	zkUnlock(t, ctx, track, "zklock R1", zR1)
	j.release(t, "r1")
	j.waitReleased(t, "r1")
	time.Sleep(waitGrace)
	if pW.returned() {
		t.Fatalf("zklock writer granted while Curator reader r2 holds: %v", pW.err)
	}
	j.release(t, "r2")
	w := mustGrant(t, "zklock writer after the Curator readers left", pW)
	checkName(t, "zklock writer", strings.TrimPrefix(w.Node(), lock+"/"), writeNode)

	// A Curator reader waits for the zklock writer.
	curatorQueued(t, j, a, "r3", "read", lock)
	zkUnlock(t, ctx, track, "zklock W", w)
	j.waitGranted(t, "r3")

	// A Curator writer waits for both a Curator and a zklock reader.
	zR2 := mustGrant(t, "zklock RLock beside Curator reader r3", zkLock(ctx, track, "zklock R2", "read", rwR.RLock))
	cw := curatorQueued(t, j, a, "w1", "write", lock)
	checkName(t, "Curator writer", cw, writeNode)
	j.release(t, "r3")
	j.waitReleased(t, "r3")
	time.Sleep(waitGrace)
	if j.isGranted("w1") {
		t.Fatal("Curator writer granted while zklock reader R2 holds")
	}
	zkUnlock(t, ctx, track, "zklock R2", zR2)
	j.waitGranted(t, "w1")

	// A zklock reader waits for the Curator writer.
	pR3 := zkLock(ctx, track, "zklock R3", "read", rwR.RLock)
	zkQueued(t, zr, 1, pR3)
	j.release(t, "w1")
	zkUnlock(t, ctx, track, "zklock R3", mustGrant(t, "zklock reader after the Curator writer left", pR3))
	j.waitReleased(t, "w1")

	track.check(t)
	eventually(t, "lock nodes gone", time.Minute, func() bool { return len(nodes(t, a, lock)) == 0 })
}

// TestInteropOverlapControl is the positive control of the overlap detector:
// zklock locks a path next to Curator's, which Curator does not see, and the
// tracker, told that both are the same lock, must report them holding together.
func TestInteropOverlapControl(t *testing.T) {
	track := newHoldTracker()
	j := startCurator(t, ensembletest.Require(t), track)
	zc := newClient(t, "zklock")
	lock := lockPath(t)
	m, err := NewMutex(zc.Session, lock+"-elsewhere") // the deliberate mistake
	if err != nil {
		t.Fatal(err)
	}
	ctx := ctxFor(t, time.Minute)
	j.acquire(t, "c1", "mutex", lock)
	j.waitGranted(t, "c1")
	lease, err := m.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	err = track.grant("zklock", "exclusive")
	if err == nil || !strings.Contains(err.Error(), "while curator c1 holds exclusive") {
		t.Fatalf("the overlap detector did not fire on a real overlap: %v", err)
	}
	t.Logf("detector fired as it should: %v", err)
	if err := lease.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	j.release(t, "c1")
	j.waitReleased(t, "c1")
}
