package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-zookeeper/zk"
)

// The queue axis: N waiters queue on one lock path behind a holder, spread
// over a few sessions (--queue-sessions), as a service's worker pool would
// queue them. The run times the join (from the first Lock call to the last
// waiter's node standing in the queue and every waiter set up: settleQueue)
// and the drain (from the holder's release to the last grant, each waiter
// releasing the moment it is granted), and counts what the servers received during each (mntr). A
// queue of thousands should drain at the rate a queue of sixteen does: what
// a hand-off costs must not grow with the queue behind it. zklock's Mutex
// and go-zookeeper's zk.Lock are measured; Curator's harness runs one lock
// per JVM thread and is left out of this axis.

// kindQueue is a queue run's kind; its Clients is the number of waiters.
const kindQueue = "queue"

// queueImpls are the implementations the queue axis measures.
var queueImpls = []string{implZklock, implZkLock}

// queuePoll is how often the join's end is polled for, with one exists on
// the lock path (its Stat's child count), subtracted from the join's
// requests.
const queuePoll = 20 * time.Millisecond

// queueWarm is the most waiters the unmeasured queue before an
// implementation's measured ones has (measureQueues).
const queueWarm = 64

// queueSession is one session of an implementation on one lock path; its
// lock may be called by many goroutines at once, each a waiter of its own.
type queueSession struct {
	lock  func(context.Context) (func(context.Context) error, error)
	close func()
}

func dialQueueSession(ctx context.Context, cfg config, impl, path string) (queueSession, error) {
	switch impl {
	case implZklock:
		// A Mutex takes concurrent Lock calls, each a contender of its own.
		c, err := dialZklock(ctx, cfg, path, false)
		if err != nil {
			return queueSession{}, err
		}
		return queueSession{lock: func(ctx context.Context) (func(context.Context) error, error) { return c.lock(ctx, true) },
			close: c.close}, nil
	case implZkLock:
		conn, err := connect(ctx, cfg)
		if err != nil {
			return queueSession{}, err
		}
		lock := func(context.Context) (func(context.Context) error, error) {
			l := zk.NewLock(conn, path, zk.WorldACL(zk.PermAll)) // one per waiter: a zk.Lock holds one node
			if err := l.Lock(); err != nil {
				return nil, err
			}
			return func(context.Context) error { return l.Unlock() }, nil
		}
		return queueSession{lock: lock, close: conn.Close}, nil
	}
	return queueSession{}, fmt.Errorf("queue axis: no %s", impl)
}

// parseQueue reads --queue: comma-separated waiter counts, each at least 1,
// duplicates dropped; "" is none.
func parseQueue(s string) ([]int, error) {
	var ns []int
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("--queue: %q is not a positive number of waiters", f)
		}
		if !slices.Contains(ns, n) {
			ns = append(ns, n)
		}
	}
	return ns, nil
}

// measureQueues runs impl's queue runs, one per waiter count, each on a
// path of its own.
func measureQueues(ctx context.Context, cfg config, impl string, mk func(string) (string, error)) ([]run, error) {
	if !slices.Contains(queueImpls, impl) {
		return nil, nil
	}
	// One unmeasured queue first: a queue run's sessions are new, and the
	// first drain on servers that have just started (or just served
	// another implementation) ran up to 4x slower than the next, whichever
	// implementation it was.
	if len(cfg.queue) > 0 {
		p, err := mk("queue-warm")
		if err != nil {
			return nil, err
		}
		if _, err := queueRun(ctx, cfg, impl, p, min(cfg.queue[0], queueWarm)); err != nil {
			return nil, fmt.Errorf("warm-up queue: %w", err)
		}
	}
	var runs []run
	for _, n := range cfg.queue {
		p, err := mk(fmt.Sprintf("queue-%d", n))
		if err != nil {
			return nil, err
		}
		r, err := queueRun(ctx, cfg, impl, p, n)
		if err != nil {
			return nil, fmt.Errorf("queue of %d: %w", n, err)
		}
		runs = append(runs, r)
	}
	return runs, nil
}

// queueRun is one join and drain of n waiters on path.
func queueRun(ctx context.Context, cfg config, impl, path string, n int) (run, error) {
	sessions := make([]queueSession, cfg.queueSessions+1) // the last is the holder's
	defer func() {
		for _, s := range sessions {
			if s.close != nil {
				s.close()
			}
		}
	}()
	for i := range sessions {
		s, err := dialQueueSession(ctx, cfg, impl, path)
		if err != nil {
			return run{}, err
		}
		sessions[i] = s
	}
	release, err := sessions[cfg.queueSessions].lock(ctx)
	if err != nil {
		return run{}, fmt.Errorf("the holder: %w", err)
	}
	w := &queueWaiters{}
	before, okBefore := mntrSnapshot(ctx, cfg.servers)
	start := time.Now()
	for i := range n {
		w.wg.Add(1)
		go w.wait(ctx, sessions[i%cfg.queueSessions])
	}
	polls, err := waitQueued(ctx, cfg.admin, path, n+1, w)
	if err == nil {
		err = settleQueue(ctx, cfg.servers, cfg.queueSessions+1, w)
	}
	if err != nil {
		// The waiters still queued would wait for ever (zk.Lock takes no
		// context): the sessions' close, deferred above, ends them.
		return run{}, err
	}
	r := run{Impl: impl, Kind: kindQueue, Clients: n, Ops: int64(n), Join: time.Since(start)}
	joined, okJoined := mntrSnapshot(ctx, cfg.servers)
	drain := time.Now()
	w.mu.Lock()
	w.last = drain
	w.mu.Unlock()
	if err := release(ctx); err != nil {
		return run{}, fmt.Errorf("the holder's release: %w", err) // the sessions' close ends the waiters
	}
	w.wg.Wait()
	if err := w.err(); err != nil {
		return run{}, err
	}
	r.Elapsed, r.Handoff = w.end.Sub(drain), w.handoffs
	if after, ok := mntrSnapshot(ctx, cfg.servers); ok && okJoined {
		r.Server = loadBetween(joined, after)
	}
	if okBefore && okJoined {
		r.JoinLoad = loadBetween(before, joined)
		r.JoinLoad.Requests -= float64(polls)
	}
	return r, nil
}

// queueWaiters are the waiters of one queue run.
type queueWaiters struct {
	wg       sync.WaitGroup
	holders  atomic.Int32 // granted and not yet released: at most one
	mu       sync.Mutex
	last     time.Time       // the last grant, or the holder's release
	end      time.Time       // the last grant
	handoffs []time.Duration // grant to grant (the first from the holder's release)
	errs     []error
}

// wait is one waiter: it locks, and releases at once.
func (w *queueWaiters) wait(ctx context.Context, s queueSession) {
	defer w.wg.Done()
	unlock, err := s.lock(ctx)
	if err != nil {
		w.fail(err)
		return
	}
	if w.holders.Add(1) > 1 {
		w.fail(errors.New("two waiters granted at once"))
	}
	now := time.Now()
	w.mu.Lock()
	w.handoffs = append(w.handoffs, now.Sub(w.last))
	w.last, w.end = now, now
	w.mu.Unlock()
	w.holders.Add(-1)
	if err := unlock(ctx); err != nil {
		w.fail(fmt.Errorf("release: %w", err))
	}
}

func (w *queueWaiters) fail(err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.errs = append(w.errs, err)
}

func (w *queueWaiters) err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return errors.Join(w.errs...)
}

// waitQueued polls path until it has want children (every waiter's node
// and the holder's), and returns the polls it sent. A waiter's error ends
// it: that queue will never fill.
func waitQueued(ctx context.Context, admin *zk.Conn, path string, want int, w *queueWaiters) (int, error) {
	for polls := 1; ; polls++ {
		_, st, err := admin.Exists(path)
		if err != nil {
			return polls, fmt.Errorf("polling the queue: %w", err)
		}
		if st != nil && int(st.NumChildren) >= want {
			return polls, nil
		}
		if err := w.err(); err != nil {
			return polls, err
		}
		select {
		case <-time.After(queuePoll):
		case <-ctx.Done():
			return polls, ctx.Err()
		}
	}
}

// The join ends once the queue stands and its waiters have set up: every
// node can stand while waiters are still listing the queue and setting
// their watches, and a drain timed from then would time that set-up too,
// the more so the more requests a waiter's set-up makes. Settled: two
// windows in a row in which the servers received no more requests than the
// idle sessions' pings and heartbeats (queueSettleSlack per session, at
// least 2), given up after queueSettleMax.
const (
	queueSettleWindow = 100 * time.Millisecond
	queueSettleSlack  = 0.25
	queueSettleMax    = 2 * time.Minute
)

// settleQueue waits until the servers are quiet (above); without mntr the
// join ends when the last node stands.
func settleQueue(ctx context.Context, servers []string, sessions int, w *queueWaiters) error {
	slack := max(2, queueSettleSlack*float64(sessions))
	prev, ok := mntrSnapshot(ctx, servers)
	deadline := time.Now().Add(queueSettleMax)
	for quiet := 0; ok && quiet < 2 && time.Now().Before(deadline); {
		select {
		case <-time.After(queueSettleWindow):
		case <-ctx.Done():
			return ctx.Err()
		}
		if err := w.err(); err != nil {
			return err
		}
		var cur mntrCounters
		if cur, ok = mntrSnapshot(ctx, servers); ok {
			quiet++
			if cur.packets-prev.packets > slack {
				quiet = 0
			}
			prev = cur
		}
	}
	return nil
}

// Per-run values of a queue run, NaN where there are none.
func joinSeconds(r run) float64 { return r.Join.Seconds() }

func joinReqPerWaiter(r run) float64 {
	if r.JoinLoad == nil || r.Ops == 0 {
		return math.NaN()
	}
	return r.JoinLoad.Requests / float64(r.Ops)
}

// queueReqPerAcq is every request of the run (join and drain, polls
// excluded) per acquisition: a waiter whose node stands may still be
// listing when the join ends, so the split between the two says less than
// their sum.
func queueReqPerAcq(r run) float64 {
	if r.JoinLoad == nil || r.Server == nil || r.Ops == 0 {
		return math.NaN()
	}
	return (r.JoinLoad.Requests + r.Server.Requests) / float64(r.Ops)
}

// queueBytesPerAcq is every byte the servers sent during the run (join and
// drain, the polls' few included) per acquisition.
func queueBytesPerAcq(r run) float64 {
	if r.JoinLoad == nil || r.Server == nil || r.Ops == 0 {
		return math.NaN()
	}
	return (r.JoinLoad.Bytes + r.Server.Bytes) / float64(r.Ops)
}

// queue: join and drain of every waiter count, with the goals' ratios.
func (rw *reportWriter) queue() {
	t, w := rw.t, rw.w
	var impls []string
	for _, impl := range queueImpls {
		if rw.has(impl) {
			impls = append(impls, impl)
		}
	}
	if len(rw.cfg.queue) == 0 || len(impls) == 0 {
		return
	}
	w("## Queue: N waiters on one path, join and drain\n\n")
	w("N waiters over %d sessions queue on one lock path behind a holder (each session's waiters are goroutines "+
		"calling Lock at once; zk.Lock: one `zk.Lock` per waiter on the session's connection). **Join** runs from "+
		"the first Lock call until the path has every waiter's node (polled every %v with one `exists`, not counted "+
		"below) and the servers are quiet, every waiter set up (two windows of %v with no more requests than the idle "+
		"sessions' pings). Each implementation's measured queues in a repetition come after one unmeasured queue of "+
		"at most %d waiters (the first drain on new sessions and servers is slow, whoever runs it). "+
		"**Drain** runs from the holder's release to the last grant; each waiter releases the moment it is "+
		"granted, so the drain is N hand-offs in a row. Requests are what the three servers received (`mntr`): "+
		"during the join per waiter, during the drain per acquisition (its release included), and both "+
		"together per acquisition (a waiter whose node stands may still be listing when the join ends, so the "+
		"sum says more than the split); bytes are what they sent (replies and watch events, join and drain). Medians over "+
		"repetitions (range); ratios are taken within a repetition.\n\n", rw.cfg.queueSessions, queuePoll, queueSettleWindow, queueWarm)
	w("| implementation | N | join | join requests per waiter | drain hand-offs/s | ÷ own N=%d | ÷ zk.Lock | hand-off p50 | drain requests per acquisition | requests per acquisition | bytes sent per acquisition |\n", rw.cfg.queue[0])
	w("|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, impl := range impls {
		for _, n := range rw.cfg.queue {
			rate := t.per(impl, kindQueue, n, opsRate)
			w("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", label[impl], n,
				over(t.per(impl, kindQueue, n, joinSeconds)).ms(), over(t.per(impl, kindQueue, n, joinReqPerWaiter)).plain(),
				over(rate).rate(), over(ratio(rate, t.per(impl, kindQueue, rw.cfg.queue[0], opsRate))).ratio(),
				dashIf(impl == implZkLock, over(ratio(rate, t.per(implZkLock, kindQueue, n, opsRate))).ratio()),
				over(t.per(impl, kindQueue, n, hand50)).ms(), over(t.per(impl, kindQueue, n, reqPerAcq)).plain(),
				over(t.per(impl, kindQueue, n, queueReqPerAcq)).plain(), over(t.per(impl, kindQueue, n, queueBytesPerAcq)).plain())
		}
	}
	w("\n")
	if len(impls) == len(queueImpls) {
		var at []string
		for _, n := range rw.cfg.queue[1:] {
			at = append(at, fmt.Sprintf("N = %d: drain %s of zklock's own N = %d rate and %s of zk.Lock's, join %s of zk.Lock's time",
				n, over(ratio(t.per(implZklock, kindQueue, n, opsRate), t.per(implZklock, kindQueue, rw.cfg.queue[0], opsRate))).ratio(),
				rw.cfg.queue[0], over(ratio(t.per(implZklock, kindQueue, n, opsRate), t.per(implZkLock, kindQueue, n, opsRate))).ratio(),
				over(ratio(t.per(implZklock, kindQueue, n, joinSeconds), t.per(implZkLock, kindQueue, n, joinSeconds))).ratio()))
		}
		if len(at) > 0 {
			w("The goals for this axis: a drain at least 0.8× the rate of a short queue and 1.4× zk.Lock's, a join "+
				"at most 1.2× zk.Lock's time. Measured here: %s.\n\n", strings.Join(at, "; "))
		}
	}
}
