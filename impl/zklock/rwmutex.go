package zklock

import (
	"context"
	"fmt"
)

// RWMutex is a read/write lock on a ZooKeeper path, shared with every
// process that locks the same path, Apache Curator's
// InterProcessReadWriteLock included. Readers share; a writer holds alone.
// The queue is FIFO: a reader that arrives after a queued writer waits for
// it, so a stream of readers never starves a writer.
//
// Like Mutex, each call is a contender of its own and the lock is not
// reentrant. A session that holds a read lease and asks for the write lock
// gets ErrWouldDeadlock; a write lease becomes a read lease with Downgrade.
type RWMutex struct {
	core *lockCore
}

// NewRWMutex returns the read/write lock at path.
func NewRWMutex(s *Session, path string, opts ...LockOption) (*RWMutex, error) {
	core, err := newLockCore(s, path, opts)
	if err != nil {
		return nil, err
	}
	return &RWMutex{core: core}, nil
}

// RLock waits for a read lease: until no writer is ahead in the queue.
func (rw *RWMutex) RLock(ctx context.Context) (*Lease, error) {
	if rw == nil {
		return nil, fmt.Errorf("%w: nil rwmutex", ErrInvalidArgument)
	}
	return rw.core.acquire(ctx, ModeRead, false)
}

// Lock waits for the write lease: until it is first in the queue.
func (rw *RWMutex) Lock(ctx context.Context) (*Lease, error) {
	if rw == nil {
		return nil, fmt.Errorf("%w: nil rwmutex", ErrInvalidArgument)
	}
	return rw.core.acquire(ctx, ModeWrite, false)
}

// TryRLock takes a read lease if no writer holds or waits, else ErrLocked.
func (rw *RWMutex) TryRLock(ctx context.Context) (*Lease, error) {
	if rw == nil {
		return nil, fmt.Errorf("%w: nil rwmutex", ErrInvalidArgument)
	}
	return rw.core.acquire(ctx, ModeRead, true)
}

// TryLock takes the write lease if no one holds or waits, else ErrLocked.
func (rw *RWMutex) TryLock(ctx context.Context) (*Lease, error) {
	if rw == nil {
		return nil, fmt.Errorf("%w: nil rwmutex", ErrInvalidArgument)
	}
	return rw.core.acquire(ctx, ModeWrite, true)
}

// Contenders lists the read and write nodes queued on the lock, in order.
// It reads the session's server without a sync, as a view for operators:
// a change made through another server moments ago may not show yet.
func (rw *RWMutex) Contenders(ctx context.Context) ([]string, error) {
	if rw == nil {
		return nil, fmt.Errorf("%w: nil rwmutex", ErrInvalidArgument)
	}
	return rw.core.contenders(ctx)
}

// Path is the lock path ("" for a nil RWMutex).
func (rw *RWMutex) Path() string {
	if rw == nil {
		return ""
	}
	return rw.core.name
}

// serverPath is the lock path on the server, under the session's chroot.
func (rw *RWMutex) serverPath() string { return rw.core.path }

// RLocker is a Locker whose Lock takes a read lease, for LockAll.
func (rw *RWMutex) RLocker() Locker { return readLocker{rw} }

type readLocker struct{ rw *RWMutex }

func (r readLocker) Lock(ctx context.Context) (*Lease, error) { return r.rw.RLock(ctx) }
func (r readLocker) Path() string                             { return r.rw.Path() }
func (r readLocker) serverPath() string                       { return r.rw.serverPath() }

// wouldDeadlock refuses a write request while this session holds a read
// lease on the same path: the write would wait behind our own reader.
func (l *lockCore) wouldDeadlock(kind Mode) error {
	if kind != ModeWrite {
		return nil
	}
	for _, h := range l.s.heldLeases(l.path) {
		if h.Mode() == ModeRead {
			return fmt.Errorf("zklock: lock %s: %w: this session holds read lease %s", l.path, ErrWouldDeadlock, h.Node())
		}
	}
	return nil
}
