package campaign

import (
	"context"
	"errors"
	"fmt"
	"path"
	"sync"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklock/zklock/checker"
	"github.com/zklock/zklock/cmd/chaos/internal/load"
	"github.com/zklock/zklock/cmd/chaos/internal/nemesis"
	"github.com/zklock/zklock/cmd/chaos/internal/workload"
)

// Run runs the workload and the faults, then observes the end state. It
// returns when every goroutine it started has stopped.
func (c *Campaign) Run(ctx context.Context) {
	start := time.Now()
	deadline := start.Add(c.Cfg.Duration)
	defer func() { c.Elapsed = time.Since(start) }()

	var bg sync.WaitGroup
	stop := make(chan struct{})
	bg.Add(1)
	go func() { defer bg.Done(); c.streamHistory(stop) }()
	if !c.Cfg.Quiet {
		bg.Add(1)
		go func() { defer bg.Done(); c.Mon.Progress(c.Stderr, start, c.Cfg.Duration, stop) }()
	}

	// The workload does not stop when ctx ends: it must go on while the
	// faults heal, then stop cleanly, releasing its leases.
	wctx, stopWork := context.WithCancel(context.WithoutCancel(ctx))
	var workers sync.WaitGroup
	for _, wk := range c.workers {
		workers.Add(1)
		go func() { defer workers.Done(); wk.Run(wctx) }()
	}

	c.Events = nemesis.NewInjector(c.w, c.Clu, c.clients, start).Run(ctx, c.Sched, deadline)
	healed := c.healAll(ctx)
	nemesis.Sleep(ctx, time.Until(deadline))
	c.Interrupted = ctx.Err() != nil

	stopWork()
	stopped := c.stopWorkers(&workers)
	c.observeLeftovers(healed)
	for _, wk := range c.workers {
		wk.Close()
	}
	if !stopped {
		waitTimeout(&workers, 10*time.Second)
	}
	close(stop)
	bg.Wait()
	if err := c.w.Rec.Flush(c.history); err != nil {
		c.Fail("writing the history: %v", err)
	}
	if err := c.history.Sync(); err != nil {
		c.Fail("writing the history: %v", err)
	}
	if c.Traces != nil {
		if err := c.Traces.Close(); err != nil {
			c.Fail("writing the trace: %v", err)
		}
	}
}

// streamHistory flushes the history to its file every second until stop
// closes, so that a crashed run still leaves one behind.
func (c *Campaign) streamHistory(stop <-chan struct{}) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			if err := c.w.Rec.Flush(c.history); err != nil {
				c.Fail("writing the history: %v", err)
				return
			}
		}
	}
}

// healAll ends every client fault and heals the ensemble: the end state must
// be observed on a whole system. It returns when that was done.
func (c *Campaign) healAll(ctx context.Context) time.Time {
	for _, cl := range c.clients {
		cl.Set().Heal()
		cl.Thaw()
	}
	if err := c.Clu.Heal(ctx); err != nil {
		c.Fail("healing the ensemble: %v", err)
	}
	return time.Now()
}

// stopWorkers waits for the workload to end after its context was
// cancelled; it reports whether every worker stopped in time. zk.Lock cannot
// be cancelled: closing its connection is what ends its wait.
func (c *Campaign) stopWorkers(workers *sync.WaitGroup) bool {
	bound := 3*c.w.Timeout + 10*time.Second
	if waitTimeout(workers, bound) {
		return true
	}
	c.Fail("clients still busy %v after the end; closing their sessions (the leftover check sees less)", bound)
	for _, wk := range c.workers {
		wk.Close()
	}
	if !waitTimeout(workers, 30*time.Second) {
		c.Fail("some clients did not stop; their last operations are missing from the history")
	}
	return false
}

// observeLeftovers records the lock nodes left under every lock path, once
// every fault has healed and a session lost to one has certainly expired (a
// session timeout, plus a second for the server's expiry buckets of one
// tick), while the clients' sessions are still open: closing one would
// delete its nodes and hide an orphan.
func (c *Campaign) observeLeftovers(healed time.Time) {
	quiet := healed
	if now := time.Now(); now.After(quiet) {
		quiet = now
	}
	nemesis.Sleep(context.Background(), time.Until(quiet.Add(c.w.Timeout+time.Second)))
	for _, lp := range c.paths() {
		if err := c.leftover(lp.Path); err != nil {
			c.Fail("listing %s at the end: %v", lp.Path, err)
		}
	}
}

// leftover records the lock nodes present under path, read after a sync:
// for a semaphore, its lease nodes and its internal mutex's nodes.
func (c *Campaign) leftover(p string) error {
	dirs := []string{p}
	if c.Cfg.Lock == workload.LockSemaphore {
		dirs = []string{p + "/leases", p + "/locks"}
	}
	var nodes []string
	for _, d := range dirs {
		if _, err := c.observer.Sync(d); err != nil && !errors.Is(err, zk.ErrNoNode) {
			return fmt.Errorf("sync %s: %w", d, err)
		}
		children, _, err := c.observer.Children(d)
		if errors.Is(err, zk.ErrNoNode) {
			// Only an intruder on a lock without ACLs deletes a lock path (and
			// zklock makes it again on the next Lock), or no semaphore's
			// acquire ever ran: nothing is left in it.
			children, err = nil, nil
		}
		if err != nil {
			return fmt.Errorf("children of %s: %w", d, err)
		}
		for _, ch := range children {
			nodes = append(nodes, path.Join(d, ch))
		}
	}
	at := c.w.Rec.Now()
	c.w.Rec.Add(checker.Record{Kind: checker.KindLeftover, Path: p, Call: at, Return: at, Nodes: nodes})
	return nil
}

func (c *Campaign) paths() []*workload.LockPath {
	return append(append([]*workload.LockPath(nil), c.w.Excl...), c.w.RW...)
}

// Teardown closes what setup opened: clients, proxies, the run's nodes.
func (c *Campaign) Teardown() {
	for _, wk := range c.workers {
		wk.Close()
	}
	for _, cl := range c.clients {
		cl.Set().Close()
	}
	if c.observer != nil {
		if c.Root != "" {
			load.DeleteTree(c.observer, c.Root)
		}
		c.observer.Close()
	}
	if c.history != nil {
		c.history.Close()
	}
	if c.Traces != nil {
		c.Traces.Close()
	}
}

// waitTimeout waits for wg, at most d; it reports whether wg finished. On a
// timeout its helper goroutine lives until wg finishes, which the caller
// forces by closing the sessions the stragglers wait on.
func waitTimeout(wg *sync.WaitGroup, d time.Duration) bool {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-done:
		return true
	case <-t.C:
		return false
	}
}
