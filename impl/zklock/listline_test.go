package zklock

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zklock/zklock/faultinject"
	"github.com/zklock/zklock/traceevent"
)

// countListings counts the listings and creates c's session sends from
// now on.
func countListings(t *testing.T, c *client) (lists, creates *atomic.Int64) {
	lists, creates = new(atomic.Int64), new(atomic.Int64)
	c.net.OnRequest(func(op faultinject.Op, _ []byte) {
		switch op {
		case faultinject.OpGetChildren, faultinject.OpGetChildren2:
			lists.Add(1)
		case faultinject.OpCreate, faultinject.OpCreate2:
			creates.Add(1)
		}
	})
	t.Cleanup(func() { c.net.OnRequest(nil) })
	return lists, creates
}

// waitingListings is the number of s's listings waiting for a slot in line.
func waitingListings(s *Session, line int) int {
	s.listings.mu.Lock()
	defer s.listings.mu.Unlock()
	return len(s.listings.waiting[line])
}

// joinsQueued waits until at least n listings of s wait in the joining
// line: the test's joins have their nodes and wait to list.
func joinsQueued(t *testing.T, s *Session, n int) {
	t.Helper()
	eventually(t, "the joins' listings waiting for a slot", time.Minute, func() bool { return waitingListings(s, joining) >= n })
}

// joinBurst delays c's link and starts joins goroutines that each join
// once (a Lock or a Campaign, given up at once if granted), then waits
// until their creates are sent and half of their listings wait for a
// slot. It returns c's listing counter and stop, which ends the joins,
// heals the link and waits for the goroutines.
func joinBurst(t *testing.T, ctx context.Context, c *client, joins int, join func(context.Context)) (lists *atomic.Int64, stop func()) {
	t.Helper()
	lists, creates := countListings(t, c)
	c.net.Delay(25 * time.Millisecond)
	jctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for i := 0; i < joins; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			join(jctx)
		}()
	}
	stop = func() {
		cancel()
		c.net.Heal()
		wg.Wait()
	}
	started := false
	defer func() {
		if !started { // a wait below failed the test
			stop()
		}
	}()
	eventually(t, "the joins' creates sent", time.Minute, func() bool { return creates.Load() >= int64(joins) })
	joinsQueued(t, c.Session, joins/2)
	started = true
	return lists, stop
}

// TestWokenWaiterListsBeforeJoins: a waiter woken by a watch lists in its
// session's urgent line, before the listings of the waiters that session
// is still queuing (doc.go's promise; nothing else checks which line a
// listing waits in). Waiter w of session s queues behind the holder h and
// a waiter x; then a thousand waiters of s join, their listings held back
// by s's few listing slots and a delayed link; x gives up, which wakes w
// (it watches x) to list. The bound is in requests: the listings s sent
// from x's cancel to w's listing. Ahead of w's go those in flight and
// those handed a slot while it waits for one: a few rounds of
// maxListings. In the joining line it waited for every join still
// queued (hundreds).
func TestWokenWaiterListsBeforeJoins(t *testing.T) {
	if testing.Short() {
		t.Skip("queues a thousand waiters on the ensemble")
	}
	skipTraceCheck(t, "a thousand waiters of one session: this test counts the session's requests; the waiters' steps are checked in the other lock tests")
	const (
		joins = 1000
		bound = 6 * maxListings
	)
	lock := lockPath(t)
	ctx := ctxFor(t, 2*time.Minute)
	_, held := holdLock(t, ctx, lock)
	defer held.Unlock(ctx)
	x, s := newClient(t, "x"), newClient(t, "s")
	mx, _ := NewMutex(x.Session, lock)
	xctx, xcancel := context.WithCancel(ctx)
	defer xcancel()
	px := lockAsync(xctx, mx.Lock)
	x.trace.waitFor(t, "x queued", 30*time.Second, waiting)
	ms, _ := NewMutex(s.Session, lock)
	wctx, wcancel := context.WithCancel(ctx)
	defer wcancel()
	lockAsync(wctx, ms.Lock)
	w := s.trace.waitFor(t, "w queued", 30*time.Second, waiting).Request

	lists, stop := joinBurst(t, ctx, s, joins, func(jctx context.Context) {
		m, _ := NewMutex(s.Session, lock)
		if l, err := m.Lock(jctx); err == nil {
			l.Unlock(context.Background())
		}
	})
	defer func() {
		wcancel()
		stop()
	}()
	from := len(s.trace.all())
	atCancel := lists.Load()
	left := waitingListings(s.Session, joining)
	xcancel()
	if _, err := px.wait(t, 30*time.Second); err == nil {
		t.Fatal("x was granted while h holds")
	}
	var sent int64
	s.trace.waitUntil(t, "w's listing after x gave up", time.Minute, func(evs []TraceEvent) bool {
		sent = lists.Load() - atCancel // read after the events were copied: never fewer than at w's listing
		for _, ev := range evs[min(from, len(evs)):] {
			if ev.Request == w && ev.Action == traceevent.ListChildren {
				return true
			}
		}
		return false
	})
	if sent > bound {
		t.Fatalf("from x's cancel to w's listing the session sent %d listings (bound %d): the woken waiter's listing waited behind its session's joins", sent, bound)
	}
	t.Logf("listings sent from x's cancel to w's listing: %d (bound %d, %d joins waiting to list at the cancel)", sent, bound, left)
}
