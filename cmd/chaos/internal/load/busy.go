package load

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklock/zklock/impl/zklock"
)

// busy is one busy session: its leases, each held by its own goroutine,
// and its workers, which write under whichever lease is held and read.
type busy struct {
	r       *runner
	name    string
	s       *zklock.Session
	dir     string        // its lock paths and registers live under dir
	leases  []atomicLease // nil while a lease is being taken again
	replies atomic.Int64
	guards  atomic.Int64

	mu        sync.Mutex
	lost      []LeaseLoss
	first     time.Time // the first lease held
	sessLost  string
	lostAfter time.Duration
}

// lockPath and register are lease j's lock path and the node its Guard
// writes.
func (b *busy) lockPath(j int) string { return fmt.Sprintf("%s/l%d", b.dir, j) }
func (b *busy) register(j int) string { return fmt.Sprintf("%s/r%d", b.dir, j) }

// hold takes lease j and holds it until ctx ends, releasing it and taking
// it again every churn period; every acquisition is timed. A lease that ends
// without being released is a loss.
func (b *busy) hold(ctx context.Context, j int, churn time.Duration) {
	m, err := zklock.NewMutex(b.s, b.lockPath(j))
	if err != nil {
		b.r.fail("%s: mutex %d: %v", b.name, j, err)
		return
	}
	for ctx.Err() == nil {
		t0 := time.Now()
		lease, err := m.Lock(ctx)
		if err != nil {
			if ctx.Err() == nil && b.s.Err() == nil {
				b.r.fail("%s: lock %s: %v", b.name, m.Path(), err)
			}
			return
		}
		b.r.acquired(b.name, m.Path(), time.Since(t0))
		b.mu.Lock()
		if b.first.IsZero() {
			b.first = time.Now()
		}
		b.mu.Unlock()
		b.leases[j].Store(lease)
		var next <-chan time.Time
		var t *time.Timer
		if churn > 0 {
			t = time.NewTimer(churn)
			next = t.C
		}
		select {
		case <-lease.Done():
			b.leases[j].Store(nil)
			b.mu.Lock()
			b.lost = append(b.lost, LeaseLoss{Path: m.Path(), Reason: fmt.Sprint(lease.Err()), After: b.r.since()})
			b.mu.Unlock()
			if b.s.Err() != nil {
				return // the session is gone: nothing more can be held
			}
		case <-next:
		case <-ctx.Done():
		}
		if t != nil {
			t.Stop()
		}
		b.leases[j].Store(nil)
		uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), b.r.cfg.SessionTimeout)
		lease.Unlock(uctx) // a lost lease's Unlock only reports it; a held one's node is deleted
		cancel()
	}
}

// work sends requests until ctx ends or the session is lost: one in
// guardEvery a Guard write under the next held lease, the others reads of
// its own on Conn() (a write goes through the leader and costs far more than
// a read: an even mix would cap the rate far below a read loop's), paced at
// pace between two requests when pace > 0. Only successful replies count.
func (b *busy) work(ctx context.Context, w int, pace time.Duration, guardEvery int) {
	conn := b.s.Conn()
	next := time.Now()
	data := []byte(b.name)
	for i := w; ctx.Err() == nil; i++ {
		select {
		case <-b.s.Done():
			return
		default:
		}
		if pace > 0 {
			next = next.Add(pace)
			if d := time.Until(next); d > 0 {
				t := time.NewTimer(d)
				select {
				case <-t.C:
				case <-ctx.Done():
					t.Stop()
					return
				}
			}
		}
		if guardEvery > 0 && i%guardEvery == 0 {
			j := (i / guardEvery) % len(b.leases)
			if lease := b.leases[j].Load(); lease != nil {
				// An error here is a lease released for churn or lost;
				// hold records losses.
				if _, err := lease.Guard(ctx, &zk.SetDataRequest{Path: b.register(j), Data: data, Version: -1}); err == nil {
					b.replies.Add(1)
					b.guards.Add(1)
				}
				continue
			}
		}
		if _, _, err := conn.Exists(b.dir); err == nil {
			b.replies.Add(1)
		}
	}
}

// stats is the session's line of the report, at the end of the load.
func (b *busy) stats(end time.Time, workers int) SessionStats {
	b.mu.Lock()
	defer b.mu.Unlock()
	st := SessionStats{Name: b.name, Workers: workers, Leases: len(b.leases), Replies: b.replies.Load(),
		Guards: b.guards.Load(), Lost: append([]LeaseLoss(nil), b.lost...), SessionLost: b.sessLost, LostAfter: b.lostAfter}
	if !b.first.IsZero() {
		until := end
		if b.sessLost != "" {
			until = b.r.start.Add(b.lostAfter)
		}
		st.Held = until.Sub(b.first)
	}
	return st
}

// atomicLease is a lease slot that workers read while hold replaces it.
type atomicLease = atomic.Pointer[zklock.Lease]
