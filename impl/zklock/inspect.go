package zklock

import (
	"context"
	"errors"
	"fmt"
	"path"
	"time"

	"github.com/go-zookeeper/zk"
)

// LockView is a lock path as the locks read it: its contenders in queue
// order, who holds and whom each waiter waits for by the same rule a
// waiter applies, and the children that are not contenders.
type LockView struct {
	Path  string     `json:"path"`
	Zxid  int64      `json:"pzxid"`     // the last change to the queue (0: no lock path)
	Nodes []NodeView `json:"nodes"`     // contenders, head of the queue first
	Other []string   `json:"strangers"` // children that are not contenders (nested locks, strangers' nodes)
}

// NodeView is one contender's node.
type NodeView struct {
	Name string `json:"name"`
	Mode Mode   `json:"mode"` // exclusive, read or write
	Seq  int64  `json:"seq"`
	// Holds: nothing ahead blocks it (for a reader, no writer ahead), so
	// its owner holds the lock or is about to learn it does.
	Holds bool `json:"holds"`
	// WaitsFor is the node it waits for ("" when it holds): its
	// predecessor, or for a reader the last writer ahead of it.
	WaitsFor string    `json:"waits_for,omitempty"`
	Token    int64     `json:"token"`   // the node's czxid: the fencing token of its lease
	Created  time.Time `json:"created"` // the node's ctime (the server's clock)
	// Session is the node's ephemeralOwner. An ephemeral node exists only
	// while the server holds its session: a node listed here belongs to a
	// session the server has not expired.
	Session  int64     `json:"session"`
	Identity *Identity `json:"identity,omitempty"` // the default node data, if that is what it holds
	DataSize int       `json:"data_size"`
	// Gone: the node was deleted between the listing and the read of its
	// data (its lease ended meanwhile); the other fields but Name, Mode and
	// Seq are zero.
	Gone bool `json:"gone,omitempty"`
}

// Inspect reads lockPath as a Mutex or an RWMutex reads it: a sync (so a
// lagging server answers as up to date as the leader), a listing, then
// each contender's data and stat. It takes no lock and changes nothing.
func Inspect(ctx context.Context, s *Session, lockPath string) (*LockView, error) {
	if s == nil {
		return nil, fmt.Errorf("%w: nil session", ErrInvalidArgument)
	}
	if ctx == nil {
		return nil, fmt.Errorf("%w: nil context", ErrInvalidArgument)
	}
	if err := validateLockPath(lockPath); err != nil {
		return nil, err
	}
	l := &lockCore{s: s, path: s.abs(lockPath), name: lockPath}
	if _, err := retry(ctx, s, func() (string, error) { return s.conn.Sync(l.path) }); err != nil && !errors.Is(err, zk.ErrNoNode) {
		return nil, fmt.Errorf("zklock: inspect %s: %w", lockPath, err)
	}
	names, pzxid, err := l.children(ctx, joining)
	if err != nil {
		return nil, fmt.Errorf("zklock: inspect %s: %w", lockPath, err)
	}
	q := queue(names)
	v := &LockView{Path: lockPath, Zxid: pzxid, Nodes: make([]NodeView, 0, len(q)), Other: []string{}}
	contender := map[string]bool{}
	for i, c := range q {
		contender[c.name] = true
		n := NodeView{Name: c.name, Mode: c.kind, Seq: c.seq}
		grant, wait := decide(q, i, c.kind)
		n.Holds = grant
		if !grant {
			n.WaitsFor = wait.name
		}
		if err := l.readNode(ctx, &n); err != nil {
			return nil, fmt.Errorf("zklock: inspect %s: %w", lockPath, err)
		}
		v.Nodes = append(v.Nodes, n)
	}
	for _, name := range names {
		if !contender[name] {
			v.Other = append(v.Other, name)
		}
	}
	return v, nil
}

// readNode fills n from its node's data and stat.
func (l *lockCore) readNode(ctx context.Context, n *NodeView) error {
	var st *zk.Stat
	data, err := retry(ctx, l.s, func() ([]byte, error) {
		d, s, err := l.s.conn.Get(path.Join(l.path, n.Name))
		st = s
		return d, err
	})
	switch {
	case errors.Is(err, zk.ErrNoNode):
		n.Gone = true
		return nil
	case err != nil:
		return err
	}
	n.Token, n.Session, n.DataSize = st.Czxid, st.EphemeralOwner, len(data)
	n.Created = time.UnixMilli(st.Ctime).UTC()
	if id, ok := ParseIdentity(data); ok {
		n.Identity = &id
	}
	return nil
}
