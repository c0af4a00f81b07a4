package zklock

import (
	"errors"
	"path"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
)

// Two promises of the semaphore, each with a mutant that breaks it
// (cmd/mutants/mutants_semaphore_promises.go).

// TestSemaphoreDropsOwnDuplicate: a lease node of ours beside the one we
// wait with (what a lost create made again leaves: here an operator makes
// it, with our node's name prefix) is deleted by our next listing, and no
// longer counts against max: once the holder releases, we hold.
func TestSemaphoreDropsOwnDuplicate(t *testing.T) {
	skipTraceCheck(t, "an operator makes the duplicate lease node: a step outside the model")
	p := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	a := admin(t)
	held, pw, ev := semHeldAndWaiting(t, ctx, p)
	prefix := strings.TrimRight(ev.Node, "0123456789")
	if !strings.HasPrefix(prefix, protectedPrefix) || !strings.HasSuffix(prefix, leaseMarker) {
		t.Fatalf("the waiter's node %q has no protected lease prefix", ev.Node)
	}
	// Persistent: only the acquirer's deletion removes it.
	dup, err := a.Create(p+semLeases+"/"+prefix, nil, zk.FlagSequence, zk.WorldACL(zk.PermAll))
	if err != nil {
		t.Fatal(err)
	}
	eventually(t, "the duplicate lease node deleted by its owner", 10*time.Second, func() bool {
		ok, _, err := a.Exists(dup)
		return err == nil && !ok
	})
	if pw.returned() {
		t.Fatal("the waiter returned while the holder still holds")
	}
	if err := held.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	l, err := pw.wait(t, 30*time.Second)
	if err != nil {
		t.Fatalf("Acquire after the holder's release: %v", err)
	}
	if path.Base(l.Node()) != ev.Node {
		t.Fatalf("holding with %s, want the node we waited with, %s", path.Base(l.Node()), ev.Node)
	}
	l.Unlock(ctx)
	semEmpty(t, a, p)
}

// TestSemaphoreTryAcquireSkipsInternalWait: while an acquirer waits at max
// holding the internal mutex, TryAcquire does not queue on that mutex: it
// returns ErrLocked while the other still waits, leaving no node.
func TestSemaphoreTryAcquireSkipsInternalWait(t *testing.T) {
	p := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	a := admin(t)
	held, pw, ev := semHeldAndWaiting(t, ctx, p)
	_, mt := newSem(t, "try", p, 1)
	pt := lockAsync(ctx, mt.TryAcquire)
	if _, err := pt.wait(t, 10*time.Second); !errors.Is(err, ErrLocked) {
		t.Fatalf("TryAcquire while another waits in the internal mutex = %v, want ErrLocked", err)
	}
	if pw.returned() {
		t.Fatal("the waiter returned, though the holder still holds")
	}
	// Nothing of the try's is left: the holder's lease and the waiter's,
	// and the waiter's node in the internal mutex.
	eventually(t, "no node of the try left", 10*time.Second, func() bool {
		leases, locks := semNodes(t, a, p)
		slices.Sort(leases)
		want := []string{path.Base(held.Node()), ev.Node}
		slices.Sort(want)
		return slices.Equal(leases, want) && len(locks) == 1
	})
	if err := held.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	l, err := pw.wait(t, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	l.Unlock(ctx)
	semEmpty(t, a, p)
}
