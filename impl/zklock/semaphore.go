package zklock

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/zklock/zklock/traceevent"
)

// Semaphore is a counting semaphore on a ZooKeeper path: at most max
// leases held at once, shared with every process that acquires on the same
// path, Apache Curator's InterProcessSemaphoreV2 included (its nodes are
// Curator's). At path P, P/locks is an internal Mutex (Curator's
// InterProcessMutex nodes) and P/leases holds one ephemeral sequential node
// per lease, named _c_<uuid>-lease-<sequence>.
//
// An acquirer takes the internal mutex, creates its lease node and lists
// P/leases with a watch: while there are more than max children it waits
// for a change and lists again, still holding the internal mutex, so that
// only one acquirer at a time watches the leases (a release wakes at most
// one); once there are at most max it holds its lease and releases the
// internal mutex. A lease is the package's *Lease: Token is its lease
// node's czxid, Guard and Check hold only while the node stands, Unlock
// deletes it, and the lease is lost with the session. Its Mode is
// ModeExclusive: one of the max leases, held alone.
//
// Every child of P/leases counts, as Curator counts it: a node that is not
// a lease node (a stranger) takes a lease's room, so strangers can only
// make us grant fewer leases, never more; a child named "lease-" and ten
// digits, alone or after "-", is a lease whoever made it. Curator stores
// max nowhere, and neither does Semaphore: processes that use one path
// with different maxes each enforce their own on the shared count (max 1
// waits while any lease is held, max 3 holds beside two others), but all
// take turns on the one internal mutex, which an acquirer keeps while it
// waits for a lease, as Curator's does: one with room under its max waits
// (TryAcquire: ErrLocked) while one with a smaller max waits for a lease.
//
// A Semaphore is safe for concurrent use; each Acquire is an acquirer of
// its own.
type Semaphore struct {
	name   string    // as the user gave it
	path   string    // on the server: under the session's chroot
	max    int       // leases held at once
	locks  *lockCore // P/locks: the internal mutex
	leases *lockCore // P/leases: the lease nodes
}

// Node names and children of a semaphore, as Curator's
// InterProcessSemaphoreV2 writes them.
const (
	semLocks    = "/locks"
	semLeases   = "/leases"
	leaseMarker = "-lease-"
)

// NewSemaphore returns the semaphore of at most max leases at path.
// Nothing is sent to the server until Acquire. The options are a Mutex's:
// WithACL for every node made, WithData for the data of the lease nodes
// and the internal mutex's nodes. A max below 1 or a nil session is
// ErrInvalidArgument, a bad path ErrInvalidPath.
func NewSemaphore(s *Session, path string, max int, opts ...LockOption) (*Semaphore, error) {
	if max < 1 {
		return nil, fmt.Errorf("zklock: semaphore %s: %w: max %d leases, want at least 1", path, ErrInvalidArgument, max)
	}
	if err := validateLockPath(path); err != nil {
		return nil, err
	}
	locks, err := newLockCore(s, path+semLocks, opts)
	if err != nil {
		return nil, err
	}
	leases, err := newLockCore(s, path+semLeases, opts)
	if err != nil {
		return nil, err
	}
	leases.sem = s.abs(path)
	return &Semaphore{name: path, path: s.abs(path), max: max, locks: locks, leases: leases}, nil
}

// NewSemaphoreMutex returns the one-lease semaphore at path: the nodes of
// Curator's InterProcessSemaphoreMutex (an InterProcessSemaphoreV2 with
// one lease). Unlike a Mutex, it is not queued in order: its waiters take
// turns through the internal mutex.
func NewSemaphoreMutex(s *Session, path string, opts ...LockOption) (*Semaphore, error) {
	return NewSemaphore(s, path, 1, opts...)
}

// Acquire waits for a lease and returns it. It returns ctx's error if ctx
// ends first, and an error matching ErrSessionLost if the session is lost;
// either way its lease node, if it made one, is deleted and the internal
// mutex released (in the background if the server cannot be reached
// within a second), so nothing is left behind. If someone deletes its
// lease node while it waits, it returns an error matching ErrLockLost
// (Curator's acquirer starts over then). An Observer sees the internal
// mutex's acquisition (its path is P/locks) besides the semaphore's.
func (m *Semaphore) Acquire(ctx context.Context) (*Lease, error) {
	if m == nil {
		return nil, fmt.Errorf("%w: nil semaphore", ErrInvalidArgument)
	}
	return m.acquire(ctx, false)
}

// TryAcquire takes a lease if one is free now, else returns ErrLocked,
// leaving nothing behind. It does not wait for the internal mutex either:
// while another acquirer holds it (it waits for a lease, or is taking one)
// TryAcquire returns ErrLocked.
func (m *Semaphore) TryAcquire(ctx context.Context) (*Lease, error) {
	if m == nil {
		return nil, fmt.Errorf("%w: nil semaphore", ErrInvalidArgument)
	}
	return m.acquire(ctx, true)
}

// Lock is Acquire: with it a Semaphore is a Locker, which LockAll takes.
func (m *Semaphore) Lock(ctx context.Context) (*Lease, error) { return m.Acquire(ctx) }

// Path is the semaphore's path ("" for a nil Semaphore).
func (m *Semaphore) Path() string {
	if m == nil {
		return ""
	}
	return m.name
}

// Max is the number of leases this Semaphore lets be held at once.
func (m *Semaphore) Max() int {
	if m == nil {
		return 0
	}
	return m.max
}

// A Semaphore is a Locker, and LockAll orders it by its path on the server.
var (
	_ Locker       = (*Semaphore)(nil)
	_ serverPather = (*Semaphore)(nil)
)

// serverPath is the semaphore's path on the server (LockAll's order).
func (m *Semaphore) serverPath() string { return m.path }

// Holders lists the lease nodes (full paths, relative to the session's
// chroot), oldest first. While an acquirer waits for a free lease its node
// is listed too, as the newest: it holds once the number of children is
// at most max. Hand-made lease nodes are listed; strangers count, unlisted.
// It syncs the session's server with the ensemble's leader first, so it
// sees every change acknowledged before the call.
func (m *Semaphore) Holders(ctx context.Context) ([]string, error) {
	if m == nil {
		return nil, fmt.Errorf("%w: nil semaphore", ErrInvalidArgument)
	}
	if ctx == nil {
		return nil, fmt.Errorf("%w: nil context", ErrInvalidArgument)
	}
	names, _, err := m.leases.syncList(ctx)
	if err != nil {
		return nil, fmt.Errorf("zklock: holders of %s: %w", m.name, err)
	}
	q := leaseQueue(names)
	out := make([]string, len(q))
	for i, c := range q {
		out[i] = path.Join(m.leases.name, c.name)
	}
	return out, nil
}

func (m *Semaphore) acquire(ctx context.Context, try bool) (*Lease, error) {
	if ctx == nil {
		return nil, fmt.Errorf("%w: nil context", ErrInvalidArgument)
	}
	s := m.leases.s
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("zklock: semaphore %s: %w", m.name, err)
	}
	if err := s.beginOp(); err != nil {
		return nil, fmt.Errorf("zklock: semaphore %s: %w", m.name, err)
	}
	defer s.endOp()
	uuid, err := newUUID()
	if err != nil {
		return nil, err
	}
	c := &contender{l: m.leases, kind: ModeExclusive, uuid: uuid, ahead: -1, begun: time.Now()}
	start := time.Now()
	lease, err := m.hold(ctx, c, try)
	if err != nil {
		err = fmt.Errorf("zklock: semaphore %s: %w", m.name, err)
	}
	s.observeAcquire(Acquisition{Lock: m.name, Mode: ModeExclusive, Try: try, Ahead: -1, Waited: time.Since(start), Err: err})
	return lease, err
}

// hold takes the internal mutex, then a lease, then releases the internal
// mutex, whatever the outcome: a failed acquisition first deletes its
// lease node (CancelAcquire), so that the next acquirer never counts it.
func (m *Semaphore) hold(ctx context.Context, c *contender, try bool) (*Lease, error) {
	internal, err := m.locks.acquire(ctx, ModeExclusive, try)
	if err != nil {
		c.cancel() // nothing made: only the trace's CancelAcquire
		return nil, err
	}
	c.trace(TraceEvent{Action: traceevent.AcquireInternal, Target: baseName(internal.Node())})
	lease, err := m.take(ctx, c, try)
	if err != nil {
		c.cancel()
	}
	m.releaseInternal(c, internal)
	return lease, err
}

// releaseInternal unlocks the internal mutex, for a moment past the
// caller's context (which may have ended), then in the background.
func (m *Semaphore) releaseInternal(c *contender, internal *Lease) {
	s := m.locks.s
	sent := s.now()
	ctx, stop := context.WithTimeout(s.life, cancelGrace)
	defer stop()
	err := internal.Unlock(ctx)
	c.trace(TraceEvent{Action: traceevent.ReleaseInternal, Target: baseName(internal.Node()),
		Start: sent.at, ZxidLow: sent.zxid, Pending: err != nil})
}

// take creates our lease node (a lost reply is resolved by our uuid, never
// by a blind retry: contender.create) and lists the leases until there is
// room for ours (try: lists once).
func (m *Semaphore) take(ctx context.Context, c *contender, try bool) (*Lease, error) {
	s := m.leases.s
	if err := c.create(ctx); err != nil {
		return nil, err
	}
	for {
		r, err := m.listW(ctx, c)
		if err != nil {
			return nil, err
		}
		m.dropDuplicates(c, r.names)
		if !slices.Contains(r.names, c.name) {
			m.traceList(c, traceevent.ResultMissing, r, 0)
			c.name = ""
			if serr := s.Err(); serr != nil {
				return nil, serr
			}
			return nil, fmt.Errorf("%w: our lease node was deleted while we waited", ErrLockLost)
		}
		// Every child counts, as Curator counts it (Semaphore).
		if len(r.names) <= m.max {
			return m.grant(ctx, c, r)
		}
		m.traceList(c, traceevent.ResultWait, r, 0)
		if try {
			return nil, ErrLocked
		}
		select {
		case <-r.fired:
			c.trace(TraceEvent{Action: traceevent.LeasesChanged})
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-s.done:
			return nil, s.Err()
		}
	}
}

// dropDuplicates deletes, in the background, any lease node of ours but
// c's own: a create whose reply was lost and which the search for it did
// not find (answered, after a reconnection, by a server that had not yet
// applied it), made again. It holds no lease, but it counts against max
// and would stay until the session ends. A lock's contender drops such a
// node the same way (contender.list; PredecessorLockStaleReads).
// It looks only at the names' prefix (ours, as c.create makes it): the
// acquire path parses and sorts nothing for it.
func (m *Semaphore) dropDuplicates(c *contender, names []string) {
	s := m.leases.s
	ours := protectedPrefix + c.uuid + c.l.marker(c.kind)
	for _, n := range names {
		if n != c.name && strings.HasPrefix(n, ours) {
			dup := joinPath(m.leases.path, n)
			s.background(func(life context.Context) { s.deleteNode(life, dup) })
		}
	}
}

// watchedListing is one getChildren reply with its watch.
type watchedListing struct {
	names []string
	pzxid int64
	fired <-chan zk.Event
}

// listW lists the leases and sets a watch on them (ListLeases). Our node
// is in the path, so the path exists; a missing path lists as empty (our
// node then is gone).
//
// The first listing is usually already on its way: sent right behind our
// create (contender.pipeList), it is served after the create, as the
// spec's ListLeases after CreateLease, and costs no round trip of its own
// on the path the internal mutex serializes. It is taken if it shows our
// node; otherwise we list again, as without it.
func (m *Semaphore) listW(ctx context.Context, c *contender) (watchedListing, error) {
	s := m.leases.s
	if r, ok, err := m.pipedListW(ctx, c); ok || err != nil {
		return r, err
	}
	c.listed = s.now()
	r, err := retryListing(ctx, s, urgent, m.leases.childrenW)
	if errors.Is(err, zk.ErrNoNode) {
		return watchedListing{}, nil
	}
	return r, err
}

// pipedListW takes the listing pipeList sent behind our create, if there
// is one and it shows our node (ok). One that is not taken may leave its
// watch armed: it fires on the next change of the leases, into a channel
// nobody reads (go-zookeeper cannot remove a watch), and is gone.
func (m *Semaphore) pipedListW(ctx context.Context, c *contender) (watchedListing, bool, error) {
	ch := c.leasePipe
	c.leasePipe = nil
	return takePipe(ctx, c, ch, func(l watchedListing) []string { return l.names })
}

// childrenW lists the path's children and sets a watch on them.
func (l *lockCore) childrenW() (watchedListing, error) {
	names, st, fired, err := l.s.conn.ChildrenW(l.path)
	var p int64
	if st != nil {
		p = st.Pzxid
	}
	return watchedListing{names, p, fired}, err
}

// grant hands out the lease: our node's stat (the token) came with the
// create2 reply, else it is read now.
func (m *Semaphore) grant(ctx context.Context, c *contender, r watchedListing) (*Lease, error) {
	s := m.leases.s
	if c.stat == nil {
		node := joinPath(m.leases.path, c.name)
		st, err := retry(ctx, s, func() (*zk.Stat, error) { return m.leases.stat(node) })
		if errors.Is(err, zk.ErrNoNode) {
			return nil, fmt.Errorf("%w: our lease node vanished at grant", ErrLockLost)
		}
		if err != nil {
			return nil, err
		}
		c.stat = st
	}
	// As for a lock (contender.grant): past the loss deadline another
	// client may hold our lease's room.
	if err := s.checkDeadline(); err != nil {
		return nil, err
	}
	lease := newLease(c)
	lease.sem = m.leases.sem
	lease.noteGrant(c.begun)
	if err := s.addLease(lease); err != nil {
		return nil, err
	}
	lease.watchOwnNode(c.own)
	c.own = nil
	m.traceList(c, traceevent.ResultHeld, r, lease.token)
	return lease, nil
}

// traceList reports a listing of the leases (ListLeases).
func (m *Semaphore) traceList(c *contender, res traceevent.Result, r watchedListing, token int64) {
	if m.leases.s.cfg.tracer == nil {
		return
	}
	c.trace(TraceEvent{Action: traceevent.ListLeases, Result: res, Children: slices.Clone(r.names), Token: token,
		Max: m.max, Start: c.listed.at, ZxidLow: c.listed.zxid, Zxid: r.pzxid})
}

// semaphoreAction names a step of a lease node's contender (contender.go)
// as the semaphore's spec does.
func semaphoreAction(a traceevent.Action) traceevent.Action {
	switch a {
	case traceevent.CreateOk:
		return traceevent.CreateLease
	case traceevent.CreateReplyLost:
		return traceevent.CreateLeaseReplyLost
	case traceevent.FindOwnNode:
		return traceevent.FindOwnLease
	case traceevent.Cancel:
		return traceevent.CancelAcquire
	}
	return a
}
