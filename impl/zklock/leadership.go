package zklock

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/go-zookeeper/zk"

	"github.com/zklock/zklock/traceevent"
)

// Leadership is one candidate's tenure as leader: from Campaign's return
// until Resign, or until it is lost because its session was lost or its
// node disappeared. It is a Mutex's Lease under another name, with the
// same guarantees: Done tells when it ends, past which another candidate
// may lead; Epoch, Guard and Check let a resource tell a late write of an
// earlier leader apart. A Leadership is safe for concurrent use.
type Leadership struct {
	lease *Lease

	mu     sync.Mutex
	failed bool // Resign returned before its delete was confirmed: a retry deletes again
}

// Done is closed when the leadership ends: resigned or lost.
func (l *Leadership) Done() <-chan struct{} { return l.lease.Done() }

// Err is nil while we lead; then ErrReleased after Resign, or an error
// matching ErrLockLost (and the session's reason when that was the cause).
func (l *Leadership) Err() error { return l.lease.Err() }

// Epoch is the fencing token: the czxid of our candidate node, as
// Lease.Token. A later leader of this election always has a higher one.
func (l *Leadership) Epoch() int64 { return l.lease.Token() }

// Node is the full path of our candidate node (relative to the session's
// chroot).
func (l *Leadership) Node() string { return l.lease.Node() }

// Guard runs ops in one multi that first checks our node is still there,
// as Lease.Guard: the writes happen only while we lead.
func (l *Leadership) Guard(ctx context.Context, ops ...any) ([]zk.MultiResponse, error) {
	if l == nil {
		return nil, fmt.Errorf("%w: nil leadership", ErrInvalidArgument)
	}
	return l.lease.Guard(ctx, ops...)
}

// Check returns the operation that holds only while we lead, to put first
// in a multi of your own, as Lease.Check.
func (l *Leadership) Check() (*zk.CheckVersionRequest, error) {
	if l == nil {
		return nil, fmt.Errorf("%w: nil leadership", ErrInvalidArgument)
	}
	return l.lease.Check()
}

// Proclaim replaces our value, which Leader and observers report, only
// while we lead: one multi of a check of our node (at the version we know)
// and a setData of it. If the check fails because our node is gone or is
// not ours, nothing is written and Proclaim returns an error matching
// ErrLockLost, and the leadership ends; a leadership that has already
// ended gives ErrNotHeld (with its Err). A Proclaim that loses the
// connection returns an error matching zk.ErrConnectionClosed: the value
// may or may not have been written, and we still lead. A multi the server
// applied while someone else deleted or replaced our node returns an error
// matching ErrMaybeApplied, never nil (see Lease.Guard).
func (l *Leadership) Proclaim(ctx context.Context, value []byte) error {
	if l == nil {
		return fmt.Errorf("%w: nil leadership", ErrInvalidArgument)
	}
	if ctx == nil {
		return fmt.Errorf("%w: nil context", ErrInvalidArgument)
	}
	if len(value) > MaxNodeData {
		return fmt.Errorf("%w: %d bytes of value (max %d)", ErrDataTooLarge, len(value), MaxNodeData)
	}
	ls := l.lease
	_, err := ls.guardedMulti(ctx, "proclaim", func(node string) []any {
		return []any{&zk.SetDataRequest{Path: node, Data: value, Version: -1}}
	}, ls.proclaimed)
	return err
}

// proclaimed records the multi that ends a Proclaim: it carries the
// version our own write gave our node into the lease, and traces the
// write. A multi whose reply was lost is traced as pending: it may have
// been applied, and a trace that left it out would show observers reading
// a version nobody wrote.
func (l *Lease) proclaimed(t guardedTry) {
	ev := TraceEvent{Action: traceevent.Proclaim, Lock: l.lock, Request: l.uuid, Kind: ModeExclusive.String(),
		Node: baseName(t.node), Start: t.sent.at, ZxidLow: t.sent.zxid, Result: t.result}
	switch {
	case t.result == traceevent.ResultOk && t.res[0].Stat != nil:
		st := t.res[0].Stat
		l.mu.Lock()
		if l.node == t.node && l.version == t.version {
			l.version = st.Version // our own write: Guard and Check go on from it
		}
		l.mu.Unlock()
		ev.Zxid, ev.Version = st.Mzxid, &st.Version
	case t.result == traceevent.ResultLost:
		ev.Pending = true
	}
	l.s.trace(ev)
}

// Resign gives up the leadership, as Lease.Unlock: it ends at once (Done
// closes, Err is ErrReleased) and our node is deleted, which hands the
// leadership to the next candidate. If the server cannot be reached before
// ctx ends, the deletion goes on in the background until it succeeds or
// the session ends, and Resign says so; calling Resign again then waits for
// the deletion with its own ctx, and returns nil once the node is gone. A
// leadership that was lost gives an error matching ErrLockLost; any other
// further Resign, ErrNotHeld.
func (l *Leadership) Resign(ctx context.Context) error {
	if l == nil {
		return fmt.Errorf("%w: nil leadership", ErrInvalidArgument)
	}
	if ctx == nil {
		return fmt.Errorf("%w: nil context", ErrInvalidArgument)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	s := l.lease.s
	if l.failed {
		// The delete may still run in the background: deleting again is
		// harmless, a node already gone is what we want.
		l.lease.mu.Lock()
		node := l.lease.node
		l.lease.mu.Unlock()
		if _, err := s.deleteNode(ctx, node); err != nil {
			return fmt.Errorf("zklock: resign: %w", err)
		}
		l.failed = false
		return nil
	}
	err := l.lease.Unlock(ctx)
	if err != nil && !errors.Is(err, ErrLockLost) && !errors.Is(err, ErrNotHeld) && s.Err() == nil {
		l.failed = true
	}
	if err != nil {
		return fmt.Errorf("zklock: resign: %w", err)
	}
	return nil
}
