package zklock

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklock/zklock/ensemble/ensembletest"
)

// LockAll orders and de-duplicates its locks by their path on the server,
// not by Path (relative to each session's chroot). Two callers, each with
// one session chrooted at root and one without chroot, lock root/a and
// root/b given in opposite orders, such that the relative paths sort them
// differently in the two calls. The first caller is held after its first
// lock until the second has a node at its own first lock: ordered by
// relative path, each then holds the lock the other waits for (a deadlock,
// seen as the context's deadline); ordered on the server, the second queues
// behind the first and both finish. The same lock through two chroots is
// refused as given twice, and two locks with equal relative paths under two
// different chroots are both taken.
func TestLockAllAcrossChroots(t *testing.T) {
	servers := ensembletest.Require(t)
	a := admin(t)
	ctx := ctxFor(t, 2*time.Minute)
	root := lockPath(t)
	for _, p := range []string{"/zklock-test", root, root + "/one", root + "/two"} {
		if _, err := a.Create(p, nil, 0, zk.WorldACL(zk.PermAll)); err != nil && !errors.Is(err, zk.ErrNodeExists) {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { deleteTree(a, root) })
	session := func(chroot string) *Session {
		t.Helper()
		in := append([]string(nil), servers...)
		in[len(in)-1] += chroot
		s, err := NewSession(ctx, in, WithSessionTimeout(longTimeout), timing())
		if err != nil {
			t.Fatalf("NewSession(chroot %q): %v", chroot, err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	mutex := func(s *Session, p string) *Mutex {
		t.Helper()
		m, err := NewMutex(s, p)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	x1, x2, y1, y2 := session(root), session(""), session(root), session("")

	xb, xa, yb, ya := mutex(x1, "/b"), mutex(x2, root+"/a"), mutex(y2, root+"/b"), mutex(y1, "/a")
	dupA, dupB := mutex(x1, "/c"), mutex(x2, root+"/c")
	one, two := mutex(session(root+"/one"), "/c"), mutex(session(root+"/two"), "/c")

	t.Run("opposite orders", func(t *testing.T) {
		bounded, cancel := context.WithTimeout(ctx, 15*time.Second)
		defer cancel()
		// Caller x's second Lock (x holds its first lock) starts caller y, and
		// waits until y has a node (held or queued) where y's first Lock went.
		xHolds := make(chan struct{})
		yFirst := make(chan *gatedMutex, 1)
		var yOnce sync.Once
		yEnter := func(g *gatedMutex) { yOnce.Do(func() { yFirst <- g }) }
		xCalls := 0
		xEnter := func(*gatedMutex) {
			if xCalls++; xCalls != 2 {
				return
			}
			close(xHolds)
			select {
			case g := <-yFirst:
				for bounded.Err() == nil && !ownsNode(a, g.core.path, g.core.s.ID()) {
					time.Sleep(20 * time.Millisecond)
				}
			case <-bounded.Done():
			}
		}
		xs := []Locker{&gatedMutex{xb, xEnter}, &gatedMutex{xa, xEnter}}
		ys := []Locker{&gatedMutex{yb, yEnter}, &gatedMutex{ya, yEnter}}
		xc := lockAllAsync(bounded, xs...)
		select {
		case <-xHolds:
		case <-xc.done:
			t.Fatalf("first LockAll returned before its second lock: %v", xc.err)
		}
		yc := lockAllAsync(bounded, ys...)
		<-xc.done
		if xc.err != nil {
			t.Fatalf("first LockAll: %v (a deadlock shows as the context's deadline)", xc.err)
		}
		if err := xc.ml.Unlock(ctx); err != nil {
			t.Fatal(err)
		}
		<-yc.done
		if yc.err != nil {
			t.Fatalf("second LockAll: %v", yc.err)
		}
		if err := yc.ml.Unlock(ctx); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("same lock through two chroots", func(t *testing.T) {
		short, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		ml, err := LockAll(short, dupA, dupB)
		if err == nil {
			ml.Unlock(ctx)
		}
		if !errors.Is(err, ErrInvalidArgument) {
			t.Fatalf("LockAll(/c under %s, %s/c) = %v, want ErrInvalidArgument (given twice)", root, root, err)
		}
	})
	t.Run("equal relative paths, different locks", func(t *testing.T) {
		ml, err := LockAll(ctx, one, two)
		if err != nil {
			t.Fatalf("LockAll(/c under %s/one, /c under %s/two) = %v, want both taken", root, root, err)
		}
		if err := ml.Unlock(ctx); err != nil {
			t.Fatal(err)
		}
	})
}

// gatedMutex is a Mutex (its path on the server included) that calls
// enter before each Lock.
type gatedMutex struct {
	*Mutex
	enter func(*gatedMutex)
}

func (g *gatedMutex) Lock(ctx context.Context) (*Lease, error) {
	g.enter(g)
	return g.Mutex.Lock(ctx)
}

// ownsNode says whether the session id has a node under the lock path on
// the server (it may run off the test's goroutine: it fails no test).
func ownsNode(a *adminClient, lock string, id int64) bool {
	names, _, _ := a.Children(lock)
	for _, n := range names {
		if _, st, err := a.Get(lock + "/" + n); err == nil && st.EphemeralOwner == id {
			return true
		}
	}
	return false
}
