package zklock

import (
	"errors"
	"testing"
	"time"

	"github.com/zklock/zklock/faultinject"
)

// RW test 6: the Mutex faults, on read and write nodes.
func TestRWFaults(t *testing.T) {
	t.Run("create reply lost", func(t *testing.T) {
		for _, kind := range []string{"read", "write"} {
			t.Run(kind, func(t *testing.T) {
				lock := lockPath(t)
				ctx := ctxFor(t, time.Minute)
				hold, _ := NewRWMutex(newClient(t, "holder").Session, lock)
				held, err := hold.Lock(ctx) // parents exist; the cut create succeeds
				if err != nil {
					t.Fatal(err)
				}
				c := newClient(t, kind)
				rw, _ := NewRWMutex(c.Session, lock)
				acquire := rw.RLock
				if kind == "write" {
					acquire = rw.Lock
				}
				cut := c.net.CutAfterRequest(faultinject.OpCreate2)
				p := lockAsync(ctx, acquire)
				if r, err := cut.Wait(ctx); err != nil || !r.ReplyDropped || r.Err != 0 {
					t.Fatalf("cut: %+v %v", r, err)
				}
				c.trace.waitFor(t, "queued after the cut", time.Minute, waiting)
				if got := ours(nodes(t, admin(t), lock), c.trace); got != 1 {
					t.Fatalf("%d nodes of ours, want 1", got)
				}
				held.Unlock(ctx)
				lease, err := p.wait(t, time.Minute)
				if err != nil {
					t.Fatal(err)
				}
				lease.Unlock(ctx)
				eventually(t, "no node left", 5*time.Second, func() bool { return len(nodes(t, admin(t), lock)) == 0 })
			})
		}
	})
	// The holder's network goes silent; the holder must know it lost the
	// lock before the contenders waiting on it acquire.
	expire := func(t *testing.T, holderWrites bool, waiters ...bool) {
		lock := lockPath(t)
		ctx := ctxFor(t, time.Minute)
		h := newClient(t, "holder", WithSessionTimeout(shortTimeout))
		hrw, _ := NewRWMutex(h.Session, lock)
		acquire := hrw.RLock
		if holderWrites {
			acquire = hrw.Lock
		}
		held, err := acquire(ctx)
		if err != nil {
			t.Fatal(err)
		}
		lost := make(chan time.Time, 1)
		go func() { <-held.Done(); lost <- time.Now() }()
		var ps []*pending
		for _, write := range waiters {
			c := newClient(t, "waiter")
			rw, _ := NewRWMutex(c.Session, lock)
			acquire := rw.RLock
			if write {
				acquire = rw.Lock
			}
			ps = append(ps, lockAsync(ctx, acquire))
			c.trace.waitFor(t, "waiter queued", time.Minute, waiting)
		}
		h.net.BlackholeUntilHealed()
		defer h.net.Heal()
		first, err := ps[0].wait(t, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		var lostAt time.Time
		select {
		case lostAt = <-lost:
		case <-time.After(5 * time.Second):
			t.Fatal("the expired holder's lease never ended")
		}
		if !lostAt.Before(ps[0].at) {
			t.Fatalf("the holder learned of its loss %v after the next acquired", lostAt.Sub(ps[0].at))
		}
		if !errors.Is(held.Err(), ErrLockLost) {
			t.Fatalf("Err = %v", held.Err())
		}
		first.Unlock(ctx)
		for _, p := range ps[1:] {
			l, err := p.wait(t, time.Minute)
			if err != nil {
				t.Fatal(err)
			}
			l.Unlock(ctx)
		}
	}
	t.Run("reader expires under a waiting writer", func(t *testing.T) { expire(t, false, true) })
	t.Run("holding writer expires", func(t *testing.T) { expire(t, true, false, false) })
}
