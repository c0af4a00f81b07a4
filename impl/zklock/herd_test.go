package zklock

import (
	"context"
	"fmt"
	"path"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zklock/zklock/ensemble/ensembletest"
	"github.com/zklock/zklock/traceevent"
)

// Test 2: 20 queued waiters, each with its own session and proxies. Every
// lock node is watched by two sessions at most, its successor and the one
// after it (the servers' own wchp says so), and each release notifies
// those two only: the successor, whose turn it is, and the one after,
// which lists again while the successor holds (so that its own turn then
// comes in one notification). Counted as watch notifications crossing
// each waiter's proxies.
func TestNoHerd(t *testing.T) {
	const n = 20
	lock := lockPath(t)
	ctx := ctxFor(t, 3*time.Minute)
	_, held := holdLock(t, ctx, lock)
	waiters := make([]*client, n)
	granted := make(chan int, n)
	// Every release is counted: the last waiter's own node is watched
	// too, and its release may still be on its way when it is granted.
	var released sync.WaitGroup
	released.Add(n)
	for i := range waiters {
		c := newClient(t, fmt.Sprintf("w%d", i))
		waiters[i] = c
		m, _ := NewMutex(c.Session, lock)
		go func() {
			lease, err := m.Lock(ctx)
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
				granted <- -1
				released.Done()
				return
			}
			granted <- i
			lease.Unlock(context.Background())
			released.Done()
		}()
		c.trace.waitFor(t, c.name+" queued", time.Minute, waiting)
	}
	checkOneWatcherPerNode(t, lock, n)

	before := make([]int64, n)
	for i, c := range waiters {
		before[i] = c.net.Stats().Notifications
	}
	if err := held.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	for want := 0; want < n; want++ {
		select {
		case got := <-granted:
			if got != want {
				t.Fatalf("grant %d went to waiter %d: not FIFO", want, got)
			}
		case <-time.After(time.Minute):
			t.Fatalf("waiter %d never acquired", want)
		}
	}
	released.Wait()
	// Every lease watches its own node while held (ownwatch.go), the
	// watch a waiter set for the hand-off or one set at the grant, so its
	// own release later notifies it once more: not a wake-up. Unlock does
	// not wait for a watch set at the grant, so a release sent before that
	// watch notifies no one: its own notification is one or none. A
	// waiter that watched the node two ahead is notified of its deletion
	// too, once.
	var woken []string
	total, own, seconds := int64(0), int64(0), int64(0)
	for i, c := range waiters {
		d := c.net.Stats().Notifications - before[i]
		want := int64(2)
		own++
		sec := int64(c.trace.count(func(ev TraceEvent) bool {
			return ev.Action == traceevent.WatchSecond && ev.Result == traceevent.ResultExists
		}))
		want += sec
		seconds += sec
		total += d
		if d != want && d != want-1 {
			woken = append(woken, fmt.Sprintf("%s:%d", c.name, d))
		}
	}
	if total > n+own+seconds || total < n+seconds || seconds > n || len(woken) > 0 {
		t.Fatalf("%d releases delivered %d notifications (%d of a waiter's own node, %d of the node two ahead); waiters not notified as their watches say: %v",
			n, total, own, seconds, woken)
	}
	t.Logf("%d releases, %d notifications delivered: one per waiter of its predecessor, %d of the node two ahead, %d of a waiter's own node",
		n, total, seconds, own)
}

// checkOneWatcherPerNode reads `wchp` from every server: watched paths,
// each followed by the sessions watching it.
func checkOneWatcherPerNode(t *testing.T, lock string, wantWatched int) {
	t.Helper()
	e := ensembletest.Ensemble()
	if e == nil {
		t.Log("external ensemble: wchp check skipped")
		return
	}
	watchers := map[string]map[string]bool{}
	for i := 0; i < e.Size(); i++ {
		out, err := e.FourLetter(context.Background(), i, "wchp")
		if err != nil {
			t.Fatalf("wchp on server %d: %v", i, err)
		}
		var cur string
		for _, line := range strings.Split(out, "\n") {
			switch {
			case strings.HasPrefix(line, "/"):
				cur = strings.TrimSpace(line)
			case strings.TrimSpace(line) != "" && cur != "":
				if path.Dir(cur) == lock {
					if watchers[cur] == nil {
						watchers[cur] = map[string]bool{}
					}
					watchers[cur][strings.TrimSpace(line)] = true
				}
			}
		}
	}
	// A waiter that may take the hand-off in one notification watches its
	// own node too: the owner's watch is not a herd. Its successor and the
	// one after it watch it: two sessions at most.
	a := admin(t)
	for node, sessions := range watchers {
		if _, st, err := a.Get(node); err == nil {
			delete(sessions, fmt.Sprintf("0x%x", st.EphemeralOwner))
		}
		if len(sessions) > 2 {
			t.Errorf("lock node %s is watched by %d sessions: a herd", path.Base(node), len(sessions))
		}
	}
	if len(watchers) != wantWatched {
		t.Errorf("%d lock nodes watched, want %d (every node but the last)", len(watchers), wantWatched)
	}
}
