package load

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/zklock/zklock/impl/zklock"
)

// queueBound bounds the queueing of one round's waiters: beyond it the
// round is cut short (an error, not a finding: queueing is the campaign's
// set-up, not an acquisition).
const queueBound = 5 * time.Minute

// round queues n waiters, spread over sessions, behind a lease that
// sessions[0] holds on path, then releases it and lets every waiter be
// granted and release at once; it measures the queueing and the drain.
func (r *runner) round(ctx context.Context, path string, sessions []*busy, n int) (Round, error) {
	q := Round{Path: path, Waiters: n}
	holderM, err := zklock.NewMutex(sessions[0].s, path)
	if err != nil {
		return q, err
	}
	t0 := time.Now()
	holder, err := holderM.Lock(ctx)
	if err != nil {
		return q, fmt.Errorf("the queue's holder: %w", err)
	}
	r.acquired("queue-holder", path, time.Since(t0))

	wctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		grants []time.Time
		errs   []error
	)
	// Every waiter's Mutex is made before any goroutine starts, so that a
	// failure leaves nothing running.
	ms := make([]*zklock.Mutex, n)
	for k := range ms {
		if ms[k], err = zklock.NewMutex(sessions[k%len(sessions)].s, path); err != nil {
			uctx, ucancel := context.WithTimeout(context.WithoutCancel(ctx), r.cfg.SessionTimeout)
			holder.Unlock(uctx)
			ucancel()
			return q, err
		}
	}
	for _, m := range ms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lease, err := m.Lock(wctx)
			if err != nil {
				if wctx.Err() == nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
				return
			}
			at := time.Now()
			uctx, ucancel := context.WithTimeout(wctx, r.cfg.SessionTimeout)
			lease.Unlock(uctx)
			ucancel()
			mu.Lock()
			grants = append(grants, at)
			mu.Unlock()
		}()
	}
	// The queue is watched from the admin session, so that the listings of
	// up to n+1 names do not queue in front of a waiter session's syncs.
	watcher, err := zklock.NewMutex(r.admin, path)
	if err == nil {
		q.Queued, err = r.waitQueued(ctx, watcher, n+1)
	}
	q.Queue = time.Since(t0)
	release := time.Now()
	uctx, ucancel := context.WithTimeout(context.WithoutCancel(ctx), r.cfg.SessionTimeout)
	uerr := holder.Unlock(uctx)
	ucancel()
	if err != nil || uerr != nil {
		q.Cut = true
		cancel()
		wg.Wait()
		return q, errors.Join(err, uerr)
	}
	q.Queued-- // the holder
	wg.Wait()
	q.Granted = len(grants)
	q.Drain, q.Slowest = drainStats(release, grants)
	if len(errs) > 0 {
		// Thousands of waiters of a lost session fail alike: one says it.
		return q, fmt.Errorf("%d waiters failed, the first: %w", len(errs), errs[0])
	}
	return q, nil
}

// waitQueued polls the queue until want contenders are in it, ctx ends, or
// queueBound passes; it returns how many there were.
func (r *runner) waitQueued(ctx context.Context, m *zklock.Mutex, want int) (int, error) {
	deadline := time.Now().Add(queueBound)
	for {
		c, err := m.Contenders(ctx)
		if err != nil {
			return len(c), fmt.Errorf("listing the queue: %w", err)
		}
		if len(c) >= want {
			return len(c), nil
		}
		if time.Now().After(deadline) {
			return len(c), fmt.Errorf("only %d of %d waiters queued within %v", len(c)-1, want-1, queueBound)
		}
		t := time.NewTimer(250 * time.Millisecond)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return len(c), ctx.Err()
		}
	}
}
