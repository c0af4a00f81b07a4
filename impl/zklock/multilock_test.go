package zklock

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// RW test 7: two clients lock {a,b,c} and {c,b,a} 200 times each: the
// canonical order keeps them out of deadlock. A failure on the third lock
// releases the first two.
func TestLockAll(t *testing.T) {
	base := lockPath(t)
	ctx := ctxFor(t, 3*time.Minute)
	lockers := func(c *client, paths ...string) []Locker {
		var out []Locker
		for i, p := range paths {
			if i%2 == 0 {
				m, _ := NewMutex(c.Session, base+"/"+p)
				out = append(out, m)
			} else {
				rw, _ := NewRWMutex(c.Session, base+"/"+p)
				out = append(out, rw)
			}
		}
		return out
	}
	c1, c2 := newClient(t, "abc"), newClient(t, "cba")
	sets := [][]Locker{lockers(c1, "a", "b", "c"), lockers(c2, "c", "b", "a")}
	errs := make(chan error, 2)
	for _, set := range sets {
		go func() {
			for i := 0; i < 200; i++ {
				ml, err := LockAll(ctx, set...)
				if err != nil {
					errs <- err
					return
				}
				tokens := ml.Tokens()
				if len(tokens) != 3 || ml.Err() != nil {
					errs <- errors.New("a multi-lease without three live parts")
					return
				}
				if err := ml.Unlock(ctx); err != nil {
					errs <- err
					return
				}
				select {
				case <-ml.Done():
				case <-time.After(time.Second):
					errs <- errors.New("multi-lease Done not closed by Unlock")
					return
				}
			}
			errs <- nil
		}()
	}
	for range sets {
		if err := <-errs; err != nil {
			t.Fatalf("LockAll: %v (a deadlock shows as the context's deadline)", err)
		}
	}

	t.Run("third fails", func(t *testing.T) {
		blocker := newClient(t, "blocker")
		mz, _ := NewMutex(blocker.Session, base+"/z")
		held, err := mz.Lock(ctx)
		if err != nil {
			t.Fatal(err)
		}
		defer held.Unlock(ctx)
		c := newClient(t, "c")
		ma, _ := NewMutex(c.Session, base+"/x")
		mb, _ := NewRWMutex(c.Session, base+"/y")
		mzc, _ := NewMutex(c.Session, base+"/z")
		short, cancel := context.WithTimeout(ctx, time.Second)
		defer cancel()
		if _, err := LockAll(short, mzc, mb.RLocker(), ma); !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("LockAll with the third lock held elsewhere = %v", err)
		}
		a := admin(t)
		eventually(t, "the first two released", 5*time.Second, func() bool {
			return len(nodes(t, a, base+"/x")) == 0 && len(nodes(t, a, base+"/y")) == 0 && len(nodes(t, a, base+"/z")) == 1
		})
	})
	t.Run("lost part", func(t *testing.T) {
		c := newClient(t, "lost")
		ma, _ := NewMutex(c.Session, base+"/p")
		mb, _ := NewMutex(c.Session, base+"/q")
		ml, err := LockAll(ctx, ma, mb)
		if err != nil {
			t.Fatal(err)
		}
		c.Close()
		select {
		case <-ml.Done():
		case <-time.After(5 * time.Second):
			t.Fatal("multi-lease Done not closed when its session closed")
		}
		if !errors.Is(ml.Err(), ErrLockLost) {
			t.Fatalf("multi-lease Err = %v", ml.Err())
		}
	})
}

// LockAll takes its locks in lock-path order, whatever order they are
// given in: the one order that keeps two callers from each holding a lock
// the other waits for. When a lock fails it takes none after it.
func TestLockAllLocksInPathOrder(t *testing.T) {
	var order []string
	fail := errors.New("refused")
	lk := func(p string) Locker { return &orderLocker{path: p, order: &order, fail: p == "/c", err: fail} }
	if _, err := LockAll(context.Background(), lk("/c"), lk("/a"), lk("/b")); !errors.Is(err, fail) {
		t.Fatalf("LockAll = %v, want the last lock's error", err)
	}
	if got := strings.Join(order, " "); got != "/a /b /c" {
		t.Fatalf("locked %s, want /a /b /c", got)
	}
}

// orderLocker records when it is locked; its lease is nil, which LockAll
// only hands to Unlock (ErrInvalidArgument) when a later lock fails.
type orderLocker struct {
	path  string
	order *[]string
	fail  bool
	err   error
}

func (o *orderLocker) Lock(context.Context) (*Lease, error) {
	*o.order = append(*o.order, o.path)
	if o.fail {
		return nil, o.err
	}
	return nil, nil
}

func (o *orderLocker) Path() string { return o.path }

// lockAllAsync runs LockAll on its own goroutine.
type lockAllCall struct {
	ml   *MultiLease
	err  error
	done chan struct{}
}

func lockAllAsync(ctx context.Context, lockers ...Locker) *lockAllCall {
	p := &lockAllCall{done: make(chan struct{})}
	go func() {
		p.ml, p.err = LockAll(ctx, lockers...)
		close(p.done)
	}()
	return p
}

// The parts of a LockAll may live in different sessions. When the session
// of a part it took ends while it waits for a later part, LockAll stops
// waiting, releases what it took and says which part was lost
// (spec/tla/LockAll.tla: the rule "ignored", which kept waiting and could
// return a MultiLease with that part ended, fails AllOrNothing).
func TestLockAllPartLostWhileWaiting(t *testing.T) {
	base := lockPath(t)
	ctx := ctxFor(t, 2*time.Minute)
	blocker := newClient(t, "blocker")
	mbBlock, _ := NewMutex(blocker.Session, base+"/b")
	held, err := mbBlock.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Unlock(ctx)
	ca, cb := newClient(t, "part-a"), newClient(t, "part-b")
	ma, _ := NewMutex(ca.Session, base+"/a")
	mb, _ := NewMutex(cb.Session, base+"/b")
	// The deadline only bounds the wait of a LockAll that does not notice
	// (it would wait for b as long as the blocker holds it, then return
	// the deadline's error).
	callCtx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	call := lockAllAsync(callCtx, mb, ma)
	a := admin(t)
	eventually(t, "LockAll holding a and waiting for b", 30*time.Second, func() bool {
		return len(nodes(t, a, base+"/a")) == 1 && len(nodes(t, a, base+"/b")) == 2
	})
	ca.Close() // a's lease ends with its session
	<-call.done
	if call.ml != nil || !errors.Is(call.err, ErrLockLost) || !errors.Is(call.err, ErrClosed) {
		t.Fatalf("LockAll after a's session closed = %v, %v; want a's loss (ErrLockLost, ErrClosed)", call.ml, call.err)
	}
	eventually(t, "LockAll's node for b gone, the blocker's kept", 10*time.Second, func() bool {
		return len(nodes(t, a, base+"/a")) == 0 && len(nodes(t, a, base+"/b")) == 1
	})
	if held.Err() != nil {
		t.Fatalf("the blocker's lease ended: %v", held.Err())
	}
}

// endsBefore is a Locker that runs before, then takes its lock ignoring
// the end of LockAll's context: it makes the race in which a part taken
// earlier ends just as the last part is granted.
type endsBefore struct {
	Locker
	before func()
}

func (e endsBefore) Lock(ctx context.Context) (*Lease, error) {
	e.before()
	return e.Locker.Lock(context.WithoutCancel(ctx))
}

// A part that ends while the last part is granted: LockAll checks every
// part after the last grant, releases them all and fails
// (spec/tla/LockAll.tla: the rule "watched", without that check, fails
// AllOrNothing).
func TestLockAllPartEndsAtLastGrant(t *testing.T) {
	base := lockPath(t)
	ctx := ctxFor(t, 2*time.Minute)
	ca, cb := newClient(t, "part-a"), newClient(t, "part-b")
	ma, _ := NewMutex(ca.Session, base+"/a")
	mb, _ := NewMutex(cb.Session, base+"/b")
	ml, err := LockAll(ctx, endsBefore{Locker: mb, before: func() { ca.Close() }}, ma)
	if ml != nil || !errors.Is(err, ErrLockLost) || !errors.Is(err, ErrClosed) {
		t.Fatalf("LockAll with a's session closed before b's grant = %v, %v; want a's loss (ErrLockLost, ErrClosed)", ml, err)
	}
	a := admin(t)
	eventually(t, "both parts released", 10*time.Second, func() bool {
		return len(nodes(t, a, base+"/a")) == 0 && len(nodes(t, a, base+"/b")) == 0
	})
}
