package zklock

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
)

// Locker is what LockAll takes: Mutex, RWMutex (the write lock),
// RWMutex.RLocker (a read lock) and Semaphore (a lease of it). Path is the lock path, relative to the
// session's chroot; LockAll orders this package's lockers by their path on
// the server (chroot included), any other Locker by Path.
type Locker interface {
	Lock(ctx context.Context) (*Lease, error)
	Path() string
}

// LockAll takes every lock or none. It locks in one canonical order, by
// lock path on the server (the session's chroot, then Path), whatever order
// the lockers are given in and whatever chroots their sessions have, so two
// callers locking overlapping sets cannot deadlock. On any failure it
// releases what it took, in reverse. ctx bounds the whole call. A nil
// locker, one with no path (a nil *Mutex or *RWMutex) and a lock given
// twice (the same path on the server, through any chroot) are refused with
// ErrInvalidArgument. Lockers of other packages are ordered by their Path.
//
// The lockers may belong to different sessions. A part taken that ends
// (its session lost) while LockAll waits for a later part ends the wait,
// and every part is checked once the last is granted: LockAll then
// releases them all and returns that part's error (matching ErrLockLost),
// never a MultiLease with a part already ended
// (spec/tla/LockAll.tla, AllOrNothing).
func LockAll(ctx context.Context, lockers ...Locker) (*MultiLease, error) {
	if ctx == nil {
		return nil, fmt.Errorf("%w: nil context", ErrInvalidArgument)
	}
	ordered := make([]Locker, len(lockers))
	copy(ordered, lockers)
	seen := map[string]bool{}
	for _, lk := range ordered {
		if lk == nil || lk.Path() == "" {
			return nil, fmt.Errorf("%w: LockAll needs lockers with a lock path, got %T", ErrInvalidArgument, lk)
		}
		if seen[orderKey(lk)] {
			return nil, fmt.Errorf("%w: %s given twice: it would wait for itself", ErrInvalidArgument, orderKey(lk))
		}
		seen[orderKey(lk)] = true
	}
	sort.Slice(ordered, func(i, j int) bool { return orderKey(ordered[i]) < orderKey(ordered[j]) })
	// A part that ends cancels the wait for the next one (the rule
	// "checked" of LockAll.tla; waiting on would hold the later locks for
	// a set already broken).
	wait, stop := context.WithCancel(ctx)
	defer stop()
	var held []*Lease
	for _, lk := range ordered {
		lease, err := lk.Lock(wait)
		if err != nil {
			if lost := firstEnded(held); lost != nil && ctx.Err() == nil {
				err = lost // the wait ended because a part taken ended
			}
			releaseAll(ctx, held)
			return nil, fmt.Errorf("zklock: lock all: %w", err)
		}
		held = append(held, lease)
		if lease != nil {
			lease.onDone(stop)
		}
	}
	// A part may have ended as the last one was granted, before the wait
	// could notice (LockAll.tla: without this check, the rule "watched").
	if lost := firstEnded(held); lost != nil {
		releaseAll(ctx, held)
		return nil, fmt.Errorf("zklock: lock all: %w", lost)
	}
	return newMultiLease(held), nil
}

// serverPather is a Locker of this package: it knows its lock path on the
// server, chroot included.
type serverPather interface{ serverPath() string }

// orderKey is the name LockAll orders and de-duplicates by: the lock path
// on the server. Path alone is relative to the session's chroot, so the
// same lock reached through two chroots (/locks/a under /app, /app/locks/a
// under none) would count as two locks, locked twice (waiting for itself),
// and two callers could order the same two locks differently (deadlock).
func orderKey(lk Locker) string {
	if sp, ok := lk.(serverPather); ok {
		return sp.serverPath()
	}
	return lk.Path()
}

// firstEnded returns the error of the first lease in held that has ended
// (its path and reason), nil if every one holds.
func firstEnded(held []*Lease) error {
	for _, l := range held {
		if l == nil {
			continue
		}
		if err := l.Err(); err != nil {
			return fmt.Errorf("%s: %w", l.lock, err)
		}
	}
	return nil
}

// releaseAll unlocks held in reverse, each delete given cancelGrace past
// ctx; a delete that fails goes on in the background.
func releaseAll(ctx context.Context, held []*Lease) {
	rctx, stop := context.WithTimeout(context.WithoutCancel(ctx), cancelGrace)
	defer stop()
	for i := len(held) - 1; i >= 0; i-- {
		held[i].Unlock(rctx) // a failed delete goes on in the background
	}
}

// MultiLease is the set of leases LockAll took, in the order it took them
// (by lock path on the server).
type MultiLease struct {
	leases []*Lease
	done   chan struct{}
}

func newMultiLease(leases []*Lease) *MultiLease {
	m := &MultiLease{leases: leases, done: make(chan struct{})}
	var once sync.Once
	end := func() { once.Do(func() { close(m.done) }) }
	if len(leases) == 0 {
		end()
	}
	for _, l := range leases {
		l.onDone(end)
	}
	return m
}

// Leases are the parts, in the order LockAll took them.
func (m *MultiLease) Leases() []*Lease { return append([]*Lease(nil), m.leases...) }

// Tokens are the fencing tokens of the parts, in the order of Leases.
func (m *MultiLease) Tokens() []int64 {
	out := make([]int64, len(m.leases))
	for i, l := range m.leases {
		out[i] = l.Token()
	}
	return out
}

// Done is closed as soon as any part ends.
func (m *MultiLease) Done() <-chan struct{} { return m.done }

// Err is nil while every part holds, else the first part's error found.
func (m *MultiLease) Err() error {
	for _, l := range m.leases {
		if err := l.Err(); err != nil {
			return err
		}
	}
	return nil
}

// Unlock releases every part, in reverse order, and returns their errors
// joined. A second Unlock returns ErrNotHeld.
func (m *MultiLease) Unlock(ctx context.Context) error {
	if m == nil {
		return fmt.Errorf("%w: nil multi-lease", ErrInvalidArgument)
	}
	var errs []error
	for i := len(m.leases) - 1; i >= 0; i-- {
		errs = append(errs, m.leases[i].Unlock(ctx))
	}
	return errors.Join(errs...)
}
