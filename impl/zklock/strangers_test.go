package zklock

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklock/zklock/traceevent"
)

// Strangers in the lock path: anyone with write access to it can create
// children. What zklock promises (docs/GUARANTEES.md, "Strangers never make zklock grant twice"):
// a child whose name is not a lock marker (Curator's lock-, __READ__,
// __WRIT__; kazoo's __lock__, __rlock__) followed by ten digits is not a
// contender and is ignored by Lock, RLock
// and Contenders; a child whose name is one is a contender whoever made
// it, so a stranger's node that sorts ahead of us when we list is waited
// for until it goes, and Contenders shows it so that an operator can find
// it. A node named by hand with a low number after a waiter's last listing
// is overtaken by the hand-off (TestStrangerNamedLowAfterListing).
// Contenders returns full paths.

// strangerNames are children no zklock or Curator client makes.
var strangerNames = []string{
	"garbage",
	"lock-",               // Curator's mutex marker, no sequence
	"_c_not-a-uuid-lock-", // protected prefix, no sequence
	"lock-00000000x1",     // a letter among the digits
	"x+000000001",         // a sign before the digits
	"_c_0f8e8a7e-2b1c-4d3e-9f00-123456789abc-lease-",           // another recipe's marker, no sequence
	"_c_0f8e8a7e-2b1c-4d3e-9f00-123456789abc-lease-0000000000", // another recipe's marker with one
	"job-0000000001", // digits without a lock marker
	strings.Repeat("z", 200),
}

// createStrangers makes persistent children under lock, creating lock first.
func createStrangers(t *testing.T, a interface {
	Create(string, []byte, int32, []zk.ACL) (string, error)
}, lock string, names []string) {
	t.Helper()
	for _, p := range []string{path.Dir(lock), lock} {
		if _, err := a.Create(p, nil, 0, zk.WorldACL(zk.PermAll)); err != nil && !errors.Is(err, zk.ErrNodeExists) {
			t.Fatalf("create %s: %v", p, err)
		}
	}
	for _, n := range names {
		if _, err := a.Create(joinPath(lock, n), []byte("not a lock node"), 0, zk.WorldACL(zk.PermAll)); err != nil {
			t.Fatalf("create stranger %s: %v", n, err)
		}
	}
}

// TestStrangersAreNotContenders: children that are not contenders change
// nothing: Lock, RLock and TryLock are granted, Contenders does not list
// them, and we delete none of them.
func TestStrangersAreNotContenders(t *testing.T) {
	skipTraceCheck(t, "strangers' children appear in listings the model does not make")
	a := admin(t)
	c := newClient(t, "c")
	for _, rw := range []bool{false, true} {
		lock := lockPath(t)
		createStrangers(t, a, lock, strangerNames)
		ctx := ctxFor(t, 30*time.Second)
		var locker Locker
		var contenders func() ([]string, error)
		if rw {
			m, err := NewRWMutex(c.Session, lock)
			if err != nil {
				t.Fatal(err)
			}
			locker = m.RLocker()
			contenders = func() ([]string, error) { return m.Contenders(ctx) }
		} else {
			m, err := NewMutex(c.Session, lock)
			if err != nil {
				t.Fatal(err)
			}
			locker = m
			contenders = func() ([]string, error) { return m.Contenders(ctx) }
		}
		lease, err := locker.Lock(ctx)
		if err != nil {
			t.Fatalf("rw=%v: Lock beside strangers: %v", rw, err)
		}
		names, err := contenders()
		if err != nil || len(names) != 1 {
			t.Fatalf("rw=%v: Contenders = %q, %v; want our node only", rw, names, err)
		}
		if err := lease.Unlock(ctx); err != nil {
			t.Fatal(err)
		}
		// The admin session may read from a follower that has not applied
		// the delete yet: wait for it.
		want := slices.Clone(strangerNames)
		slices.Sort(want)
		eventually(t, "only the strangers left after Unlock", 10*time.Second, func() bool {
			left := nodes(t, a, lock)
			slices.Sort(left)
			return slices.Equal(left, want)
		})
	}
}

// TestManyStrangers: 10,000 foreign children that are not contenders do
// not stop a lock from being granted, nor show up in Contenders.
func TestManyStrangers(t *testing.T) {
	if testing.Short() {
		t.Skip("creates 10,000 nodes")
	}
	skipTraceCheck(t, "strangers' children appear in listings the model does not make")
	a := admin(t)
	lock := lockPath(t)
	createStrangers(t, a, lock, nil)
	const n, batch = 10000, 500
	for i := 0; i < n; i += batch {
		var ops []any
		for j := i; j < i+batch; j++ {
			ops = append(ops, &zk.CreateRequest{Path: joinPath(lock, fmt.Sprintf("stranger-%05d", j)),
				Acl: zk.WorldACL(zk.PermAll)})
		}
		if _, err := a.Multi(ops...); err != nil {
			t.Fatalf("creating strangers %d..%d: %v", i, i+batch, err)
		}
	}
	c := newClient(t, "c")
	m, err := NewMutex(c.Session, lock)
	if err != nil {
		t.Fatal(err)
	}
	ctx := ctxFor(t, time.Minute)
	start := time.Now()
	lease, err := m.Lock(ctx)
	if err != nil {
		t.Fatalf("Lock beside %d strangers: %v", n, err)
	}
	t.Logf("granted beside %d strangers in %v", n, time.Since(start).Round(time.Millisecond))
	if names, err := m.Contenders(ctx); err != nil || len(names) != 1 {
		t.Errorf("Contenders = %d names, %v; want our node only", len(names), err)
	}
	if err := lease.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	eventually(t, "only the strangers left after Unlock", 10*time.Second, func() bool { return len(nodes(t, a, lock)) == n })
}

// TestStrangerThatLooksLikeAContender: a persistent child named like a
// contender and sorting first blocks the queue, as any holder would: Lock
// waits for it (its context ends, and it leaves nothing behind), TryLock
// says ErrLocked, Contenders lists it first; once it is deleted the lock is
// granted. A stranger sorting after us does not block.
func TestStrangerThatLooksLikeAContender(t *testing.T) {
	skipTraceCheck(t, "a stranger's node that the model never created is in the queue")
	a := admin(t)
	lock := lockPath(t)
	first, behind := "lock-0000000000", "lock-9999999999"
	createStrangers(t, a, lock, []string{first, behind})
	c := newClient(t, "c")
	m, err := NewMutex(c.Session, lock)
	if err != nil {
		t.Fatal(err)
	}
	ctx := ctxFor(t, time.Minute)
	if _, err := m.TryLock(ctx); !errors.Is(err, ErrLocked) {
		t.Fatalf("TryLock behind a contender-named stranger: %v, want ErrLocked", err)
	}
	short := ctxFor(t, 2*time.Second)
	if lease, err := m.Lock(short); err == nil {
		lease.Unlock(ctx)
		t.Fatal("Lock was granted while a stranger's contender node sorts first")
	} else if !errors.Is(err, short.Err()) {
		t.Fatalf("Lock behind the stranger: %v, want the context's error", err)
	}
	eventually(t, "our cancelled node deleted", 10*time.Second, func() bool { return len(nodes(t, a, lock)) == 2 })
	p := lockAsync(ctx, m.Lock)
	c.trace.waitCount(t, "waiting behind the stranger (the cancelled Lock waited once already)", 20*time.Second, 2, waiting)
	names, err := m.Contenders(ctx)
	if err != nil || len(names) != 3 || path.Base(names[0]) != first || path.Base(names[2]) != behind {
		t.Fatalf("Contenders = %q, %v; want the stranger %s first, then us, then %s", names, err, first, behind)
	}
	if p.returned() {
		t.Fatal("Lock returned while the stranger sorts first")
	}
	if err := a.Delete(joinPath(lock, first), -1); err != nil {
		t.Fatal(err)
	}
	lease, err := p.wait(t, 20*time.Second)
	if err != nil {
		t.Fatalf("Lock after the stranger went: %v", err)
	}
	if err := lease.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	eventually(t, "only the stranger behind us left", 10*time.Second, func() bool {
		left := nodes(t, a, lock)
		return len(left) == 1 && left[0] == behind
	})
}

// TestLockPathOwnedByOperator: the lock path exists already, a persistent
// node with data and an ACL that lets everyone read, create and delete
// children but not change it. Locks work on it, and neither Unlock nor
// Close deletes or changes it.
func TestLockPathOwnedByOperator(t *testing.T) {
	a := admin(t)
	lock := lockPath(t)
	if _, err := a.Create(path.Dir(lock), nil, 0, zk.WorldACL(zk.PermAll)); err != nil && !errors.Is(err, zk.ErrNodeExists) {
		t.Fatal(err)
	}
	data := []byte("owned by the operator")
	if _, err := a.Create(lock, data, 0, zk.WorldACL(zk.PermRead|zk.PermCreate|zk.PermDelete)); err != nil {
		t.Fatal(err)
	}
	c := newClient(t, "c")
	m, err := NewMutex(c.Session, lock)
	if err != nil {
		t.Fatal(err)
	}
	ctx := ctxFor(t, 30*time.Second)
	for i := 0; i < 3; i++ {
		lease, err := m.Lock(ctx)
		if err != nil {
			t.Fatalf("Lock %d on an operator's lock path: %v", i, err)
		}
		if err := lease.Unlock(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := m.Lock(ctx); err != nil {
		t.Fatal(err)
	}
	c.Close()
	got, st, err := a.Get(lock)
	if err != nil || string(got) != string(data) || st.Version != 0 {
		t.Fatalf("the operator's lock path after Close: %q (version %v), %v", got, st, err)
	}
	eventually(t, "the closed session's node deleted", 20*time.Second, func() bool { return len(nodes(t, a, lock)) == 0 })
}

// TestStrangerNamedLowAfterListing pins what a contender-named stranger
// created while we wait can do. ZooKeeper numbers a sequential child by
// its parent's child-change counter, which only grows: a node anyone
// creates with the sequence flag after ours sorts after ours. Only a node
// named by hand (no sequence flag) with a lower number, here
// lock-0000000000, can sort ahead of a node created before it. A waiter
// whose last listing showed one node ahead takes that node's deletion as
// its grant without listing again (the one-notification hand-off), so
// such a node made after that listing is overtaken; a waiter that lists
// after it appeared waits for it like a holder. It is not a contender of
// any zklock or Curator client (they create sequential nodes only).
func TestStrangerNamedLowAfterListing(t *testing.T) {
	skipTraceCheck(t, "a stranger's node that the model never created is in the queue")
	a := admin(t)
	lock := lockPath(t)
	createStrangers(t, a, lock, []string{"bump"})
	t.Cleanup(func() { deleteTree(a, lock) })
	// Two child changes: our nodes' numbers start at 2, above the stranger's 0.
	if err := a.Delete(joinPath(lock, "bump"), -1); err != nil {
		t.Fatal(err)
	}
	ctx := ctxFor(t, time.Minute)
	mutex := func(name string) (*client, *Mutex) {
		c := newClient(t, name)
		m, err := NewMutex(c.Session, lock)
		if err != nil {
			t.Fatal(err)
		}
		return c, m
	}
	_, mh := mutex("holder")
	held, err := mh.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	w, mw := mutex("waiter")
	pw := lockAsync(ctx, mw.Lock)
	w.trace.waitFor(t, "the waiter behind the holder", 20*time.Second, waiting)
	const low = "lock-0000000000"
	if _, err := a.Create(joinPath(lock, low), nil, 0, zk.WorldACL(zk.PermAll)); err != nil {
		t.Fatal(err)
	}
	seqd, err := a.Create(joinPath(lock, "lock-"), nil, zk.FlagSequence, zk.WorldACL(zk.PermAll))
	if err != nil {
		t.Fatal(err)
	}
	if err := held.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	lease, err := pw.wait(t, 20*time.Second)
	if err != nil {
		t.Fatalf("the waiter at the hand-off: %v, want granted (it lists no more)", err)
	}
	if w.trace.count(action(traceevent.GrantOnHeadGone)) != 1 {
		t.Fatalf("the waiter was granted without the hand-off; trace:\n%s", w.trace.dump())
	}
	if seqOf(t, seqd) <= seqOf(t, lease.Node()) {
		t.Fatalf("a sequential node made after ours, %s, sorts ahead of ours, %s", seqd, lease.Node())
	}
	if err := a.Delete(seqd, -1); err != nil {
		t.Fatal(err)
	}
	// Contenders reads the waiter's server unsynced: the admin's delete,
	// made through another server, may not have reached it yet.
	if _, err := w.Conn().Sync("/"); err != nil {
		t.Fatal(err)
	}
	if names, err := mw.Contenders(ctx); err != nil || len(names) != 2 || path.Base(names[0]) != low {
		t.Fatalf("Contenders = %q, %v; want the stranger %s first, then our lease", names, err, low)
	}

	// A waiter that lists with the stranger there waits for it.
	l, ml := mutex("later")
	pl := lockAsync(ctx, ml.Lock)
	l.trace.waitFor(t, "the later waiter behind our lease", 20*time.Second, waiting)
	if err := lease.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	l.trace.waitFor(t, "the later waiter waiting for the stranger", 20*time.Second, func(ev TraceEvent) bool {
		return ev.Action == traceevent.ListChildren && ev.Result == traceevent.ResultWait && ev.Target == low
	})
	if pl.returned() {
		t.Fatal("Lock returned while the stranger sorts first")
	}
	if err := a.Delete(joinPath(lock, low), -1); err != nil {
		t.Fatal(err)
	}
	later, err := pl.wait(t, 20*time.Second)
	if err != nil {
		t.Fatalf("Lock after the stranger went: %v", err)
	}
	if err := later.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
}
