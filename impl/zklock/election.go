package zklock

import (
	"context"
	"errors"
	"fmt"
	"path"
	"time"

	"github.com/go-zookeeper/zk"
)

// Election is a leader election on a ZooKeeper path, shared with every
// process that campaigns on the same path, Apache Curator's LeaderLatch
// included: a candidate's node is named as LeaderLatch names it
// (_c_<uuid>-latch-<sequence>) and carries the candidate's value, as
// LeaderLatch's carries its participant id. The candidate with the lowest
// sequence number leads; the others queue behind it as a Mutex's waiters
// do, each watching the node before its own. Every child whose name ends
// in "latch-" and ten digits is a candidate, whoever made it and whatever
// comes before "latch-" (a hand-made mylatch-0000000000 is one), ordered by
// those digits: Curator's LeaderLatch sorts every child by what follows its
// last "latch-", so the two agree on every such node. Any other child, a
// Mutex's or kazoo's lock node included, is a stranger the election
// ignores. LeaderLatch sorts such a child by its whole name against the
// candidates' digits: one that sorts ahead ("0000000000", "-x") blocks
// Curator's candidates there, never ours, and no child makes two lead.
//
// An Election is safe for concurrent use; each Campaign is a candidate of
// its own.
type Election struct {
	core *lockCore
}

// NewElection returns the election at path. Nothing is sent to the server
// until Campaign, Leader or Observe. The options are a Mutex's (WithACL for
// the candidates' nodes; a WithData value is replaced by each Campaign's).
// A nil session or a bad path is ErrInvalidArgument or ErrInvalidPath.
func NewElection(s *Session, path string, opts ...LockOption) (*Election, error) {
	core, err := newLockCore(s, path, opts)
	if err != nil {
		return nil, err
	}
	core.latch = true
	return &Election{core: core}, nil
}

// Path is the election path ("" for a nil Election).
func (e *Election) Path() string {
	if e == nil {
		return ""
	}
	return e.core.name
}

// Campaign puts a candidate carrying value on the election and waits until
// it leads. It returns ctx's error if ctx ends first, and an error matching
// ErrSessionLost if the session is lost; either way the candidate gives up
// its place and its node is deleted, exactly as for a Mutex's Lock, and it
// never leads. A value over MaxNodeData bytes is ErrDataTooLarge.
func (e *Election) Campaign(ctx context.Context, value []byte) (*Leadership, error) {
	if e == nil {
		return nil, fmt.Errorf("%w: nil election", ErrInvalidArgument)
	}
	if len(value) > MaxNodeData {
		return nil, fmt.Errorf("%w: %d bytes of value (max %d)", ErrDataTooLarge, len(value), MaxNodeData)
	}
	// A copy of the core per campaign: the value is this candidate's node
	// data, and the acquisition reads it from its core.
	core := *e.core
	core.data = append([]byte(nil), value...)
	lease, err := core.acquire(ctx, ModeExclusive, false)
	if err != nil {
		return nil, err
	}
	return &Leadership{lease: lease}, nil
}

// LeaderInfo is the leader of an election as one read saw it, or a vacancy.
type LeaderInfo struct {
	// Node is the leader's node, its full path (relative to the session's
	// chroot); "" for a vacancy.
	Node string
	// Value is the leader's value: its Campaign's, or its last Proclaim's.
	Value []byte
	// Epoch is the leader's fencing token, its node's czxid (as
	// Lease.Token): a later leader always has a higher one. 0 for a
	// vacancy.
	Epoch int64
	// Since is when the leader's node was made (the server's clock): when
	// the candidate joined, which is when it began to lead if no one was
	// ahead of it.
	Since time.Time

	mzxid int64 // the zxid of the value's write: orders a leader's values
}

// Vacant says that nobody led when this was read (Node is "", Epoch 0).
func (i LeaderInfo) Vacant() bool { return i.Node == "" }

// Leader reads who leads now: it syncs the session's server with the
// ensemble's leader, so it sees every change acknowledged before the call,
// then lists the election and reads its head. An error matching
// ErrNoLeader says no candidate was there.
func (e *Election) Leader(ctx context.Context) (LeaderInfo, error) {
	if e == nil {
		return LeaderInfo{}, fmt.Errorf("%w: nil election", ErrInvalidArgument)
	}
	if ctx == nil {
		return LeaderInfo{}, fmt.Errorf("%w: nil context", ErrInvalidArgument)
	}
	l := e.core
	names, _, err := l.syncList(ctx)
	for {
		if err != nil {
			return LeaderInfo{}, fmt.Errorf("zklock: leader of %s: %w", l.name, err)
		}
		q := l.queue(names)
		if len(q) == 0 {
			return LeaderInfo{}, fmt.Errorf("zklock: %s: %w", l.name, ErrNoLeader)
		}
		info, rerr := e.readHead(ctx, q[0].name)
		if errors.Is(rerr, zk.ErrNoNode) {
			// The head left after the listing: list again (the sync
			// before the first listing covers this one too).
			names, _, err = l.children(ctx, joining)
			continue
		}
		if rerr != nil {
			return LeaderInfo{}, fmt.Errorf("zklock: leader of %s: %w", l.name, rerr)
		}
		return info, nil
	}
}

// readHead reads a candidate's node: its value and its stat.
func (e *Election) readHead(ctx context.Context, name string) (LeaderInfo, error) {
	s, l := e.core.s, e.core
	// The stat comes back with the result, not through a variable the call
	// writes: a caller whose ctx ended returns while the call may run on.
	r, err := retry(ctx, s, func() (nodeRead, error) {
		d, st, err := s.conn.Get(joinPath(l.path, name))
		return nodeRead{d, st}, err
	})
	if err != nil {
		return LeaderInfo{}, err
	}
	return leaderInfo(path.Join(l.name, name), r.data, r.st), nil
}

// nodeRead is one getData reply.
type nodeRead struct {
	data []byte
	st   *zk.Stat
}

func leaderInfo(node string, data []byte, st *zk.Stat) LeaderInfo {
	return LeaderInfo{Node: node, Value: data, Epoch: st.Czxid,
		Since: time.UnixMilli(st.Ctime).UTC(), mzxid: st.Mzxid}
}
