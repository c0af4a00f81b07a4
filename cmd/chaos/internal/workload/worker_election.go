package workload

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/zklock/zklock/checker"
	"github.com/zklock/zklock/impl/zklock"
)

// LockElection runs zklock's leader election instead of its locks: the
// campaign must pass.
const LockElection = "election"

// IsObserver says whether client i of an election campaign observes rather
// than campaigns: every third client, so that two candidates remain for
// every observer.
func IsObserver(i int) bool { return i%3 == 2 }

// electionWorker runs a client's workload on zklock's Election: a candidate
// campaigns with a value of its own, leads for a while (fenced writes as a
// lock holder's, then proclaims), and resigns or crashes (closes its
// session); an observer follows every election path and records each
// report. A leadership is recorded as an exclusive lease on the election
// path, so the checker's lock checks judge leaders as holders.
type electionWorker struct {
	*zklockWorker
	observer bool
}

// crashShare is the share of leaderships that end by closing the session
// instead of Resign, as a process that dies would.
const crashShare = 0.2

// Run runs rounds until ctx ends.
func (w *electionWorker) Run(ctx context.Context) {
	for ctx.Err() == nil {
		if !w.ensureSession(ctx) {
			continue
		}
		if w.observer {
			w.observe(ctx)
			continue
		}
		lp, _ := w.pick()
		w.lead(ctx, lp)
		w.think(ctx, nil, 0, 100*time.Millisecond)
	}
}

func (w *electionWorker) election(lp *LockPath) (*zklock.Election, error) {
	var opts []zklock.LockOption
	if w.w.Cfg.Auth != nil {
		opts = append(opts, zklock.WithACL(LockACL()))
	}
	return zklock.NewElection(w.sess, lp.Path, opts...)
}

// lead is one campaign and, if it leads, a leadership: a critical section,
// proclaims, then Resign or a crash, all recorded.
func (w *electionWorker) lead(ctx context.Context, lp *LockPath) {
	sid := checker.SessionID(w.sess.ID())
	e, err := w.election(lp)
	if err != nil {
		return // the session ended under us: the next round makes a new one
	}
	w.seq++
	value := fmt.Sprintf("%s/campaign/%d", w.name, w.seq)
	w.setState(StateWaiting, lp.Path)
	actx, cancel := context.WithTimeout(ctx, acquireTimeout)
	w.gate.pass()
	call := w.now()
	l, err := e.Campaign(actx, []byte(value))
	w.gate.pass()
	ret := w.now()
	cancel()
	rec := checker.Record{Kind: checker.KindAcquire, Session: sid, Path: lp.Path, Mode: checker.ModeExclusive,
		Call: call, Return: ret, Value: value}
	if err != nil {
		w.acquireFailed(rec, err)
		return
	}
	rec.Outcome, rec.Token, rec.Node = checker.OutcomeOK, l.Epoch(), l.Node()
	_, rec.Rewound = l.EpochRewound()
	w.add(rec)

	t := &tenure{lp: lp, mode: checker.ModeExclusive, token: l.Epoch(), node: l.Node(), session: sid, acqReturn: ret,
		done: l.Done(), conn: w.sess.Conn()}
	w.begin(l, t, checker.ModeExclusive, call)

	w.critical(ctx, t)
	w.proclaims(ctx, l, t, value)
	if w.rng.Float64() < crashShare && !t.ended() {
		w.crash(t)
		return
	}
	w.release(ctx, t, l.Resign, l.Err)
}

// proclaims proclaims one or two new values, and now and then the current
// one again, unchanged: a leader re-asserting itself, which observers must
// not report twice. It stops at the first proclaim that does not succeed.
func (w *electionWorker) proclaims(ctx context.Context, l *zklock.Leadership, t *tenure, current string) {
	n := 1 + w.rng.IntN(2)
	for i := 0; i < n; i++ {
		if !w.think(ctx, t.done, 30*time.Millisecond, 150*time.Millisecond) || t.ended() {
			return
		}
		value := w.nextValue(t.token)
		if w.rng.IntN(3) == 0 {
			value = current
		}
		w.gate.pass()
		pctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), w.w.Timeout)
		call := w.now()
		err := l.Proclaim(pctx, []byte(value))
		cancel()
		w.gate.pass()
		ret := w.now()
		rec := checker.Record{Kind: checker.KindProclaim, Session: t.session, Path: t.lp.Path, Call: call, Return: ret,
			Outcome: checker.OutcomeOK, Token: t.token, Value: value, Error: errText(err)}
		switch {
		case err == nil:
			current = value
		case errors.Is(err, zklock.ErrLockLost), errors.Is(err, zklock.ErrNotHeld):
			// Proclaim's multi checks our node first: it wrote nothing.
			rec.Outcome = checker.OutcomeFailed
		default:
			rec.Outcome = checker.OutcomeUnknown
		}
		w.add(rec)
		if err != nil {
			return
		}
	}
}

// crash ends the leadership (or a semaphore's lease) as a dying process would: the session is
// closed, which deletes the candidate's node if the server hears of it, else
// its expiry does. Recorded as a release of unknown outcome from the moment
// the client stopped believing it leads.
func (w *zklockWorker) crash(t *tenure) {
	w.setState(StateIdle, "")
	w.gate.pass()
	t.crashed.Store(true)
	call := w.now()
	w.w.Mon.End(t.belief)
	w.sess.Close()
	ret := w.now()
	w.add(checker.Record{Kind: checker.KindRelease, Session: t.session, Path: t.lp.Path, Call: call, Return: ret,
		Outcome: checker.OutcomeUnknown, Token: t.token, Node: t.node, Error: "crashed: closed the session without resigning"})
}

// observe follows every election path in one session until the session or
// ctx ends, or every observation ended, then closes the session: a new
// observation needs a new session, so that the observed-order check, which
// keys an observation by its session, never joins two.
func (w *electionWorker) observe(ctx context.Context) {
	sid := checker.SessionID(w.sess.ID())
	var wg sync.WaitGroup
	for _, lp := range w.w.Excl {
		e, err := w.election(lp)
		if err != nil {
			break
		}
		obs, err := e.Observe(ctx)
		if err != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for info := range obs.Leaders() {
				w.gate.pass()
				at := w.now()
				w.add(checker.Record{Kind: checker.KindObserve, Session: sid, Path: lp.Path, Call: at, Return: at,
					Outcome: checker.OutcomeOK, Token: info.Epoch, Node: info.Node, Value: string(info.Value)})
			}
		}()
	}
	wg.Wait()
	w.sess.Close()
}
