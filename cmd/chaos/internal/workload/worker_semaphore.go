package workload

import (
	"context"
	"time"

	"github.com/zklock/zklock/checker"
	"github.com/zklock/zklock/impl/zklock"
)

// LockSemaphore runs zklock's counting Semaphore instead of its locks: the
// --locks paths are semaphores of Config.Max leases. The campaign must pass.
const LockSemaphore = "semaphore"

// semaphoreWorker runs a client's workload on zklock's Semaphore: it takes a
// lease (Acquire, sometimes TryAcquire), holds it for a while doing fenced
// writes through Lease.Guard, and releases it with Unlock or now and then
// crashes (closes its session). A lease is recorded as an exclusive acquire
// carrying the semaphore's Max, which the checker's semaphore checks judge.
type semaphoreWorker struct {
	*zklockWorker
}

// Run runs rounds until ctx ends.
func (w *semaphoreWorker) Run(ctx context.Context) {
	for ctx.Err() == nil {
		if !w.ensureSession(ctx) {
			continue
		}
		lp, _ := w.pick()
		w.round(ctx, lp, w.rng.Float64() < tryShare)
		w.think(ctx, nil, 0, 100*time.Millisecond)
	}
}

// round is one acquisition and, if it succeeds, a critical section and an
// Unlock or a crash, all recorded.
func (w *semaphoreWorker) round(ctx context.Context, lp *LockPath, try bool) {
	sid := checker.SessionID(w.sess.ID())
	var opts []zklock.LockOption
	if w.w.Cfg.Auth != nil {
		opts = append(opts, zklock.WithACL(LockACL()))
	}
	sem, err := zklock.NewSemaphore(w.sess, lp.Path, w.w.Cfg.Max, opts...)
	if err != nil {
		return // the session ended under us: the next round makes a new one
	}
	acquire := sem.Acquire
	if try {
		acquire = sem.TryAcquire
	} else {
		w.setState(StateWaiting, lp.Path)
	}
	lease, call, ret, err := w.timedAcquire(ctx, acquire)
	rec := checker.Record{Kind: checker.KindAcquire, Session: sid, Path: lp.Path, Mode: checker.ModeExclusive,
		Max: w.w.Cfg.Max, Call: call, Return: ret}
	if w.w.Cfg.JudgeMax > 0 {
		rec.Max = w.w.Cfg.JudgeMax // a control: the checker must find more than this held
	}
	if !w.recordAcquire(rec, lease, err) {
		return
	}
	w.hold(ctx, lease, &tenure{lp: lp, mode: checker.ModeExclusive, token: lease.Token(), node: lease.Node(),
		session: sid, acqReturn: ret, done: lease.Done(), conn: w.sess.Conn(), ownReg: lp.zkRegister() + "@" + w.name}, call)
}

// hold runs the critical section of lease t and ends it.
func (w *semaphoreWorker) hold(ctx context.Context, lease *zklock.Lease, t *tenure, call int64) {
	// The monitor's live check is pairwise, for locks: a semaphore's lease is
	// shown to it as a reader's, which clashes with nobody; the checker
	// counts the leases.
	w.begin(lease, t, checker.ModeRead, call)

	w.critical(ctx, t)
	if w.rng.Float64() < crashShare && !t.ended() {
		w.crash(t)
		return
	}
	w.release(ctx, t, lease.Unlock, lease.Err)
}
