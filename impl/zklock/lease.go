package zklock

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/go-zookeeper/zk"
)

// Lease is one tenure of a lock: from the grant until Unlock, or until the
// lease is lost because its session was lost or its lock node disappeared.
// Done tells when it ends; past that point the lock may be someone else's.
// Guard and Token let the protected resource tell a late write apart.
type Lease struct {
	s    *Session
	core *lockCore
	lock string // lock path
	uuid string

	mu      sync.Mutex
	kind    lockKind
	node    string // full path of our lock node (Downgrade replaces it)
	version int32  // its data version, checked by Guard
	token   int64
	err     error // nil while held
	unlock  bool  // Unlock was called (a second one is ErrNotHeld)
	done    chan struct{}
}

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
// only grow across the ensemble's whole history, so a later tenure of this
// lock always carries a larger token, even if the lock path was deleted and
// made again (sequence numbers restart then; zxids do not). A resource that
// refuses tokens lower than the highest it has seen refuses late writes of
// an earlier holder.
func (l *Lease) Token() int64 { return l.token }

// Node is the full path of the lease's lock node.
func (l *Lease) Node() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.node
}

// Mode is "exclusive" for a Mutex lease, else "read" or "write".
func (l *Lease) Mode() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.kind.String()
}

// end closes the lease with its reason, once.
func (l *Lease) end(reason error) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return false
	}
	l.err = reason
	close(l.done)
	return true
}

// Unlock releases the lock: the lease ends at once (Done closes, Err is
// ErrReleased) and the lock node is deleted. If the server cannot be
// reached before ctx ends, the deletion goes on in the background until it
// succeeds or the session ends, and Unlock says so. Unlock of a lease that
// was lost returns an error matching ErrLockLost; any further Unlock returns
// ErrNotHeld.
func (l *Lease) Unlock(ctx context.Context) error {
	if l == nil {
		return fmt.Errorf("%w: nil lease", ErrInvalidArgument)
	}
	if ctx == nil {
		return fmt.Errorf("%w: nil context", ErrInvalidArgument)
	}
	l.mu.Lock()
	again, node, kind := l.unlock, l.node, l.kind
	l.unlock = true
	l.mu.Unlock()
	if again {
		return fmt.Errorf("zklock: unlock %s: %w", node, ErrNotHeld)
	}
	if !l.end(ErrReleased) {
		return fmt.Errorf("zklock: unlock %s: %w", node, l.Err())
	}
	l.s.removeLease(l)
	if err := l.s.beginOp(); err != nil {
		return fmt.Errorf("zklock: unlock %s: %w", node, err) // the server deletes it with the session
	}
	defer l.s.endOp()
	sent := l.s.now()
	gone, err := l.s.deleteEventually(ctx, node)
	// An unconfirmed delete may still take effect (in the background, or
	// before the session ended): its outcome is left open.
	l.s.trace(TraceEvent{Action: ActRelease, Lock: l.lock, Request: l.uuid, Kind: kind.String(), Node: baseName(node),
		Start: sent.at, ZxidLow: sent.zxid, Pending: err != nil, wrote: node})
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
// node is still there, unchanged: the writes happen only while this lease
// still holds the lock, whatever the client believes. It returns the
// responses to ops. A failed check ends the lease with ErrLockLost.
func (l *Lease) Guard(ctx context.Context, ops ...any) ([]zk.MultiResponse, error) {
	if l == nil {
		return nil, fmt.Errorf("%w: nil lease", ErrInvalidArgument)
	}
	if ctx == nil {
		return nil, fmt.Errorf("%w: nil context", ErrInvalidArgument)
	}
	l.mu.Lock()
	node, version, err := l.node, l.version, l.err
	l.mu.Unlock()
	if err != nil {
		return nil, fmt.Errorf("zklock: guard %s: %w: %w", node, ErrNotHeld, err)
	}
	if err := checkOps(ops); err != nil {
		return nil, fmt.Errorf("zklock: guard %s: %w", node, err)
	}
	all := append([]any{&zk.CheckVersionRequest{Path: node, Version: version}}, ops...)
	res, err := do(ctx, l.s, func() ([]zk.MultiResponse, error) { return l.s.conn.Multi(all...) })
	if err != nil && len(res) > 0 &&
		(errors.Is(res[0].Error, zk.ErrNoNode) || errors.Is(res[0].Error, zk.ErrBadVersion)) {
		return nil, fmt.Errorf("zklock: guard: %w", l.lostAt(node))
	}
	if len(res) > 0 {
		res = res[1:]
	}
	if err != nil {
		return res, fmt.Errorf("zklock: guard %s: %w", node, err)
	}
	return res, nil
}

// checkOps refuses what go-zookeeper would refuse untyped, and data the
// server would answer by dropping the connection.
func checkOps(ops []any) error {
	size := 0
	for i, op := range ops {
		isNil := false
		switch o := op.(type) {
		case *zk.CreateRequest:
			if isNil = o == nil; !isNil {
				size += len(o.Data)
			}
		case *zk.SetDataRequest:
			if isNil = o == nil; !isNil {
				size += len(o.Data)
			}
		case *zk.DeleteRequest:
			isNil = o == nil
		case *zk.CheckVersionRequest:
			isNil = o == nil
		default:
			return fmt.Errorf("%w: op %d is a %T, not a *zk.CreateRequest, *zk.SetDataRequest, *zk.DeleteRequest or *zk.CheckVersionRequest",
				ErrInvalidArgument, i, op)
		}
		if isNil {
			return fmt.Errorf("%w: op %d is a nil request", ErrInvalidArgument, i)
		}
	}
	if size > MaxNodeData {
		return fmt.Errorf("%w: %d bytes of data in one multi (max %d)", ErrDataTooLarge, size, MaxNodeData)
	}
	return nil
}

func baseName(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' {
			return p[i+1:]
		}
	}
	return p
}
