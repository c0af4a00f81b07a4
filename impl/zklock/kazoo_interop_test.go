package zklock

// Interoperability with kazoo, the Python client (its Lock, ReadLock and
// WriteLock recipes): Go and Python processes contend on one lock path and
// never hold it together. The Python side is testdata/kazoo_holder.py, which
// speaks the Curator harness's hold protocol, run by the kazoo pinned in
// testdata/kazoo-requirements.txt, installed into .cache/kazoo-venv by
// `make setup` or, failing that, by the first test that needs it. The
// holder passes Curator's markers to kazoo as extra_lock_patterns, so that
// kazoo counts zklock's nodes as zklock counts kazoo's.
//
// As in interop_test.go, every step waits for a grant that must happen,
// and every grant on either side is checked against every holder not yet
// told to release (holdTracker); the mutant ignore-kazoo-nodes (zklock's
// parser drops kazoo's names) is a grant beside a kazoo holder, which
// these tests catch.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zklock/zklock/ensemble/ensembletest"
	"github.com/zklock/zklock/internal/mavenjars"
)

var kazooOnce struct {
	sync.Once
	python string
	err    error
}

// kazooPython returns the python of the venv that has the pinned kazoo,
// making it first if it is missing or holds another pin. Without python3
// or PyPI it skips, except under CI, where it fails: CI must run these.
func kazooPython(t *testing.T) string {
	t.Helper()
	ensembletest.Require(t) // skips under -short
	ci := os.Getenv("CI") != ""
	if os.Getenv("ZKLOCK_SKIP_INTEROP") != "" && !ci {
		t.Skip("ZKLOCK_SKIP_INTEROP is set")
	}
	kazooOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		kazooOnce.python, kazooOnce.err = kazooVenv(ctx, t)
	})
	if kazooOnce.err != nil {
		if ci {
			t.Fatalf("kazoo interop: %v (make setup installs it)", kazooOnce.err)
		}
		t.Skipf("kazoo interop needs python3 with venv and pip, and PyPI: %v (make setup installs it)", kazooOnce.err)
	}
	return kazooOnce.python
}

// kazooVenv makes .cache/kazoo-venv with the pinned requirements unless it
// already has exactly them (the copy of the requirements it keeps).
func kazooVenv(ctx context.Context, t *testing.T) (string, error) {
	req, err := filepath.Abs(filepath.Join("testdata", "kazoo-requirements.txt"))
	if err != nil {
		return "", err
	}
	want, err := os.ReadFile(req)
	if err != nil {
		return "", err
	}
	dir, err := mavenjars.CacheDir("ZKLOCK_KAZOO_VENV", "kazoo-venv")
	if err != nil {
		return "", err
	}
	python, stamp := filepath.Join(dir, "bin", "python"), filepath.Join(dir, "requirements.txt")
	if have, err := os.ReadFile(stamp); err == nil && bytes.Equal(have, want) {
		if _, err := os.Stat(python); err == nil {
			return python, nil
		}
	}
	run := func(name string, args ...string) error {
		cmd := exec.CommandContext(ctx, name, args...)
		cmd.Stdout, cmd.Stderr = testWriter{t}, testWriter{t}
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("%s %s: %w", name, strings.Join(args, " "), err)
		}
		return nil
	}
	// Made beside dir and renamed into place, so that test binaries of two
	// packages or server versions set up at once never see half a venv (a
	// venv's python finds its packages relative to itself: it may move).
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), filepath.Base(dir)+".new-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	if err := run("python3", "-m", "venv", tmp); err != nil {
		return "", err
	}
	if err := run(filepath.Join(tmp, "bin", "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
		"--require-hashes", "--only-binary", ":all:", "-r", req); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(tmp, "requirements.txt"), want, 0o644); err != nil {
		return "", err
	}
	// Only a venv is replaced (ZKLOCK_KAZOO_VENV may name any folder).
	if _, err := os.Stat(filepath.Join(dir, "pyvenv.cfg")); err == nil {
		if err := os.RemoveAll(dir); err != nil {
			return "", err
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		if have, rerr := os.ReadFile(stamp); rerr == nil && bytes.Equal(have, want) {
			return python, nil // another test binary made it first
		}
		return "", err
	}
	return python, nil
}

// startKazoo starts testdata/kazoo_holder.py on servers, one kazoo session
// for all its contenders.
func startKazoo(t *testing.T, servers []string, track *holdTracker) *javaHolder {
	t.Helper()
	python := kazooPython(t)
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, python, filepath.Join("testdata", "kazoo_holder.py"),
		strings.Join(servers, ","), fmt.Sprint(longTimeout.Seconds()))
	return startHolder(t, "kazoo", cmd, cancel, track)
}

// mustBeLocked fails unless try returns ErrLocked.
func mustBeLocked(t *testing.T, ctx context.Context, what string, try func(context.Context) (*Lease, error)) {
	t.Helper()
	l, err := try(ctx)
	if !errors.Is(err, ErrLocked) {
		if err == nil {
			l.Unlock(ctx)
		}
		t.Fatalf("%s = %v, want ErrLocked", what, err)
	}
}

// TestKazooInteropMutex: kazoo's Lock and zklock's Mutex exclude each
// other, both ways: TryLock beside a kazoo holder is ErrLocked, Lock waits
// for it, and kazoo waits for a zklock holder.
func TestKazooInteropMutex(t *testing.T) {
	skipTraceCheck(t, "kazoo's lock nodes belong to no traced client")
	track := newHoldTracker()
	k := startKazoo(t, ensembletest.Require(t), track)
	a := admin(t)
	zc := newClient(t, "zklock")
	lock := lockPath(t)
	m, err := NewMutex(zc.Session, lock)
	if err != nil {
		t.Fatal(err)
	}
	ctx := ctxFor(t, 3*time.Minute)

	// kazoo holds: TryLock is refused, Lock queues and waits.
	k.acquire(t, "k1", "lock", lock)
	kNode := k.waitGranted(t, "k1")
	if n := strings.TrimPrefix(kNode, lock+"/"); !strings.Contains(n, kazooLockMarker) {
		t.Fatalf("kazoo's node %q has no %s marker", n, kazooLockMarker)
	}
	mustBeLocked(t, ctx, "TryLock beside a kazoo Lock", m.TryLock)
	p := zkLock(ctx, track, "zklock", "exclusive", m.Lock)
	zkQueued(t, zc, 1, p)
	k.release(t, "k1")
	lease := mustGrant(t, "zklock Lock after kazoo's release", p)
	k.waitReleased(t, "k1")

	// zklock holds: kazoo queues behind it and waits.
	queued := curatorQueued(t, k, a, "k2", "lock", lock)
	if seqOf(t, queued) <= seqOf(t, lease.Node()) {
		t.Errorf("kazoo's node %s is not behind zklock's %s", queued, lease.Node())
	}
	zkUnlock(t, ctx, track, "zklock", lease)
	if got := k.waitGranted(t, "k2"); got != lock+"/"+queued {
		t.Errorf("kazoo granted %s, queued as %s", got, queued)
	}
	mustBeLocked(t, ctx, "TryLock beside a kazoo Lock that waited for us", m.TryLock)
	k.release(t, "k2")
	k.waitReleased(t, "k2")

	track.check(t)
	eventually(t, "lock nodes gone", time.Minute, func() bool { return len(nodes(t, a, lock)) == 0 })
}

// TestKazooInteropRWMutex: kazoo's ReadLock shares with zklock's RLock;
// kazoo's WriteLock waits for a zklock reader and zklock's readers wait
// for a kazoo writer; a kazoo reader waits for a zklock writer.
func TestKazooInteropRWMutex(t *testing.T) {
	skipTraceCheck(t, "kazoo's lock nodes belong to no traced client")
	track := newHoldTracker()
	k := startKazoo(t, ensembletest.Require(t), track)
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

	// Readers share: kazoo, then zklock. A writer of either side is refused
	// or waits for both.
	k.acquire(t, "r1", "read", lock)
	k.waitGranted(t, "r1")
	mustBeLocked(t, ctx, "zklock TryLock beside a kazoo ReadLock alone", rwW.TryLock)
	zR1 := mustGrant(t, "zklock RLock beside a kazoo ReadLock", zkLock(ctx, track, "zklock R1", "read", rwR.RLock))
	mustBeLocked(t, ctx, "zklock TryLock beside a kazoo and a zklock reader", rwW.TryLock)
	curatorQueued(t, k, a, "w1", "write", lock)
	k.release(t, "r1")
	k.waitReleased(t, "r1")
	time.Sleep(waitGrace)
	if k.isGranted("w1") {
		t.Fatal("kazoo WriteLock granted while zklock reader R1 holds")
	}
	zkUnlock(t, ctx, track, "zklock R1", zR1)
	k.waitGranted(t, "w1")

	// The kazoo writer holds: zklock's readers are refused or wait.
	mustBeLocked(t, ctx, "zklock TryRLock beside a kazoo WriteLock", rwR.TryRLock)
	pR2 := zkLock(ctx, track, "zklock R2", "read", rwR.RLock)
	zkQueued(t, zr, 1, pR2)
	k.release(t, "w1")
	zR2 := mustGrant(t, "zklock RLock after the kazoo writer left", pR2)
	k.waitReleased(t, "w1")
	zkUnlock(t, ctx, track, "zklock R2", zR2)

	// A zklock writer holds: a kazoo reader waits for it.
	zW := mustGrant(t, "zklock Lock on a free path", zkLock(ctx, track, "zklock W", "write", rwW.Lock))
	curatorQueued(t, k, a, "r2", "read", lock)
	zkUnlock(t, ctx, track, "zklock W", zW)
	k.waitGranted(t, "r2")
	k.release(t, "r2")
	k.waitReleased(t, "r2")

	track.check(t)
	eventually(t, "lock nodes gone", time.Minute, func() bool { return len(nodes(t, a, lock)) == 0 })
}
