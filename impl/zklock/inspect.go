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
// InspectKind tells whether a path is a lock's, an election's or a
// semaphore's; InspectElection and InspectSemaphore read the other two.
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
	names, pzxid, err := l.syncList(ctx)
	if err != nil {
		return nil, fmt.Errorf("zklock: inspect %s: %w", lockPath, err)
	}
	q := queue(names)
	v := &LockView{Path: lockPath, Zxid: pzxid, Other: others(names, q)}
	if v.Nodes, _, err = l.readQueue(ctx, q); err != nil {
		return nil, fmt.Errorf("zklock: inspect %s: %w", lockPath, err)
	}
	return v, nil
}

// readQueue reads each node of q, in q's order, with who holds and whom
// each waiter waits for by the rule its waiter applies (decide); it
// returns each node's data beside its view.
func (l *lockCore) readQueue(ctx context.Context, q []child) ([]NodeView, [][]byte, error) {
	nodes, data := make([]NodeView, 0, len(q)), make([][]byte, 0, len(q))
	for i, c := range q {
		n := NodeView{Name: c.name, Mode: c.kind, Seq: c.seq}
		grant, wait := decide(q, i, c.kind)
		n.Holds = grant
		if !grant {
			n.WaitsFor = wait.name
		}
		d, err := l.readNode(ctx, &n)
		if err != nil {
			return nil, nil, err
		}
		nodes, data = append(nodes, n), append(data, d)
	}
	return nodes, data, nil
}

// others is the names of a listing that are not in q, in listing order.
func others(names []string, q []child) []string {
	in := make(map[string]bool, len(q))
	for _, c := range q {
		in[c.name] = true
	}
	out := []string{}
	for _, n := range names {
		if !in[n] {
			out = append(out, n)
		}
	}
	return out
}

// readNode fills n from its node's data and stat, and returns the data.
func (l *lockCore) readNode(ctx context.Context, n *NodeView) ([]byte, error) {
	r, err := retry(ctx, l.s, func() (nodeRead, error) {
		d, st, err := l.s.conn.Get(path.Join(l.path, n.Name))
		return nodeRead{d, st}, err
	})
	switch {
	case errors.Is(err, zk.ErrNoNode):
		n.Gone = true
		return nil, nil
	case err != nil:
		return nil, err
	}
	st := r.st
	n.Token, n.Session, n.DataSize = st.Czxid, st.EphemeralOwner, len(r.data)
	n.Created = time.UnixMilli(st.Ctime).UTC()
	if id, ok := ParseIdentity(r.data); ok {
		n.Identity = &id
	}
	return r.data, nil
}
