package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"sync"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklock/zklock/checker"
	"github.com/zklock/zklock/faultinject"
	"github.com/zklock/zklock/impl/zklock"
)

// worker is one client's workload on one lock implementation.
type worker interface {
	run(ctx context.Context)
	close() // ends the client's session; a zk.Lock waiting in Lock returns
}

// campaign is one run: set up, workload and faults, then the end-of-run
// observation, the check and the report.
type campaign struct {
	cfg    *config
	out    *outDir
	clu    cluster
	sched  []plannedFault
	stderr io.Writer // progress and notes; io.Discard with --quiet

	root        string // this run's ZooKeeper subtree
	observer    *zk.Conn
	w           *workload
	clients     []*client
	workers     []worker
	history     *os.File
	interrupted bool
	events      []faultEvent
	elapsed     time.Duration

	errMu sync.Mutex
	errs  []string // what went wrong after set-up, for the report
}

// setupError is a failure before the campaign started: exit status 2 and
// nothing left in --out.
type setupError struct{ err error }

func (e *setupError) Error() string { return e.err.Error() }
func (e *setupError) Unwrap() error { return e.err }

func (c *campaign) errors() []string {
	c.errMu.Lock()
	defer c.errMu.Unlock()
	return append([]string(nil), c.errs...)
}

func (c *campaign) fail(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	c.errMu.Lock()
	c.errs = append(c.errs, msg)
	c.errMu.Unlock()
	fmt.Fprintln(c.stderr, "chaos:", msg)
}

// setup connects, checks the session timeout the servers grant, creates the
// run's nodes and the clients. Nothing is written to --out before it succeeds.
func (c *campaign) setup(ctx context.Context) (err error) {
	defer func() {
		if err != nil {
			c.teardown()
			err = &setupError{err}
		}
	}()
	addrs := c.clu.Addrs()
	// zklock's session reports the timeout the servers granted; the faults'
	// lengths are planned from the one asked for, so they must agree.
	pctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	timing := zklock.WithEnsembleTiming(c.clu.Timing())
	probe, err := zklock.NewSession(pctx, addrs, zklock.WithSessionTimeout(c.cfg.SessionTimeout), timing, zklock.WithLogger(quietLog))
	cancel()
	if err != nil {
		return fmt.Errorf("connecting to %v: %w", addrs, err)
	}
	granted := probe.Timeout()
	probe.Close()
	if granted != c.cfg.SessionTimeout {
		return fmt.Errorf("the servers grant a %v session timeout, not --session-timeout %v: pass --session-timeout %v", granted, c.cfg.SessionTimeout, granted)
	}

	c.observer, err = connect(ctx, addrs, c.cfg.SessionTimeout)
	if err != nil {
		return err
	}
	c.root = fmt.Sprintf("/zklock-chaos/%s-%d", time.Now().Format("20060102-150405"), uint64(c.cfg.Seed)%1000000)
	c.w = &workload{cfg: c.cfg, rec: checker.NewRecorder(checker.NewClock()), mon: newMonitor(), timeout: granted, timing: timing}
	mk := []string{"/zklock-chaos", c.root, c.root + "/locks", c.root + "/data"}
	for i := 0; i < c.cfg.Locks; i++ {
		rw := i >= c.cfg.Locks-c.cfg.RWLocks
		name := fmt.Sprintf("ex-%d", i)
		if rw {
			name = fmt.Sprintf("rw-%d", i-(c.cfg.Locks-c.cfg.RWLocks))
		}
		lp := &lockPath{path: c.root + "/locks/" + name, data: c.root + "/data/" + name, rw: rw}
		lp.mem = &memRegister{name: "mem:" + lp.path, fenced: !c.cfg.NoFence, mon: c.w.mon}
		if rw {
			c.w.rw = append(c.w.rw, lp)
		} else {
			c.w.excl = append(c.w.excl, lp)
		}
		mk = append(mk, lp.path, lp.data)
	}
	for _, p := range mk {
		if _, err := c.observer.Create(p, nil, 0, zk.WorldACL(zk.PermAll)); err != nil && !errors.Is(err, zk.ErrNodeExists) {
			return fmt.Errorf("creating %s: %w", p, err)
		}
	}

	for i := 0; i < c.cfg.Clients; i++ {
		set, err := faultinject.NewSet(addrs)
		if err != nil {
			return fmt.Errorf("proxies: %w", err)
		}
		cl := newClient(c.w, i, set)
		c.clients = append(c.clients, cl)
		if c.cfg.Lock == lockZk {
			zw := &zkWorker{client: cl}
			c.workers = append(c.workers, zw)
			if err := zw.connect(ctx); err != nil {
				return err
			}
		} else {
			c.workers = append(c.workers, &zklockWorker{client: cl})
		}
	}
	c.history, err = os.Create(c.out.file("history.jsonl"))
	if err != nil || c.cfg.Lock != lockZklock {
		return err
	}
	c.w.traces, err = newTraceFile(c.out.file("trace.jsonl"))
	return err
}

// connect opens a plain connection and waits for its session.
func connect(ctx context.Context, addrs []string, timeout time.Duration) (*zk.Conn, error) {
	conn, events, err := zk.Connect(addrs, timeout, zk.WithLogger(nopLogger{}), zk.WithLogInfo(false))
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for {
		select {
		case ev := <-events:
			if ev.State == zk.StateHasSession {
				return conn, nil
			}
		case <-ctx.Done():
			conn.Close()
			return nil, fmt.Errorf("no session from %v: %w", addrs, ctx.Err())
		}
	}
}

// run runs the workload and the faults, then observes the end state. It
// returns when every goroutine it started has stopped.
func (c *campaign) run(ctx context.Context) {
	start := time.Now()
	deadline := start.Add(c.cfg.Duration)
	defer func() { c.elapsed = time.Since(start) }()

	var bg sync.WaitGroup
	stop := make(chan struct{})
	bg.Add(1)
	go func() { defer bg.Done(); c.streamHistory(stop) }()
	if !c.cfg.Quiet {
		bg.Add(1)
		go func() { defer bg.Done(); c.w.mon.progress(c.stderr, start, c.cfg.Duration, stop) }()
	}

	// The workload does not stop when ctx ends: it must go on while the
	// faults heal, then stop cleanly, releasing its leases.
	wctx, stopWork := context.WithCancel(context.WithoutCancel(ctx))
	var workers sync.WaitGroup
	for _, wk := range c.workers {
		workers.Add(1)
		go func() { defer workers.Done(); wk.run(wctx) }()
	}

	in := &injector{w: c.w, clu: c.clu, clients: c.clients, start: start}
	in.run(ctx, c.sched, deadline)
	c.events = in.events
	healed := c.healAll(ctx)
	sleepCtx(ctx, time.Until(deadline))
	c.interrupted = ctx.Err() != nil

	stopWork()
	stopped := c.stopWorkers(&workers)
	c.observeLeftovers(healed)
	for _, wk := range c.workers {
		wk.close()
	}
	if !stopped {
		waitTimeout(&workers, 10*time.Second)
	}
	close(stop)
	bg.Wait()
	if err := c.w.rec.Flush(c.history); err != nil {
		c.fail("writing the history: %v", err)
	}
	if err := c.history.Sync(); err != nil {
		c.fail("writing the history: %v", err)
	}
	if c.w.traces != nil {
		if err := c.w.traces.close(); err != nil {
			c.fail("writing the trace: %v", err)
		}
	}
}

// streamHistory flushes the history to its file every second until stop
// closes, so that a crashed run still leaves one behind.
func (c *campaign) streamHistory(stop <-chan struct{}) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-t.C:
			if err := c.w.rec.Flush(c.history); err != nil {
				c.fail("writing the history: %v", err)
				return
			}
		}
	}
}

// healAll ends every client fault and heals the ensemble: the end state must
// be observed on a whole system. It returns when that was done.
func (c *campaign) healAll(ctx context.Context) time.Time {
	for _, cl := range c.clients {
		cl.set.Heal()
		cl.gate.thaw()
	}
	if err := c.clu.Heal(ctx); err != nil {
		c.fail("healing the ensemble: %v", err)
	}
	return time.Now()
}

// stopWorkers waits for the workload to end after its context was
// cancelled; it reports whether every worker stopped in time. zk.Lock cannot
// be cancelled: closing its connection is what ends its wait.
func (c *campaign) stopWorkers(workers *sync.WaitGroup) bool {
	bound := 3*c.w.timeout + 10*time.Second
	if waitTimeout(workers, bound) {
		return true
	}
	c.fail("clients still busy %v after the end; closing their sessions (the leftover check sees less)", bound)
	for _, wk := range c.workers {
		wk.close()
	}
	if !waitTimeout(workers, 30*time.Second) {
		c.fail("some clients did not stop; their last operations are missing from the history")
	}
	return false
}

// observeLeftovers records the lock nodes left under every lock path, once
// every fault has healed and a session lost to one has certainly expired (a
// session timeout, plus a second for the server's expiry buckets of one
// tick), while the clients' sessions are still open: closing one would
// delete its nodes and hide an orphan.
func (c *campaign) observeLeftovers(healed time.Time) {
	quiet := healed
	if now := time.Now(); now.After(quiet) {
		quiet = now
	}
	sleepCtx(context.Background(), time.Until(quiet.Add(c.w.timeout+time.Second)))
	for _, lp := range c.paths() {
		if err := c.leftover(lp.path); err != nil {
			c.fail("listing %s at the end: %v", lp.path, err)
		}
	}
}

// leftover records the lock nodes present under path, read after a sync.
func (c *campaign) leftover(p string) error {
	if _, err := c.observer.Sync(p); err != nil {
		return err
	}
	children, _, err := c.observer.Children(p)
	if err != nil {
		return err
	}
	nodes := make([]string, len(children))
	for i, ch := range children {
		nodes[i] = path.Join(p, ch)
	}
	at := c.w.rec.Now()
	c.w.rec.Add(checker.Record{Kind: checker.KindLeftover, Path: p, Call: at, Return: at, Nodes: nodes})
	return nil
}

func (c *campaign) paths() []*lockPath {
	return append(append([]*lockPath(nil), c.w.excl...), c.w.rw...)
}

// teardown closes what setup opened: clients, proxies, the run's nodes.
func (c *campaign) teardown() {
	for _, wk := range c.workers {
		wk.close()
	}
	for _, cl := range c.clients {
		cl.set.Close()
	}
	if c.observer != nil {
		if c.root != "" {
			deleteTree(c.observer, c.root)
		}
		c.observer.Close()
	}
	if c.history != nil {
		c.history.Close()
	}
	if c.w != nil && c.w.traces != nil {
		c.w.traces.close()
	}
}

// deleteTree removes the run's subtree, best effort: on a shared ensemble a
// campaign should leave nothing behind.
func deleteTree(conn *zk.Conn, p string) {
	children, _, err := conn.Children(p)
	if err == nil {
		for _, ch := range children {
			deleteTree(conn, path.Join(p, ch))
		}
	}
	conn.Delete(p, -1)
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
