package zklock

import (
	"errors"
	"fmt"
	"math/rand"
	"path"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// RW test 1: eight readers hold at the same moment, each waiting inside its
// critical section until all eight are in.
func TestRWReadersShare(t *testing.T) {
	const n = 8
	lock := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	var inside sync.WaitGroup
	inside.Add(n)
	all := make(chan struct{})
	go func() { inside.Wait(); close(all) }()
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		rw, _ := NewRWMutex(newClient(t, fmt.Sprintf("r%d", i)).Session, lock)
		wg.Add(1)
		go func() {
			defer wg.Done()
			lease, err := rw.RLock(ctx)
			if err != nil {
				t.Errorf("RLock: %v", err)
				inside.Done()
				return
			}
			defer lease.Unlock(ctx)
			inside.Done()
			select {
			case <-all:
			case <-time.After(30 * time.Second):
				t.Errorf("reader %s held alone: readers do not share", lease.Node())
			}
		}()
	}
	wg.Wait()
}

// rwCheck is the invariant a read/write lock promises, checked inside
// every critical section: a writer is alone, readers only share.
type rwCheck struct {
	mu         sync.Mutex
	readers    int
	writer     bool
	violations []string
	ops        int
}

func (c *rwCheck) enter(write bool, who string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ops++
	if c.writer || (write && c.readers > 0) {
		c.violations = append(c.violations, fmt.Sprintf("%s entered with writer=%v readers=%d", who, c.writer, c.readers))
	}
	if write {
		c.writer = true
	} else {
		c.readers++
	}
}

func (c *rwCheck) exit(write bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if write {
		c.writer = false
	} else {
		c.readers--
	}
}

// RW test 2: 4 writers and 12 readers, 400 operations on one path; no
// writer ever beside anyone.
func TestRWWriterExclusion(t *testing.T) {
	const writers, readers, ops = 4, 12, 400
	lock := lockPath(t)
	ctx := ctxFor(t, 3*time.Minute)
	check := &rwCheck{}
	var wg sync.WaitGroup
	per := ops / (writers + readers)
	for i := 0; i < writers+readers; i++ {
		write := i < writers
		name := fmt.Sprintf("r%d", i)
		if write {
			name = fmt.Sprintf("w%d", i)
		}
		rw, _ := NewRWMutex(newClient(t, name).Session, lock)
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewSource(int64(i)))
			for j := 0; j < per; j++ {
				acquire := rw.RLock
				if write {
					acquire = rw.Lock
				}
				lease, err := acquire(ctx)
				if err != nil {
					t.Errorf("%s: %v", name, err)
					return
				}
				check.enter(write, name)
				time.Sleep(time.Duration(rng.Intn(500)) * time.Microsecond)
				check.exit(write)
				if err := lease.Unlock(ctx); err != nil {
					t.Errorf("%s: Unlock: %v", name, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if len(check.violations) > 0 {
		t.Fatalf("%d of %d critical sections broke writer exclusion, e.g. %s", len(check.violations), check.ops, check.violations[0])
	}
	if check.ops != per*(writers+readers) {
		t.Fatalf("%d operations, want %d", check.ops, per*(writers+readers))
	}
}

// RW test 3: a writer queued behind a reader goes before every reader that
// queues after it, while new readers keep arriving.
func TestRWNoWriterStarvation(t *testing.T) {
	lock := lockPath(t)
	ctx := ctxFor(t, 2*time.Minute)
	first, _ := NewRWMutex(newClient(t, "first").Session, lock)
	held, err := first.RLock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wc := newClient(t, "writer")
	w, _ := NewRWMutex(wc.Session, lock)
	pw := lockAsync(ctx, w.Lock)
	wc.trace.waitFor(t, "writer queued", time.Minute, waiting)

	var writerAt atomic.Int64 // when the writer acquired, unix ns
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var late atomic.Int32
	for i := 0; i < 4; i++ {
		rc := newClient(t, fmt.Sprintf("r%d", i))
		r, _ := NewRWMutex(rc.Session, lock)
		wg.Add(1)
		go func() { // a reader that keeps coming back
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				lease, err := r.RLock(ctx)
				if err != nil {
					t.Errorf("reader: %v", err)
					return
				}
				if writerAt.Load() == 0 {
					late.Add(1)
				}
				lease.Unlock(ctx)
			}
		}()
		rc.trace.waitFor(t, "late reader queued", time.Minute, waiting)
	}
	if err := held.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	lease, err := pw.wait(t, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	writerAt.Store(time.Now().UnixNano())
	time.Sleep(50 * time.Millisecond)
	lease.Unlock(ctx)
	time.Sleep(100 * time.Millisecond) // let the readers cycle a few times
	close(stop)
	wg.Wait()
	if n := late.Load(); n > 0 {
		t.Fatalf("%d readers that queued after the writer acquired before it", n)
	}
}

// RW test 4: a writer's release wakes exactly the readers waiting on it; the
// writer queued behind them stays asleep until the last of them goes.
func TestRWNoHerd(t *testing.T) {
	lock := lockPath(t)
	ctx := ctxFor(t, 2*time.Minute)
	w1c := newClient(t, "w1")
	w1, _ := NewRWMutex(w1c.Session, lock)
	held, err := w1.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	type queued struct {
		c *client
		p *pending
	}
	var q []queued
	for i, kind := range []string{"r", "r", "r", "w", "r", "r"} {
		c := newClient(t, fmt.Sprintf("%s%d", kind, i))
		rw, _ := NewRWMutex(c.Session, lock)
		acquire := rw.RLock
		if kind == "w" {
			acquire = rw.Lock
		}
		p := lockAsync(ctx, acquire)
		q = append(q, queued{c, p})
		// One granted while W1 holds the write lock fails at once, not
		// after the wait for its queueing times out.
		eventually(t, c.name+" queued", time.Minute, func() bool {
			if p.returned() {
				t.Fatalf("%s returned (%v) while w1 holds the write lock", c.name, p.err)
			}
			return c.trace.count(waiting) > 0
		})
	}
	notes := func() []int64 {
		out := make([]int64, len(q))
		for i, e := range q {
			out[i] = e.c.net.Stats().Notifications
		}
		return out
	}
	base := notes()
	// delta checks each waiter's notifications since base: want[i], or
	// one fewer where orNone[i] (a lease whose own watch was set at its
	// grant and released at once: Unlock does not wait for that watch, so
	// its own release may notify no one).
	delta := func(want []int64, orNone ...int) {
		t.Helper()
		got := notes()
		for i := range got {
			d := got[i] - base[i]
			if d != want[i] && (d != want[i]-1 || !slices.Contains(orNone, i)) {
				t.Fatalf("notifications per waiter %v, want %v (one fewer allowed at %v)", sub(got, base), want, orNone)
			}
		}
	}
	held.Unlock(ctx)
	var readers []*Lease
	for i := 0; i < 3; i++ {
		l, err := q[i].p.wait(t, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		readers = append(readers, l)
	}
	delta([]int64{1, 1, 1, 0, 0, 0})
	// The readers behind the only writer took the hand-off in one
	// notification, for which each also watches its own node: its own
	// release notifies it (not a wake-up). The writer behind the readers
	// does not (three nodes ahead), nor is it woken.
	readers[0].Unlock(ctx)
	readers[1].Unlock(ctx)
	time.Sleep(100 * time.Millisecond) // a herd would show up here
	delta([]int64{2, 2, 1, 0, 0, 0})
	if q[3].p.returned() {
		t.Fatal("the writer acquired while a reader still holds")
	}
	readers[2].Unlock(ctx)
	wl, err := q[3].p.wait(t, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	delta([]int64{2, 2, 2, 1, 0, 0})
	// Every lease watches its own node while held (ownwatch.go): the
	// writer's own release notifies it once (not a wake-up), if its watch,
	// set at the grant, was sent before the release.
	wl.Unlock(ctx)
	for i := 4; i < 6; i++ {
		l, err := q[i].p.wait(t, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		defer l.Unlock(ctx)
	}
	delta([]int64{2, 2, 2, 2, 1, 1}, 3)
}

func sub(a, b []int64) []int64 {
	out := make([]int64, len(a))
	for i := range a {
		out[i] = a[i] - b[i]
	}
	return out
}

// downgradeDelay is TestRWDowngrade's latency, each way, on W1's link:
// long beside a listing on the local ensemble, short beside the session.
const downgradeDelay = 500 * time.Millisecond

// RW test 5: W1 holds, R and W2 queue behind it; W1 downgrades. R acquires
// at once; W2 must not acquire until W1's read lease is released (Curator's
// CURATOR-621 let it in). The lease keeps its token and Done channel.
func TestRWDowngrade(t *testing.T) {
	for _, withReader := range []bool{true, false} {
		t.Run(fmt.Sprintf("reader-queued-%v", withReader), func(t *testing.T) {
			lock := lockPath(t)
			ctx := ctxFor(t, time.Minute)
			w1c, w2c := newClient(t, "w1"), newClient(t, "w2")
			w1, _ := NewRWMutex(w1c.Session, lock)
			w2, _ := NewRWMutex(w2c.Session, lock)
			lease, err := w1.Lock(ctx)
			if err != nil {
				t.Fatal(err)
			}
			token, done := lease.Token(), lease.Done()
			var pr *pending
			if withReader {
				rc := newClient(t, "r")
				r, _ := NewRWMutex(rc.Session, lock)
				pr = lockAsync(ctx, r.RLock)
				rc.trace.waitFor(t, "reader queued", time.Minute, waiting)
			}
			pw := lockAsync(ctx, w2.Lock)
			w2c.trace.waitFor(t, "w2 queued", time.Minute, waiting)
			oldSeq := seqOf(t, lease.Node())
			// W1's link is slow while it downgrades, so that a downgrade in
			// two requests (delete, then create) leaves W2 a whole round
			// trip to list a lock with nothing ahead of it; in one multi
			// there is no such moment however slow the link. Without the
			// delay the gap is a fraction of a millisecond and W2 lists
			// after it as often as not.
			w1c.net.Delay(downgradeDelay)
			err = lease.Downgrade(ctx)
			w1c.net.Delay(0)
			if err != nil {
				t.Fatal(err)
			}
			if lease.Mode() != ModeRead || lease.Token() != token || lease.Done() != done || lease.Err() != nil {
				t.Fatalf("after Downgrade: mode %s token %d (was %d) err %v", lease.Mode(), lease.Token(), token, lease.Err())
			}
			if seqOf(t, lease.Node()) != oldSeq {
				t.Fatalf("the read node %s did not keep the write node's place %d", lease.Node(), oldSeq)
			}
			if withReader {
				rl, err := pr.wait(t, time.Minute)
				if err != nil {
					t.Fatalf("the reader behind the downgraded writer: %v", err)
				}
				rl.Unlock(ctx)
			}
			// W2 is woken by the write node's deletion (and the reader's
			// release); it must end up waiting for our read node.
			// A w2 that holds fails the test at once, not after a minute.
			readNode := path.Base(lease.Node())
			deadline := time.After(time.Minute)
			for w2c.trace.count(func(ev TraceEvent) bool { return waiting(ev) && ev.Target == readNode }) == 0 {
				if pw.returned() {
					t.Fatalf("w2 acquired (%v) beside the downgraded read lease", pw.err)
				}
				select {
				case <-deadline:
					t.Fatalf("w2 never went to waiting for the downgraded lease; trace:\n%s", w2c.trace.dump())
				case <-time.After(10 * time.Millisecond):
				}
			}
			if pw.returned() {
				t.Fatalf("w2 acquired (%v) beside the downgraded read lease", pw.err)
			}
			if _, err := lease.Guard(ctx); err != nil {
				t.Fatalf("Guard on the downgraded lease: %v", err)
			}
			lease.Unlock(ctx)
			l2, err := pw.wait(t, time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			if l2.Token() <= token {
				t.Fatalf("w2's token %d not above %d", l2.Token(), token)
			}
			l2.Unlock(ctx)
		})
	}
}

// RW test 8: the read/write lock's own bad input.
func TestRWBadInput(t *testing.T) {
	lock := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	c := newClient(t, "c")
	rw, _ := NewRWMutex(c.Session, lock)
	r, err := rw.RLock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rw.Lock(ctx); !errorsIs(err, ErrWouldDeadlock) {
		t.Fatalf("write Lock while holding a read lease = %v, want ErrWouldDeadlock", err)
	}
	if _, err := rw.TryLock(ctx); !errorsIs(err, ErrWouldDeadlock) {
		t.Fatalf("TryLock while holding a read lease = %v, want ErrWouldDeadlock", err)
	}
	if err := r.Downgrade(ctx); !errorsIs(err, ErrNotWriteLease) {
		t.Fatalf("Downgrade of a read lease = %v, want ErrNotWriteLease", err)
	}
	if got := nodes(t, admin(t), lock); len(got) != 1 {
		t.Fatalf("nodes %v, want only the read lease's", got)
	}
	r.Unlock(ctx)
	if err := r.Unlock(ctx); !errorsIs(err, ErrNotHeld) {
		t.Fatalf("second Unlock = %v", err)
	}
	w, err := rw.Lock(ctx) // no read lease held any more
	if err != nil {
		t.Fatal(err)
	}
	w.Unlock(ctx)
	if err := w.Downgrade(ctx); !errorsIs(err, ErrNotHeld) {
		t.Fatalf("Downgrade after Unlock = %v, want ErrNotHeld", err)
	}
	m, _ := NewMutex(c.Session, lock+"-m")
	ml, _ := m.Lock(ctx)
	if err := ml.Downgrade(ctx); !errorsIs(err, ErrNotWriteLease) {
		t.Fatalf("Downgrade of a Mutex lease = %v", err)
	}
	ml.Unlock(ctx)
	var nrw *RWMutex
	if _, err := nrw.RLock(ctx); !errorsIs(err, ErrInvalidArgument) {
		t.Fatalf("nil RWMutex = %v", err)
	}
	if _, err := LockAll(ctx, m, m); !errorsIs(err, ErrInvalidArgument) {
		t.Fatalf("LockAll with a path twice = %v", err)
	}
	if _, err := LockAll(ctx, nrw); !errorsIs(err, ErrInvalidArgument) {
		t.Fatalf("LockAll with a nil locker = %v", err)
	}
	eventually(t, "nothing left", 5*time.Second, func() bool { return len(nodes(t, admin(t), lock)) == 0 })
}

// errorsIs is errors.Is; a short name keeps the table of checks readable.
var errorsIs = errors.Is
