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
	"context"
	"os"
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
