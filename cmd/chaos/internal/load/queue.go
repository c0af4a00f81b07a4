package load

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// queueBound bounds the queueing of one round's waiters: beyond it the
// round is cut short (an error, not a finding: queueing is the campaign's
// set-up, not an acquisition).
const queueBound = 5 * time.Minute

// round queues n waiters, spread over sessions, behind the grants that
// sessions[0] holds on path (the recipe's: a Mutex's lease, an Election's
// leadership, every lease of a Semaphore), then gives them back and lets
// every waiter be granted and give its grant back at once; it measures the
// queueing and the drain. An election's round is watched by one observer
// on each waiter session, which must still be observing at the end.
func (r *runner) round(ctx context.Context, path string, sessions []*busy, n int) (Round, error) {
	q := Round{Path: path, Waiters: n}
	t0 := time.Now()
	var held []func(context.Context) error
	giveBack := func() error {
		var errs []error
		for _, release := range held {
			uctx, ucancel := context.WithTimeout(context.WithoutCancel(ctx), r.cfg.SessionTimeout)
			errs = append(errs, release(uctx))
			ucancel()
		}
		return errors.Join(errs...)
	}
	for range r.holds() {
		hold, err := r.newAcquirer(sessions[0].s, path)
		if err == nil {
			var release func(context.Context) error
			if release, err = hold(ctx); err == nil {
				held = append(held, release)
				continue
			}
		}
		return q, errors.Join(fmt.Errorf("the queue's holder: %w", err), giveBack())
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
	// Every waiter's acquirer is made before any goroutine starts, so that
	// a failure leaves nothing running.
	as := make([]acquirer, n)
	for k := range as {
		var err error
		if as[k], err = r.newAcquirer(sessions[k%len(sessions)].s, path); err != nil {
			return q, errors.Join(err, giveBack())
		}
	}
	obs, err := r.observe(wctx, path, sessions)
	if err != nil {
		return q, errors.Join(err, giveBack())
	}
	for _, acquire := range as {
		wg.Add(1)
		go func() {
			defer wg.Done()
			release, err := acquire(wctx)
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
			release(uctx)
			ucancel()
			mu.Lock()
			grants = append(grants, at)
			mu.Unlock()
		}()
	}
	// The queue is watched from the admin session, so that the listings of
	// up to n+1 names do not queue in front of a waiter session's syncs.
	q.Queued, err = r.waitQueued(ctx, path)
	q.Queue = time.Since(t0)
	release := time.Now()
	uerr := giveBack()
	if err != nil || uerr != nil {
		q.Cut = true
		cancel()
		wg.Wait()
		obs.stop()
		return q, errors.Join(err, uerr)
	}
	if r.cfg.Recipe != RecipeSemaphore {
		q.Queued-- // the holder's node
	}
	wg.Wait()
	q.Granted = len(grants)
	q.Drain, q.Slowest = drainStats(release, grants)
	q.Reports, err = obs.stop()
	if len(errs) > 0 {
		// Thousands of waiters of a lost session fail alike: one says it.
		err = errors.Join(err, fmt.Errorf("%d waiters failed, the first: %w", len(errs), errs[0]))
	}
	return q, err
}

// waitQueued polls the queue until every waiter is in it, ctx ends, or
// queueBound passes; it returns how many there were.
func (r *runner) waitQueued(ctx context.Context, path string) (int, error) {
	deadline := time.Now().Add(queueBound)
	for {
		n, want, err := r.queued(ctx, path)
		if err != nil {
			return n, fmt.Errorf("listing the queue: %w", err)
		}
		if n >= want {
			return n, nil
		}
		if time.Now().After(deadline) {
			return n, fmt.Errorf("only %d of %d in the queue within %v", n, want, queueBound)
		}
		t := time.NewTimer(250 * time.Millisecond)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return n, ctx.Err()
		}
	}
}
