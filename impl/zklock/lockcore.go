package zklock

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/zklock/zklock/traceevent"
)

// lockCore is what Mutex and RWMutex share: the lock path and how its
// nodes are made.
type lockCore struct {
	s    *Session
	path string // on the server: under the session's chroot
	name string // as the user gave it
	acl  []zk.ACL
	data []byte
	// latch: an election path, whose contenders are Curator LeaderLatch
	// nodes ("latch-"), not lock nodes.
	latch bool
	// sem: the path (on the server) of the semaphore whose leases path
	// this is, "" for a lock or election. Its contenders are lease nodes
	// ("lease-"), made by one contender each but never queued (semaphore.go);
	// their steps are traced under the semaphore's names.
	sem string
}

// queue parses a listing of the path as its kind of contenders.
func (l *lockCore) queue(names []string) []child {
	if l.sem != "" {
		return leaseQueue(names)
	}
	return queueOf(names, l.latch)
}

// marker is the node-name part of a contender of kind k on this path.
func (l *lockCore) marker(k Mode) string {
	switch {
	case l.sem != "":
		return leaseMarker
	case l.latch:
		return latchMarker
	}
	return k.marker()
}

func newLockCore(s *Session, lockPath string, opts []LockOption) (*lockCore, error) {
	if s == nil {
		return nil, fmt.Errorf("%w: nil session", ErrInvalidArgument)
	}
	if err := validateLockPath(lockPath); err != nil {
		return nil, err
	}
	cfg := lockConfig{acl: zk.WorldACL(zk.PermAll)}
	for _, o := range opts {
		if o == nil {
			continue
		}
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	if err := s.Err(); err != nil {
		return nil, fmt.Errorf("zklock: %s: %w", lockPath, err)
	}
	if !cfg.dataSet {
		cfg.data = ownIdentity()
	}
	return &lockCore{s: s, path: s.abs(lockPath), name: lockPath, acl: cfg.acl, data: cfg.data}, nil
}

// cancelGrace is how long a failed acquisition waits, past its context, for
// its node to be deleted before leaving the rest to the background: long
// enough for the usual single round trip, short enough not to surprise.
const cancelGrace = time.Second

// acquire queues for the lock and waits for its turn (try: does not wait).
func (l *lockCore) acquire(ctx context.Context, kind Mode, try bool) (*Lease, error) {
	if ctx == nil {
		return nil, fmt.Errorf("%w: nil context", ErrInvalidArgument)
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("zklock: lock %s: %w", l.path, err)
	}
	if err := l.s.Err(); err != nil {
		return nil, fmt.Errorf("zklock: lock %s: %w", l.path, err)
	}
	if err := l.wouldDeadlock(kind); err != nil {
		return nil, err
	}
	if err := l.s.beginOp(); err != nil {
		return nil, fmt.Errorf("zklock: lock %s: %w", l.path, err)
	}
	defer l.s.endOp()
	uuid, err := newUUID()
	if err != nil {
		return nil, err
	}
	c := &contender{l: l, kind: kind, uuid: uuid, ahead: -1, begun: time.Now()}
	c.trace(TraceEvent{Action: traceevent.RequestLock})
	start := time.Now()
	lease, err := c.run(ctx, try)
	if err != nil {
		c.cancel()
		err = fmt.Errorf("zklock: lock %s: %w", l.path, err)
	}
	l.s.observeAcquire(Acquisition{Lock: l.name, Mode: kind, Try: try, Ahead: c.ahead, Waited: time.Since(start), Err: err})
	return lease, err
}

// stat reads a node's stat; a missing node is zk.ErrNoNode.
func (l *lockCore) stat(node string) (*zk.Stat, error) {
	ok, st, err := l.s.conn.Exists(node)
	if err == nil && !ok {
		err = zk.ErrNoNode
	}
	return st, err
}

// children lists the lock path, with its pzxid: the zxid of the last
// change to the queue. A missing lock path is an empty queue, pzxid 0.
func (l *lockCore) children(ctx context.Context, line int) ([]string, int64, error) {
	s := l.s
	// In a listing slot of the session (listings.go), so that its reply,
	// which grows with the queue, never keeps the heartbeat's sync waiting
	// behind more than maxListings of its kind. The pzxid comes back with
	// the result, not through a variable the call writes: a caller whose
	// ctx ended returns while the call may still be running.
	r, err := retryListing(ctx, s, line, func() (listing, error) {
		n, st, err := s.conn.Children(l.path)
		var p int64
		if st != nil {
			p = st.Pzxid
		}
		return listing{n, p}, err
	})
	if errors.Is(err, zk.ErrNoNode) {
		return nil, 0, nil
	}
	return r.names, r.pzxid, err
}

// ensureParents creates the lock path and its missing ancestors as
// container nodes, which the server removes once they are empty.
func (l *lockCore) ensureParents(ctx context.Context) error {
	s := l.s
	// The chroot itself is not ours to create: ZooKeeper's clients expect
	// it to exist.
	for i := len(s.chroot) + 1; i <= len(l.path); i++ {
		if i < len(l.path) && l.path[i] != '/' {
			continue
		}
		p := l.path[:i]
		_, err := retry(ctx, s, func() (string, error) {
			return s.conn.CreateContainer(p, nil, zk.FlagContainer, l.acl)
		})
		if err != nil && !errors.Is(err, zk.ErrNodeExists) {
			return fmt.Errorf("zklock: create parent %s: %w", p, err)
		}
	}
	return nil
}
