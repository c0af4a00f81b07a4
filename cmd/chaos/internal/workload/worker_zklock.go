package workload

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklock/zklock/checker"
	"github.com/zklock/zklock/impl/zklock"
)

// zklockWorker runs a client's workload on zklock: Mutex and RWMutex leases,
// fenced writes through Lease.Guard, lost leases watched on Lease.Done. A lost
// session is replaced by a new one, as zklock's documentation says to.
type zklockWorker struct {
	*Client
	doneWatchers sync.WaitGroup // the goroutines watching Lease.Done

	mu   sync.Mutex      // guards sess against close from another goroutine
	sess *zklock.Session // the current session; nil before the first
}

// tryShare is the share of acquisitions made with TryLock.
const tryShare = 0.2

// acquireTimeout bounds a blocking Lock, so that waits end and are recorded.
const acquireTimeout = 10 * time.Second

// Run runs rounds until ctx ends.
func (w *zklockWorker) Run(ctx context.Context) {
	for ctx.Err() == nil {
		if !w.ensureSession(ctx) {
			continue
		}
		lp, mode := w.pick()
		w.round(ctx, lp, mode, w.rng.Float64() < tryShare)
		w.think(ctx, nil, 0, 100*time.Millisecond)
	}
}

// ensureSession makes a new session when there is none or the last was lost.
func (w *zklockWorker) ensureSession(ctx context.Context) bool {
	if w.sess != nil && w.sess.Err() == nil {
		return true
	}
	if w.sess != nil {
		w.sess.Close()
		w.setSession(nil)
	}
	w.gate.pass()
	sctx, cancel := context.WithTimeout(ctx, 3*w.w.Timeout)
	defer cancel()
	opts := []zklock.SessionOption{zklock.WithSessionTimeout(w.w.Cfg.SessionTimeout), w.w.Timing,
		zklock.WithLogger(QuietLog), zklock.WithTracer(w.w.tracer(w.name))}
	if w.w.Cfg.Auth != nil {
		opts = append(opts, zklock.WithAuth(AuthScheme, w.w.Cfg.Auth))
	}
	if w.w.TLS != nil {
		opts = append(opts, zklock.WithTLS(w.w.TLS))
	}
	s, err := zklock.NewSession(sctx, w.addrs(), opts...)
	if err != nil {
		w.think(ctx, nil, 200*time.Millisecond, 500*time.Millisecond)
		return false
	}
	w.setSession(s)
	w.w.Mon.Sessions.Add(1)
	return true
}

// round is one acquisition and, if it succeeds, a critical section and a
// release, all recorded.
func (w *zklockWorker) round(ctx context.Context, lp *LockPath, mode checker.Mode, try bool) {
	sid := checker.SessionID(w.sess.ID())
	acquire, err := w.acquirer(lp, mode, try)
	if err != nil {
		return // the session ended under us: the next round makes a new one
	}
	if !try {
		w.setState(StateWaiting, lp.Path)
	}
	lease, call, ret, err := w.timedAcquire(ctx, acquire)
	rec := checker.Record{Kind: checker.KindAcquire, Session: sid, Path: lp.Path, Mode: mode, Call: call, Return: ret}
	if !w.recordAcquire(rec, lease, err) {
		return
	}

	t := &tenure{lp: lp, mode: mode, token: lease.Token(), node: lease.Node(), session: sid, acqReturn: ret,
		done: lease.Done(), conn: w.sess.Conn()}
	w.begin(lease, t, mode, call)

	w.critical(ctx, t)
	w.release(ctx, t, lease.Unlock, lease.Err)
}

// acquireFailed records an acquisition (a lock's, a lease's or a campaign's)
// that returned err. Failed must mean no lease and no node left to grant:
// TryLock or TryAcquire found no room, or our own deadline ended the wait
// and zklock withdrew (a candidate may have led for a moment, which the
// observed-value check allows for). Anything else is unknown.
// timedAcquire calls acquire, bounded by acquireTimeout, between two
// passes of the gate, and returns its result with the history's times of
// its call and return.
func (w *zklockWorker) timedAcquire(ctx context.Context, acquire func(context.Context) (*zklock.Lease, error)) (lease *zklock.Lease, call, ret int64, err error) {
	actx, cancel := context.WithTimeout(ctx, acquireTimeout)
	defer cancel()
	w.gate.pass()
	call = w.now()
	lease, err = acquire(actx)
	w.gate.pass()
	ret = w.now()
	return lease, call, ret, err
}

// recordAcquire adds an acquire's record to the history: rec with the
// lease's token and node, or the failure. It says whether a lease came.
func (w *zklockWorker) recordAcquire(rec checker.Record, lease *zklock.Lease, err error) bool {
	if err != nil {
		w.acquireFailed(rec, err)
		return false
	}
	rec.Outcome, rec.Token, rec.Node = checker.OutcomeOK, lease.Token(), lease.Node()
	_, rec.Rewound = lease.TokenRewound()
	w.add(rec)
	return true
}

func (w *zklockWorker) acquireFailed(rec checker.Record, err error) {
	w.setState(StateIdle, "")
	rec.Outcome, rec.Error = checker.OutcomeUnknown, err.Error()
	if errors.Is(err, zklock.ErrLocked) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		rec.Outcome = checker.OutcomeFailed
	}
	w.add(rec)
}

// release ends tenure t with end (a Lease's Unlock, a Leadership's
// Resign), recorded as a release; lost is the Lease's or Leadership's Err.
func (w *zklockWorker) release(ctx context.Context, t *tenure, end func(context.Context) error, lost func() error) {
	w.setState(StateIdle, "")
	w.gate.pass()
	call := w.now()
	w.w.Mon.End(t.belief)
	uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*w.w.Timeout)
	err := end(uctx)
	cancel()
	w.gate.pass()
	ret := w.now()
	rel := checker.Record{Kind: checker.KindRelease, Session: t.session, Path: t.lp.Path, Call: call, Return: ret,
		Outcome: checker.OutcomeOK, Token: t.token, Node: t.node}
	if err != nil {
		rel.Error = err.Error()
		// Failed must mean this call certainly deleted nothing: the lease had
		// already been lost, so it did not touch the node. Anything else
		// (the node was found gone, the delete went on in the background) is
		// unknown.
		rel.Outcome = checker.OutcomeUnknown
		if errors.Is(lost(), zklock.ErrLockLost) {
			rel.Outcome = checker.OutcomeFailed
		}
	}
	w.add(rel)
}

// acquirer returns the call that takes the lease asked for.
func (w *zklockWorker) acquirer(lp *LockPath, mode checker.Mode, try bool) (func(context.Context) (*zklock.Lease, error), error) {
	var opts []zklock.LockOption
	if w.w.Cfg.Auth != nil {
		opts = append(opts, zklock.WithACL(LockACL()))
	}
	if !lp.RW {
		m, err := zklock.NewMutex(w.sess, lp.Path, opts...)
		if err != nil {
			return nil, err
		}
		if try {
			return m.TryLock, nil
		}
		return m.Lock, nil
	}
	rw, err := zklock.NewRWMutex(w.sess, lp.Path, opts...)
	if err != nil {
		return nil, err
	}
	switch {
	case mode == checker.ModeRead && try:
		return rw.TryRLock, nil
	case mode == checker.ModeRead:
		return rw.RLock, nil
	case try:
		return rw.TryLock, nil
	default:
		return rw.Lock, nil
	}
}

// watch records the loss of a lease the moment the application sees
// Lease.Done close; it passes the gate first, so a frozen client sees it
// only when it thaws, as a frozen process would.
func (w *zklockWorker) watch(lease ending, t *tenure) {
	defer w.doneWatchers.Done()
	<-lease.Done()
	w.gate.pass()
	ret := w.now()
	err := lease.Err()
	if !errors.Is(err, zklock.ErrLockLost) || t.crashed.Load() {
		return // released, or a crash's release record ends the tenure
	}
	w.w.Mon.End(t.belief)
	call := min(t.lastKnown(), ret)
	w.add(checker.Record{Kind: checker.KindLost, Session: t.session, Path: t.lp.Path, Call: call, Return: ret,
		Outcome: checker.OutcomeOK, Token: t.token, Node: t.node, Error: err.Error()})
}

// begin starts tenure t of lease, acquired by the call at call: the
// monitor's belief (in monMode), the write its critical section makes
// (fenced by the lease unless --no-fence), the holding state shown on the
// progress line, and the watcher of the lease's end.
func (w *zklockWorker) begin(lease held, t *tenure, monMode checker.Mode, call int64) {
	t.belief = w.w.Mon.Begin(w.name, t.lp.Path, monMode, t.token, call)
	if w.w.Cfg.NoFence {
		t.zkWrite = plainWrite(w.sess.Conn(), t.lp.Data)
	} else {
		t.zkWrite, t.guarded = guardedWrite(lease, t.lp.Data), true
	}
	w.setHolding(t.lp.Path, t.node)
	w.doneWatchers.Add(1)
	go w.watch(lease, t)
}

// held is a zklock.Lease or a zklock.Leadership: it ends and fences writes.
type held interface {
	ending
	guarding
}

// ending is what watch needs of a zklock.Lease or a zklock.Leadership.
type ending interface {
	Done() <-chan struct{}
	Err() error
}

// guarding is a zklock.Lease or a zklock.Leadership: both fence writes.
type guarding interface {
	Guard(ctx context.Context, ops ...any) ([]zk.MultiResponse, error)
}

// guardedWrite writes through Lease.Guard (or Leadership.Guard): the setData
// happens only if the lease's node is still there.
func guardedWrite(lease guarding, path string) func(context.Context, string) (checker.Outcome, bool, error) {
	return func(ctx context.Context, value string) (checker.Outcome, bool, error) {
		_, err := lease.Guard(ctx, &zk.SetDataRequest{Path: path, Data: []byte(value), Version: -1})
		switch {
		case err == nil:
			return checker.OutcomeOK, false, nil
		case errors.Is(err, zklock.ErrNotHeld), errors.Is(err, zklock.ErrLockLost):
			// The lease had ended before the call, or the multi's check on our
			// lock node failed: the multi applied nothing.
			return checker.OutcomeFailed, false, err
		default:
			return checker.OutcomeUnknown, transient(err), err
		}
	}
}

func (w *zklockWorker) setSession(s *zklock.Session) {
	w.mu.Lock()
	w.sess = s
	w.mu.Unlock()
}

// Close ends the session and waits for the watchers, which end with it. It
// may be called while Run is still going: Run then finds its session lost.
func (w *zklockWorker) Close() {
	w.mu.Lock()
	s := w.sess
	w.mu.Unlock()
	if s != nil {
		s.Close()
	}
	w.doneWatchers.Wait()
}
