package load

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path"
	"sync"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklock/zklock/impl/zklock"
)

// runner is one load campaign in progress.
type runner struct {
	cfg   Config
	addrs []string
	root  string
	start time.Time
	notes io.Writer
	admin *zklock.Session // set-up, clean-up and watching the queue

	mu       sync.Mutex
	acquires Acquires
	errors   []string
}

func (r *runner) since() time.Duration { return time.Since(r.start) }

func (r *runner) fail(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

// acquired records one acquisition's time, and whether it broke the bound.
func (r *runner) acquired(session, path string, took time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.acquires.Count++
	r.acquires.Slowest = max(r.acquires.Slowest, took)
	if took > r.cfg.AcquireBound {
		r.acquires.Slow = append(r.acquires.Slow, SlowAcquire{Session: session, Path: path, Took: took})
	}
}

// Run runs a load campaign on the ensemble at addrs under the ZooKeeper
// path root (made, and deleted at the end), with progress notes on notes.
// ctx ending stops it early; what was measured is returned.
func Run(ctx context.Context, cfg Config, addrs []string, root string, notes io.Writer) *Result {
	r := &runner{cfg: cfg, addrs: addrs, root: root, start: time.Now(), notes: notes}
	res := &Result{}
	sample := func(label string) {
		s, err := takeSample(ctx, addrs, label, r.since())
		if err != nil {
			fmt.Fprintf(notes, "chaos load: sample %s: %v\n", label, err)
		}
		res.Samples = append(res.Samples, s)
	}
	sample("start")
	opts := []zklock.SessionOption{zklock.WithSessionTimeout(cfg.SessionTimeout), zklock.WithEnsembleTiming(cfg.TickTime, cfg.SyncLimit)}
	admin, err := zklock.NewSession(ctx, addrs, opts...)
	if err != nil {
		res.Errors = append(res.Errors, fmt.Sprintf("admin session: %v", err))
		return res
	}
	r.admin = admin
	defer func() {
		DeleteTree(admin.Conn(), root)
		admin.Close()
		sample("closed")
	}()
	sessions, err := r.connect(ctx, opts)
	if err != nil {
		res.Errors = append(res.Errors, err.Error())
		return res
	}
	if err := r.makePaths(admin.Conn(), sessions.busy); err != nil {
		sessions.close()
		res.Errors = append(res.Errors, err.Error())
		return res
	}
	r.drive(ctx, res, sessions, sample)
	end := time.Now()
	for _, b := range sessions.busy {
		res.Sessions = append(res.Sessions, b.stats(end, cfg.Workers))
	}
	for _, w := range sessions.waiters {
		res.Waiters = append(res.Waiters, w.stats(end, 0))
	}
	sample("end")
	sessions.close()
	res.Elapsed = r.since()
	r.mu.Lock()
	res.Acquires = r.acquires
	res.Errors = append(res.Errors, r.errors...)
	r.mu.Unlock()
	return res
}

// drive runs the busy sessions for the duration and the queue rounds beside
// them (the last round is let finish), sampling every SampleEvery.
func (r *runner) drive(ctx context.Context, res *Result, ss *sessionSet, sample func(string)) {
	lctx, stop := context.WithTimeout(ctx, r.cfg.Duration)
	defer stop()
	var wg sync.WaitGroup
	pace := time.Duration(0)
	if r.cfg.Rate > 0 {
		pace = time.Duration(float64(time.Second) * float64(r.cfg.Workers) / float64(r.cfg.Rate))
	}
	for _, b := range ss.busy {
		wg.Add(1)
		go func() { defer wg.Done(); r.watchSession(lctx, b) }()
		for j := range b.leases {
			wg.Add(1)
			go func() { defer wg.Done(); b.hold(lctx, j, r.cfg.Churn) }()
		}
		for w := range r.cfg.Workers {
			wg.Add(1)
			go func() { defer wg.Done(); b.work(lctx, w, pace, r.cfg.GuardEvery) }()
		}
	}
	// The waiter sessions are watched until the last round has finished,
	// which may be after the duration.
	wctx, wstop := context.WithCancel(ctx)
	for _, w := range ss.waiters {
		wg.Add(1)
		go func() { defer wg.Done(); r.watchSession(wctx, w) }()
	}
	rounds := make(chan []Round, 1)
	go func() { rounds <- r.rounds(ctx, ss.waiters) }()
	tick := time.NewTicker(r.cfg.SampleEvery)
	defer tick.Stop()
	for lctx.Err() == nil {
		select {
		case <-tick.C:
			sample("run")
		case <-lctx.Done():
		}
	}
	res.Rounds = <-rounds
	wstop()
	wg.Wait()
}

// watchSession records the session's loss, if it comes before ctx ends.
func (r *runner) watchSession(ctx context.Context, b *busy) {
	select {
	case <-b.s.Done():
		if ctx.Err() != nil {
			return
		}
		b.mu.Lock()
		b.sessLost, b.lostAfter = fmt.Sprint(b.s.Err()), r.since()
		b.mu.Unlock()
		fmt.Fprintf(r.notes, "chaos load: %s lost after %v: %v\n", b.name, r.since().Round(time.Millisecond), b.s.Err())
	case <-ctx.Done():
	}
}

// rounds runs queue rounds until the duration has passed (or ctx ends).
func (r *runner) rounds(ctx context.Context, waiters []*busy) []Round {
	out := []Round{}
	if r.cfg.Waiters == 0 || len(waiters) == 0 {
		return out
	}
	for n := 1; ctx.Err() == nil && r.since() < r.cfg.Duration; n++ {
		q, err := r.round(ctx, fmt.Sprintf("%s/queue", r.root), waiters, r.cfg.Waiters)
		out = append(out, q)
		if err != nil {
			r.fail("queue round %d: %v", n, err)
			break
		}
		fmt.Fprintf(r.notes, "chaos load: queue round %d: %d waiters queued in %v, drained in %v\n",
			n, q.Queued, q.Queue.Round(time.Millisecond), q.Drain.Round(time.Millisecond))
	}
	return out
}

// sessionSet is the campaign's sessions.
type sessionSet struct {
	busy    []*busy
	waiters []*busy // sessions of the queue's waiters: no leases of their own
}

func (ss *sessionSet) close() {
	for _, b := range ss.busy {
		b.s.Close()
	}
	for _, w := range ss.waiters {
		w.s.Close()
	}
}

// connect opens the busy and waiter sessions.
func (r *runner) connect(ctx context.Context, opts []zklock.SessionOption) (*sessionSet, error) {
	ss := &sessionSet{}
	for i := range r.cfg.Sessions {
		s, err := zklock.NewSession(ctx, r.addrs, opts...)
		if err != nil {
			ss.close()
			return nil, fmt.Errorf("busy session %d: %w", i+1, err)
		}
		name := fmt.Sprintf("s%d", i+1)
		b := &busy{r: r, name: name, s: s, dir: path.Join(r.root, name)}
		b.leases = make([]atomicLease, r.cfg.LocksPerS)
		ss.busy = append(ss.busy, b)
	}
	if r.cfg.Waiters > 0 {
		for i := range r.cfg.WaiterSessions {
			s, err := zklock.NewSession(ctx, r.addrs, opts...)
			if err != nil {
				ss.close()
				return nil, fmt.Errorf("waiter session %d: %w", i+1, err)
			}
			ss.waiters = append(ss.waiters, &busy{r: r, name: fmt.Sprintf("w%d", i+1), s: s, first: r.start})
		}
	}
	return ss, nil
}

// makePaths creates the run's root, each busy session's folder and the
// registers its Guard writes.
func (r *runner) makePaths(conn *zk.Conn, busy []*busy) error {
	mk := []string{path.Dir(r.root), r.root}
	for _, b := range busy {
		mk = append(mk, b.dir)
		for j := range b.leases {
			mk = append(mk, b.register(j))
		}
	}
	for _, p := range mk {
		if _, err := conn.Create(p, nil, 0, zk.WorldACL(zk.PermAll)); err != nil && !errors.Is(err, zk.ErrNodeExists) {
			return fmt.Errorf("creating %s: %w", p, err)
		}
	}
	return nil
}

// DeleteTree removes a run's subtree, best effort: on a shared ensemble a
// run should leave nothing behind.
func DeleteTree(conn *zk.Conn, p string) {
	children, _, err := conn.Children(p)
	if err == nil {
		for _, ch := range children {
			DeleteTree(conn, path.Join(p, ch))
		}
	}
	conn.Delete(p, -1)
}
