package zklock

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/zklock/zklock/faultinject"
)

// Test 10: after a workload with cancellations, lost replies and a lost
// session, closing every session leaves no lock node and no goroutine.
func TestNoLeaks(t *testing.T) {
	a := admin(t)
	lock := lockPath(t)
	runtime.GC()
	before := runtime.NumGoroutine()
	func() {
		ctx := ctxFor(t, 2*time.Minute)
		var clients []*client
		for i := 0; i < 4; i++ {
			clients = append(clients, newClient(t, "c"))
		}
		defer func() {
			for _, c := range clients {
				c.Close()
				c.net.Close()
			}
		}()
		m0, _ := NewMutex(clients[0].Session, lock)
		m1, _ := NewMutex(clients[1].Session, lock)
		rw2, _ := NewRWMutex(clients[2].Session, lock+"-rw")
		rw3, _ := NewRWMutex(clients[3].Session, lock+"-rw")
		held, err := m0.Lock(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := m1.TryLock(ctx); !errors.Is(err, ErrLocked) {
			t.Fatalf("TryLock = %v", err)
		}
		cctx, cancel := context.WithCancel(ctx)
		p := lockAsync(cctx, m1.Lock)
		clients[1].trace.waitFor(t, "queued", time.Minute, waiting)
		cancel()
		p.wait(t, time.Minute)
		cut := clients[1].net.CutAfterRequest(faultinject.OpCreate2)
		p = lockAsync(ctx, m1.Lock)
		cut.Wait(ctx)
		clients[1].trace.waitFor(t, "queued after the cut", time.Minute, waiting)
		r, err := rw2.RLock(ctx)
		if err != nil {
			t.Fatal(err)
		}
		pw := lockAsync(ctx, rw3.Lock) // left waiting: Close must end it
		clients[3].trace.waitFor(t, "writer queued", time.Minute, waiting)
		_ = r
		held.Unlock(ctx)
		lease, err := p.wait(t, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		_ = lease // left held: Close must end it
		clients[3].Close()
		if _, err := pw.wait(t, time.Minute); !errors.Is(err, ErrClosed) {
			t.Fatalf("Lock interrupted by Close = %v, want ErrClosed", err)
		}
	}()
	for _, p := range []string{lock, lock + "-rw"} {
		if left := nodes(t, a, p); len(left) != 0 {
			t.Errorf("nodes left under %s after every session closed: %v", p, left)
		}
	}
	goroutinesSettle(t, before, "closing everything")
}

// An Unlock that cannot reach the server before its context ends goes on
// deleting in the background: once the connection is back the node goes,
// while the session lives on, not at the session's end.
func TestUnlockDeletesInTheBackground(t *testing.T) {
	a := admin(t)
	c := newClient(t, "c")
	ctx := ctxFor(t, time.Minute)
	lock := lockPath(t)
	m, _ := NewMutex(c.Session, lock)
	lease, err := m.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c.net.BlackholeUntilHealed()
	uctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	defer cancel()
	if err := lease.Unlock(uctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Unlock with the network silent = %v, want context.DeadlineExceeded", err)
	}
	// The delete in flight is lost with the connection: only a retry of
	// its own can remove the node now.
	c.net.Sever()
	c.net.Heal()
	eventually(t, "the node deleted in the background", 10*time.Second, func() bool {
		return len(nodes(t, a, lock)) == 0
	})
	if err := c.Err(); err != nil {
		t.Fatalf("the session ended (%v): the node went with it, not with the background delete", err)
	}
}

// Close returns only once every goroutine the session started has
// stopped: looked at the moment it returns, without waiting. The network
// is silent, so the teardown is slow (closeSession gets no answer), and a
// delete left to the background has a call in flight.
func TestCloseStopsEveryGoroutine(t *testing.T) {
	c := newClient(t, "c")
	ctx := ctxFor(t, time.Minute)
	m, _ := NewMutex(c.Session, lockPath(t))
	lease, err := m.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c.net.BlackholeUntilHealed()
	uctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	lease.Unlock(uctx) // goes on in the background
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	// A goroutine that signalled its end has still to return from its last
	// statement: the snapshot may catch it there. Such a goroutine is gone
	// within microseconds; one Close did not wait for (the teardown of a
	// blackholed connection, a delete still being retried) runs on for
	// seconds. So only goroutines still there after a short settle count.
	var left []string
	for wait := time.Millisecond; ; wait *= 2 {
		left = sessionGoroutines()
		if len(left) == 0 || wait > 200*time.Millisecond {
			break
		}
		time.Sleep(wait)
	}
	if len(left) > 0 {
		t.Fatalf("%d goroutines of the session still running after Close returned:\n%s", len(left), strings.Join(left, "\n\n"))
	}
}

// goroutinesSettle fails the test unless the number of goroutines comes back
// to at most before within 10 s (goroutines that were told to stop take a
// moment to return); what is the moment, for the message.
func goroutinesSettle(t *testing.T, before int, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if after := runtime.NumGoroutine(); after > before {
		buf := make([]byte, 1<<20)
		buf = buf[:runtime.Stack(buf, true)]
		t.Fatalf("%d goroutines before, %d after %s:\n%s", before, after, what, relevant(string(buf)))
	}
}

// sessionGoroutines returns the stacks of the running goroutines that are
// in this package's code, the test's own excepted.
func sessionGoroutines() []string {
	buf := make([]byte, 1<<20)
	buf = buf[:runtime.Stack(buf, true)]
	var left []string
	for _, g := range strings.Split(string(buf), "\n\n") {
		if strings.Contains(g, "zklock/impl/zklock.") && !strings.Contains(g, "testing.tRunner") {
			left = append(left, g)
		}
	}
	return left
}

// relevant keeps the goroutine dumps that are not the test machinery's.
func relevant(dump string) string {
	var keep []string
	for _, g := range strings.Split(dump, "\n\n") {
		if strings.Contains(g, "testing.(*T).Run") || strings.Contains(g, "testing.tRunner") && !strings.Contains(g, "zklock") {
			continue
		}
		keep = append(keep, g)
	}
	return strings.Join(keep, "\n\n")
}
