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
// window count. kind says what is measured: kindContended, the exclusive
// lock; kindReadMostly, the read/write lock, each client's every
// cfg.writeEvery-th acquisition a write and the rest reads; kindWriteCeiling,
// the floor's create+delete pairs, flat out, which exclude nobody.
//
// Latency is acquire's, queueing included. A hand-off runs from the moment a
// holder starts its release to the moment the next grant returns, whoever gets
// it; the mutual exclusion being measured guarantees that releases and grants
// alternate, so "the last release" is well defined at every grant. The Java
// harness measures the same way. Exclusive runs are watched for stalls (see
// stallMonitor).
func contended(ctx context.Context, cfg config, name string, dial dialer, path string, n int, kind string) (run, error) {
	rw := kind == kindReadMostly
	clients, err := dialAll(ctx, cfg, dial, path, n, rw)
	defer closeAll(clients)
	if err != nil {
		return run{}, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	baseWall := time.Now()
	base := baseWall
	since := func() int64 { return int64(time.Since(base)) } // monotonic
	measureFrom := since() + int64(cfg.warm)
	end := measureFrom + int64(cfg.duration)
	mon := newStallMonitor(cfg, path, clients, since, measureFrom, baseWall)
	load := watchServers(ctx, cfg.servers, since, measureFrom, end)
	watched := kind == kindContended && cfg.admin != nil
	monCtx, stopMon := context.WithCancel(ctx)
	monDone := make(chan struct{})
	if watched {
		go func() {
			defer close(monDone)
			mon.watch(monCtx)
		}()
	} else {
		close(monDone)
	}
	var (
		lastRelease atomic.Int64
		ops         atomic.Int64
		mu          sync.Mutex
		firstErr    error
		wg          sync.WaitGroup
	)
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
		cancel()
	}
	lats := make([][]time.Duration, n)
	hands := make([][]time.Duration, n)
	for id, c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st := &mon.states[id]
			for i := 0; since() < end; i++ {
				// Offset by id so that different clients' writes interleave.
				write := !rw || (i+id)%cfg.writeEvery == 0
				t0 := since()
				st.set(phaseAcquiring, t0)
				unlock, err := c.lock(ctx, write)
				if err != nil {
					fail(fmt.Errorf("%s client %d lock: %w", name, id, err))
					return
				}
				granted := since()
				st.set(phaseHolding, granted)
				mon.granted(id, granted)
				prev := lastRelease.Load()
				if granted >= measureFrom && granted < end {
					ops.Add(1)
					lats[id] = append(lats[id], time.Duration(granted-t0))
					if kind == kindContended && prev != 0 {
						hands[id] = append(hands[id], time.Duration(granted-prev))
					}
				}
				if kind != kindWriteCeiling && cfg.hold > 0 {
					hold(ctx, cfg.hold)
				}
				released := since()
				lastRelease.Store(released)
				st.set(phaseReleasing, released)
				if err := unlock(ctx); err != nil {
					fail(fmt.Errorf("%s client %d unlock: %w", name, id, err))
					return
				}
				st.set(phaseIdle, since())
			}
		}()
	}
	wg.Wait()
	stopMon()
	<-monDone
	if firstErr != nil {
		return run{}, firstErr
	}
	r := run{Impl: name, Kind: kind, Clients: n, Ops: ops.Load(), Elapsed: cfg.duration, Server: <-load}
	if watched {
		r.Stalls = mon.finish(end)
	}
	for id := range n {
		r.Latency = append(r.Latency, lats[id]...)
		r.Handoff = append(r.Handoff, hands[id]...)
	}
	return r, nil
}

// hold is a holder's critical section under --hold: d, or until ctx ends
// (the release that follows then fails, or the loop's window is over).
func hold(ctx context.Context, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}

// dialAll connects n clients to the lock at path; on an error it returns
// those it made, for the caller to close.
func dialAll(ctx context.Context, cfg config, dial dialer, path string, n int, rw bool) ([]lockClient, error) {
	clients := make([]lockClient, 0, n)
	for range n {
		c, err := dial(ctx, cfg, path, rw)
		if err != nil {
			return clients, err
		}
		clients = append(clients, c)
	}
	return clients, nil
}

// closeAll closes every client.
func closeAll(clients []lockClient) {
	for _, c := range clients {
		c.close()
	}
}
