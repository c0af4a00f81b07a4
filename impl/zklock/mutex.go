package zklock

import (
	"context"
	"fmt"
	"path"
	"slices"
)

// Mutex is an exclusive lock on a ZooKeeper path, shared with every process
// that locks the same path, Apache Curator's InterProcessMutex included.
//
// Each Lock call is a contender of its own: a Mutex is safe for concurrent
// use, and it is not reentrant — a goroutine that locks a Mutex it already
// holds waits for itself until its context ends.
type Mutex struct {
	core *lockCore
}

// NewMutex returns the exclusive lock at path. Nothing is sent to the
// server until Lock.
func NewMutex(s *Session, path string, opts ...LockOption) (*Mutex, error) {
	core, err := newLockCore(s, path, opts)
	if err != nil {
		return nil, err
	}
	return &Mutex{core: core}, nil
}

// Lock waits for the lock and returns the lease. It returns ctx's error if
// ctx ends first, and an error matching ErrSessionLost if the session is
// lost; either way its place in the queue is given up.
func (m *Mutex) Lock(ctx context.Context) (*Lease, error) {
	if m == nil {
		return nil, fmt.Errorf("%w: nil mutex", ErrInvalidArgument)
	}
	return m.core.acquire(ctx, ModeExclusive, false)
}

// TryLock takes the lock if no one holds or waits for it, else returns
// ErrLocked, leaving nothing behind.
func (m *Mutex) TryLock(ctx context.Context) (*Lease, error) {
	if m == nil {
		return nil, fmt.Errorf("%w: nil mutex", ErrInvalidArgument)
	}
	return m.core.acquire(ctx, ModeExclusive, true)
}

// Contenders lists the lock nodes queued on the lock, holder first.
// It reads the session's server without a sync, as a view for operators:
// a change made through another server moments ago may not show yet.
func (m *Mutex) Contenders(ctx context.Context) ([]string, error) {
	if m == nil {
		return nil, fmt.Errorf("%w: nil mutex", ErrInvalidArgument)
	}
	return m.core.contenders(ctx)
}

// Path is the lock path ("" for a nil Mutex).
func (m *Mutex) Path() string {
	if m == nil {
		return ""
	}
	return m.core.name
}

// serverPath is the lock path on the server, under the session's chroot.
func (m *Mutex) serverPath() string { return m.core.path }

func (l *lockCore) contenders(ctx context.Context) ([]string, error) {
	if ctx == nil {
		return nil, fmt.Errorf("%w: nil context", ErrInvalidArgument)
	}
	names, _, err := l.children(ctx, joining)
	if err != nil {
		return nil, fmt.Errorf("zklock: contenders of %s: %w", l.path, err)
	}
	q := queue(names)
	out := make([]string, len(q))
	for i, c := range q {
		out[i] = path.Join(l.name, c.name)
	}
	return slices.Clip(out), nil
}
