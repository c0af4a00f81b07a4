package main

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// uncontended: one client, acquire and release back to back. Latency is the
// pair, measured after warmup rounds (which also make the first connection's
// and the JIT's costs, on the Java side, fall outside the window).
func uncontended(ctx context.Context, cfg config, name string, dial dialer, path string) (run, error) {
	c, err := dial(ctx, cfg, path, false)
	if err != nil {
		return run{}, err
	}
	defer c.close()
	r := run{Impl: name, Kind: kindUncontended, Clients: 1}
	start := time.Now()
	for i := 0; i < cfg.warmup+cfg.iterations; i++ {
		if i == cfg.warmup {
			start = time.Now()
		}
		t0 := time.Now()
		unlock, err := c.lock(ctx, true)
		if err != nil {
			return run{}, fmt.Errorf("%s lock: %w", name, err)
		}
		if err := unlock(ctx); err != nil {
			return run{}, fmt.Errorf("%s unlock: %w", name, err)
		}
		if i >= cfg.warmup {
			r.Latency = append(r.Latency, time.Since(t0))
		}
	}
	r.Ops = int64(cfg.iterations)
	r.Elapsed = time.Since(start)
	return r, nil
}

// contended: n clients, each its own session, loop acquire/release on one
// path for cfg.warm and then cfg.duration; only grants inside the second
// window count. With rw, the read/write lock is used and a client's every
// cfg.writeEvery-th acquisition is a write, the rest reads (kindReadMostly).
//
// Latency is acquire's, queueing included. A hand-off runs from the moment a
// holder starts its release to the moment the next grant returns, whoever gets
// it; the mutual exclusion being measured guarantees that releases and grants
// alternate, so "the last release" is well defined at every grant. The Java
// harness measures the same way.
func contended(ctx context.Context, cfg config, name string, dial dialer, path string, n int, rw bool) (run, error) {
	clients := make([]lockClient, 0, n)
	defer func() {
		for _, c := range clients {
			c.close()
		}
	}()
	for range n {
		c, err := dial(ctx, cfg, path, rw)
		if err != nil {
			return run{}, err
		}
		clients = append(clients, c)
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	base := time.Now()
	since := func() int64 { return int64(time.Since(base)) } // monotonic
	measureFrom := since() + int64(cfg.warm)
	end := measureFrom + int64(cfg.duration)
	var (
		lastRelease atomic.Int64
		ops         atomic.Int64
		mu          sync.Mutex
		firstErr    error
		wg          sync.WaitGroup
	)
	lats := make([][]time.Duration, n)
	hands := make([][]time.Duration, n)
	for id, c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; since() < end; i++ {
				// Offset by id so that different clients' writes interleave.
				write := !rw || (i+id)%cfg.writeEvery == 0
				t0 := since()
				unlock, err := c.lock(ctx, write)
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = fmt.Errorf("%s client %d lock: %w", name, id, err)
					}
					mu.Unlock()
					cancel()
					return
				}
				granted := since()
				prev := lastRelease.Load()
				if granted >= measureFrom && granted < end {
					ops.Add(1)
					lats[id] = append(lats[id], time.Duration(granted-t0))
					if !rw && prev != 0 {
						hands[id] = append(hands[id], time.Duration(granted-prev))
					}
				}
				lastRelease.Store(since())
				if err := unlock(ctx); err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = fmt.Errorf("%s client %d unlock: %w", name, id, err)
					}
					mu.Unlock()
					cancel()
					return
				}
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return run{}, firstErr
	}
	kind := kindContended
	if rw {
		kind = kindReadMostly
	}
	r := run{Impl: name, Kind: kind, Clients: n, Ops: ops.Load(), Elapsed: cfg.duration}
	for id := range n {
		r.Latency = append(r.Latency, lats[id]...)
		r.Handoff = append(r.Handoff, hands[id]...)
	}
	return r, nil
}
