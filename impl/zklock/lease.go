package zklock

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/zklock/zklock/traceevent"
)

// Lease is one tenure of a lock: from the grant until Unlock, or until the
// lease is lost because its session was lost or its lock node disappeared.
// Done tells when it ends; past that point the lock may be someone else's.
// Guard and Token let the protected resource tell a late write apart.
//
// A Lease is safe for concurrent use, and its methods may race each other.
// It is one state machine, and every path through it ends with our lock node
// deleted (by us, or by the server with the session) or handed over to the
// read node of a Downgrade, never left behind:
//
//   - holding: Guard, Downgrade and Unlock act.
//   - downgrading: a Downgrade's multi is under way. Guard waits for it to
//     settle, then runs against whichever node the lease has; a second
//     Downgrade waits, then finds a read lease (ErrNotWriteLease); Unlock
//     ends the lease at once and deletes whichever node the Downgrade
//     settled on, and that Downgrade then returns ErrNotHeld (matching
//     ErrReleased).
//   - releasing: Unlock was called. Done is closed and Err is ErrReleased;
//     Guard and Downgrade return ErrNotHeld; the node is being deleted, in
//     the background if Unlock's context ended first.
//   - ended: the node is deleted, or the lease was lost (its session ended,
//     or its node is gone or is not ours any more).
type Lease struct {
	s    *Session
	core *lockCore
	lock string // lock path
	sem  string // for a semaphore's lease, the semaphore's path (on the server): traced as its ReleaseLease
	uuid string

	mu      sync.Mutex
	st      leaseState
	settled chan struct{} // while downgrading: closed when the Downgrade settles
	kind    Mode
	node    string // full path of our lock node (Downgrade replaces it)
	alt     string // a read node a Downgrade that failed may yet have made: Unlock deletes it, Guard adopts it
	version int32  // its data version, checked by Guard
	token   int64
	err     error // nil while held
	unlock  bool  // Unlock was called (a second one is ErrNotHeld)
	moved   bool  // a Downgrade ran: the node may have moved (Unlock waits for the own watch to follow)
	done    chan struct{}
	onEnd   []func()  // called once done is closed (MultiLease)
	watch   *ownWatch // the one watch on our node while held (ownwatch.go)
	granted time.Time
	below   int64 // a higher token this process handed out before on the lock (rewind.go)
}

// leaseState is where a Lease is in its life (see Lease).
type leaseState uint8

const (
	stateHolding leaseState = iota
	stateDowngrading
	stateReleasing
	stateEnded
)

func newLease(c *contender) *Lease {
	return &Lease{
		s:       c.l.s,
		core:    c.l,
		lock:    c.l.path,
		uuid:    c.uuid,
		kind:    c.kind,
		node:    joinPath(c.l.path, c.name),
		version: c.stat.Version,
		token:   c.stat.Czxid,
		done:    make(chan struct{}),
		granted: time.Now(),
	}
}

// Done is closed when the lease ends: released or lost.
func (l *Lease) Done() <-chan struct{} { return l.done }

// Err is nil while the lease is held; then ErrReleased, or an error
// matching ErrLockLost (and the session's reason when that was the cause).
func (l *Lease) Err() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

// Token is the fencing token: the czxid of the lock node. ZooKeeper zxids
// only grow within one history of the ensemble (a wipe or a restore from a
// backup starts another: see TokenRewound), so a later tenure of this lock
// in it always carries a larger token, even if the lock path was deleted and
// made again (sequence numbers restart then; zxids do not). A resource that
// refuses tokens lower than the highest it has seen refuses late writes of
// an earlier holder.
func (l *Lease) Token() int64 { return l.token }

// Node is the full path of the lease's lock node (relative to the
// session's chroot).
func (l *Lease) Node() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.s.relative(l.node)
}

// Mode is ModeExclusive for a Mutex lease, else ModeRead or ModeWrite (a
// write lease becomes ModeRead when Downgrade succeeds).
func (l *Lease) Mode() Mode {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.kind
}

// end closes a lease that is still held (holding or downgrading) as lost,
// once. A lease being released keeps ErrReleased.
func (l *Lease) end(reason error) bool {
	l.mu.Lock()
	if l.err != nil {
		l.mu.Unlock()
		return false
	}
	l.err = reason
	l.st = stateEnded
	l.closeDone()
	mode := l.kind
	l.mu.Unlock()
	l.observeEnd(mode, reason)
	return true
}

// closeDone closes done and calls the onDone functions; l.mu is held.
func (l *Lease) closeDone() {
	close(l.done)
	for _, f := range l.onEnd {
		f()
	}
	l.onEnd = nil
}

// onDone calls f once Done is closed, at once if it is already. f runs
// with the lease's lock held: it must be quick and must not call the lease.
func (l *Lease) onDone(f func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	select {
	case <-l.done:
		f()
	default:
		l.onEnd = append(l.onEnd, f)
	}
}

// awaitSettled waits, with l.mu held on entry and on return, until no
// Downgrade is under way.
func (l *Lease) awaitSettled(ctx context.Context) error {
	for l.st == stateDowngrading {
		settled := l.settled
		l.mu.Unlock()
		var err error
		select {
		case <-settled:
		case <-ctx.Done():
			err = ctx.Err()
		case <-l.s.done:
			err = l.s.Err()
		}
		l.mu.Lock()
		if err != nil {
			return err
		}
	}
	return nil
}

// Unlock releases the lock: the lease ends at once (Done closes, Err is
// ErrReleased) and the lock node is deleted. If the server cannot be
// reached before ctx ends, the deletion goes on in the background until it
// succeeds or the session ends, and Unlock says so. Unlock racing a
// Downgrade waits for the Downgrade to settle and deletes the node it
// settled on (the read node, or the write node if it failed), and that
// Downgrade returns ErrNotHeld. Unlock of a lease that was lost returns an
// error matching ErrLockLost; any further Unlock returns ErrNotHeld.
func (l *Lease) Unlock(ctx context.Context) error {
	if l == nil {
		return fmt.Errorf("%w: nil lease", ErrInvalidArgument)
	}
	if ctx == nil {
		return fmt.Errorf("%w: nil context", ErrInvalidArgument)
	}
	l.mu.Lock()
	moved := l.moved
	l.mu.Unlock()
	if moved {
		// A lease that ran a Downgrade deletes only once its watcher has
		// followed it to the node it settled on: the order in which every
		// Downgrade race test has been run. A lease that never moves does
		// not wait (spec/tla/OwnWatch.tla's Release needs no armed watch):
		// that wait is a round trip of an uncontended pair.
		_ = l.awaitOwnWatch(ctx)
	}
	l.mu.Lock()
	again, node, st, lost := l.unlock, l.node, l.st, l.err
	l.unlock = true
	if again || st == stateEnded {
		l.mu.Unlock()
		if again {
			return fmt.Errorf("zklock: unlock %s: %w", node, ErrNotHeld)
		}
		return fmt.Errorf("zklock: unlock %s: %w", node, lost)
	}
	l.st, l.err = stateReleasing, ErrReleased
	l.closeDone()
	settled, mode := l.settled, l.kind
	l.mu.Unlock()
	l.observeEnd(mode, ErrReleased)
	l.s.removeLease(l)
	if settled != nil {
		// The Downgrade under way hands its outcome over to us: wait for it
		// to settle, here or, if ctx ends first, in the background.
		select {
		case <-settled:
		case <-l.s.done:
			return fmt.Errorf("zklock: unlock %s: %w", node, l.s.Err()) // the server deletes it with the session
		case <-ctx.Done():
			if l.s.background(func(life context.Context) {
				select {
				case <-settled:
					l.release(life)
				case <-life.Done():
				}
			}) {
				return fmt.Errorf("zklock: unlock %s goes on in the background: %w", node, ctx.Err())
			}
			return fmt.Errorf("zklock: unlock %s: %w", node, l.s.Err())
		}
	}
	return l.release(ctx)
}

// release deletes the node a released lease settled on (and the read node
// a failed Downgrade may have made), then ends the lease.
func (l *Lease) release(ctx context.Context) error {
	l.mu.Lock()
	node, alt, kind := l.node, l.alt, l.kind
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		l.st = stateEnded
		l.mu.Unlock()
	}()
	if err := l.s.beginOp(); err != nil {
		return fmt.Errorf("zklock: unlock %s: %w", node, err) // the server deletes it with the session
	}
	defer l.s.endOp()
	sent := l.s.now()
	gone, err := l.s.deleteEventually(ctx, node)
	if alt != "" {
		// Usually not there; if ctx has ended, the delete goes on in the
		// background like the one above.
		l.s.deleteEventually(ctx, alt)
	}
	// An unconfirmed delete may still take effect (in the background, or
	// before the session ended): its outcome is left open.
	ev := TraceEvent{Action: traceevent.Release, Lock: l.lock, Request: l.uuid, Kind: kind.String(), Node: baseName(node),
		Start: sent.at, ZxidLow: sent.zxid, Pending: err != nil}
	if l.sem != "" {
		ev.Action, ev.Lock, ev.Kind = traceevent.ReleaseLease, l.sem, ""
	}
	l.s.traceWrite(ev, node)
	if err != nil {
		return fmt.Errorf("zklock: unlock: %w", err)
	}
	if gone {
		return fmt.Errorf("zklock: unlock %s: %w: the node was already gone", node, ErrLockLost)
	}
	return nil
}

// Guard runs ops (*zk.CreateRequest, *zk.SetDataRequest, *zk.DeleteRequest,
// *zk.CheckVersionRequest) in one ZooKeeper multi that first checks our lock
// node is still there: the writes happen only while this lease still holds
// the lock, whatever the client believes. It returns the responses to ops.
//
// A Guard racing a Downgrade waits for it to settle and checks whichever
// node the lease then has. A check that fails because someone else wrote
// data to our node (its version changed, but our session still owns it) is
// retried with the new version; one that finds our node gone, or owned by
// another session, ends the lease with ErrLockLost. Guard on a lease that
// ended or is being released returns ErrNotHeld. A Guard that loses the
// connection returns an error matching zk.ErrConnectionClosed (the writes
// may or may not have happened; the lease holds on).
func (l *Lease) Guard(ctx context.Context, ops ...any) ([]zk.MultiResponse, error) {
	if l == nil {
		return nil, fmt.Errorf("%w: nil lease", ErrInvalidArgument)
	}
	if ctx == nil {
		return nil, fmt.Errorf("%w: nil context", ErrInvalidArgument)
	}
	if err := checkOps(ops); err != nil {
		return nil, fmt.Errorf("zklock: guard %s: %w", l.Node(), err)
	}
	ops = l.s.chrooted(ops)
	return l.guardedMulti(ctx, "guard", func(string) []any { return ops }, nil)
}

// Check returns the operation that holds only while this lease holds: a
// check of our lock node at its current data version, the one Guard puts
// first in its multi. Put it first in a multi of your own on Session.Conn
// (its path is the node's full path, the chroot included, as Conn expects)
// and the multi applies as a whole only if the lock node still stands, so
// no write of yours lands after the lock was lost. If the multi fails on
// the check (zk.ErrNoNode, zk.ErrBadVersion), the lease may have ended, or
// moved to a read node with a Downgrade, or someone set data on our node:
// call Check again, which returns an error matching ErrNotHeld once the
// lease has ended, or use Guard, which does all that for you.
func (l *Lease) Check() (*zk.CheckVersionRequest, error) {
	if l == nil {
		return nil, fmt.Errorf("%w: nil lease", ErrInvalidArgument)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return nil, fmt.Errorf("zklock: check %s: %w: %w", l.s.relative(l.node), ErrNotHeld, l.err)
	}
	return &zk.CheckVersionRequest{Path: l.node, Version: l.version}, nil
}
