package zklock

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/zklock/zklock/internal/zkwire"
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

// contender is one acquisition: one uuid, and at most one node.
type contender struct {
	l    *lockCore
	kind Mode
	uuid string

	name      string                        // our node, once known
	stat      *zk.Stat                      // our node's stat, once read: the token is its czxid
	prefetch  <-chan result[*zk.Stat]       // a stat read started early
	inflight  <-chan result[string]         // a create whose reply we stopped waiting for
	sentAt    time.Time                     // when that create was sent
	listed    mark                          // where the last listing started
	pipe      <-chan result[listing]        // a listing sent right behind our create
	leasePipe <-chan result[watchedListing] // a semaphore's: the leases listed with a watch, right behind our create
	pipeAt    mark                          // where it started
	pzxid     int64                         // the lock path's pzxid the last listing saw
	deleted   string                        // the node removeOwnNodes deleted, if one
	own       <-chan zk.Event               // a watch on our own node, while we may take the hand-off
	pred      *armedWatch                   // the watch on the node we wait for, while it has not fired
	ownAt     uint64                        // the session's attach count when own was armed
	ambiguous bool                          // a create may have happened that we never saw
	// ahead is the number of contenders ahead of ours at the first listing
	// that showed our node, -1 before it: once it is set, we are queued
	// and later listings are urgent (listings.go).
	ahead int
	// begun is when the acquisition began: its node was created later, so
	// a token handed out before then is below its own in one history
	// (rewind.go).
	begun time.Time
}

// armedWatch is a watch set on a node of the queue whose event has not
// been taken yet: a re-listing that chooses the same node to wait for
// reuses it instead of setting another.
type armedWatch struct {
	name string
	ch   <-chan zk.Event
}

// trace reports a step of the acquisition: its lock, request, kind and
// node are filled in.
func (c *contender) trace(ev TraceEvent) { c.traceWrite(ev, "") }

// traceWrite reports a step of the acquisition whose write named path
// (see Session.traceWrite).
func (c *contender) traceWrite(ev TraceEvent, path string) {
	if c.l.s.cfg.tracer == nil {
		return
	}
	ev.Lock, ev.Request, ev.Kind = c.l.path, c.uuid, c.kind.String()
	if c.l.sem != "" {
		ev.Lock, ev.Kind, ev.Action = c.l.sem, "", semaphoreAction(ev.Action)
	}
	if ev.Node == "" {
		ev.Node = c.name
	}
	c.l.s.traceWrite(ev, path)
}

func (c *contender) run(ctx context.Context, try bool) (*Lease, error) {
	if err := c.create(ctx); err != nil {
		return nil, err
	}
	for {
		q, me, err := c.list(ctx)
		if err != nil {
			return nil, err
		}
		if me < 0 {
			c.traceList(traceevent.ResultMissing, "", q)
			c.name = ""
			if serr := c.l.s.Err(); serr != nil {
				return nil, serr
			}
			return nil, fmt.Errorf("%w: our node was deleted while we waited", ErrLockLost)
		}
		grant, wait := decide(q, me, c.kind)
		if grant {
			c.traceList(traceevent.ResultGrant, "", q)
			return c.grant(ctx)
		}
		c.traceList(traceevent.ResultWait, wait.name, q)
		if try {
			return nil, ErrLocked
		}
		last := handOff(q, me, c.kind)
		second := twoAhead(q, me, c.kind)
		var ownArmed <-chan result[bool]
		if last {
			ownArmed = c.watchOwn()
		}
		fired, secondFired, err := c.watchBoth(ctx, wait.name, second)
		if err == nil && ownArmed != nil {
			last, err = await(ctx, c.l.s, ownArmed)
		}
		if err != nil {
			return nil, err
		}
		if fired == nil {
			continue
		}
		select {
		case ev := <-fired:
			c.pred = nil // spent
			// The deletion of the only node that blocked us is our grant:
			// no listing (one round trip) after the notification. Any
			// other wake-up (a data change, a watch removed, a session
			// event) lists again. The event is the one of the node we wait
			// for (its own channel), never an older watch's.
			if ev.Type == zk.EventNodeDeleted && last && c.ownIntact() {
				c.trace(TraceEvent{Action: traceevent.GrantOnHeadGone, Target: wait.name})
				return c.grant(ctx)
			}
			c.trace(TraceEvent{Action: traceevent.PredecessorGone, Target: wait.name})
		case <-secondFired:
			// The node two ahead went, typically while the node we wait
			// for holds: list again now, off the critical path, so that
			// this listing shows that node alone before ours and its
			// deletion is then our grant. Its watch stays armed for the
			// next round (c.pred).
			c.trace(TraceEvent{Action: traceevent.PredecessorGone, Target: second})
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.l.s.done:
			return nil, c.l.s.Err()
		}
	}
}

// watchOwn makes sure a watch is armed on our own node, started beside the
// watch on the node we wait for (pipelined: no round trip of its own), and
// says whether it is. The hand-off needs it: a listing is what used to
// tell a waiter its node was still there (an operator may delete it), and
// events come in zxid order, so our node's deletion is seen before that of
// the node we wait for. getData, not exists: nothing is left behind on a
// node that is already gone. The watch fires when we delete the node
// ourselves, so it never outlives it.
func (c *contender) watchOwn() <-chan result[bool] {
	s := c.l.s
	if c.own != nil {
		out := make(chan result[bool], 1)
		out <- result[bool]{v: c.ownIntact()}
		return out
	}
	at := s.attaches.Load()
	node := joinPath(c.l.path, c.name)
	ch, err := start(s, func() (bool, error) {
		_, _, fired, err := s.conn.GetW(node)
		if err != nil {
			// Gone, or no answer: no hand-off this time; the listing
			// after the wake-up finds out which.
			return false, nil
		}
		c.own, c.ownAt = fired, at
		return true, nil
	})
	if err != nil {
		out := make(chan result[bool], 1)
		out <- result[bool]{err: err}
		return out
	}
	return ch
}

// ownIntact says whether our own node is known to be as the last listing
// saw it: its watch has not fired (a fired one is spent: the next wait
// arms another), and the session has stayed on the connection the watch
// was armed on.
func (c *contender) ownIntact() bool {
	if c.own == nil {
		return false
	}
	select {
	case <-c.own:
		c.own = nil
		return false
	default:
	}
	return c.l.s.attaches.Load() == c.ownAt
}

// create makes our EPHEMERAL_SEQUENTIAL node (CreateOk). When the reply is
// lost the create may have happened: look for the node by uuid before
// creating again (CreateReplyLost, FindOwnNode), so no retry leaves an
// orphan behind.
func (c *contender) create(ctx context.Context) error {
	s := c.l.s
	prefix := joinPath(c.l.path, protectedPrefix+c.uuid+c.l.marker(c.kind))
	var b backoff
	for {
		sent := s.now()
		// Sent as create2: the reply carries our node's Stat, so the token
		// costs no read of its own.
		made := s.wire.expectCreate2(prefix)
		ch, err := start(s, func() (string, error) {
			return s.conn.Create(prefix, c.l.data, zk.FlagEphemeralSequential, c.l.acl)
		})
		if err != nil {
			s.wire.forgetCreate2(prefix, made)
			return err
		}
		var r result[string]
		onWire := made.onWire()
	wait:
		for {
			select {
			case r = <-ch:
				break wait
			case <-onWire:
				onWire = nil
				c.pipeList()
			case <-ctx.Done():
				s.wire.forgetCreate2(prefix, made)
				c.inflight, c.sentAt = ch, sent.at
				return ctx.Err()
			case <-s.done:
				// The session ended with the create sent: it may still reach
				// the leader and commit before our session is closed or
				// expired, and the node, if any, goes with the session.
				s.wire.forgetCreate2(prefix, made)
				c.ambiguous = true
				c.trace(TraceEvent{Action: traceevent.CreateReplyLost, Start: sent.at})
				return s.Err()
			}
		}
		s.wire.forgetCreate2(prefix, made)
		if r.err != nil {
			// No node, or none we know of: that listing tells nothing.
			c.pipe, c.leasePipe = nil, nil
		}
		switch err := s.classify(r.err); {
		case err == nil:
			c.name = path.Base(r.v)
			if st, ok := made.get(r.v); ok {
				c.stat = statOf(st)
			}
			c.traceWrite(TraceEvent{Action: traceevent.CreateOk, Start: sent.at, ZxidLow: sent.zxid}, prefix)
			return nil
		case errors.Is(err, zk.ErrNoNode):
			if err := c.l.ensureParents(ctx); err != nil {
				return err
			}
		case transient(err):
			c.ambiguous = true
			c.trace(TraceEvent{Action: traceevent.CreateReplyLost, Start: sent.at})
			found, err := c.findOwnNode(ctx)
			if err != nil || found {
				return err
			}
			if err := b.wait(ctx, s); err != nil {
				return err
			}
		default:
			return err
		}
	}
}

// listing is one getChildren reply: the children and the parent's pzxid.
type listing struct {
	names []string
	pzxid int64
}

// pipeList sends the first listing as soon as our create is on the wire,
// without waiting for its reply: one round trip less on every acquisition.
// The server answers one session's requests in the order they were sent,
// a read after the writes before it (ZooKeeper Programmer's Guide,
// "Consistency Guarantees": sequential consistency), so this listing is
// the one the spec's ListChildren makes after CreateOk. It is used only if
// the create succeeds and the listing shows our node (list); otherwise we
// list again, as without it.
func (c *contender) pipeList() {
	s := c.l.s
	at := s.now()
	if c.l.sem != "" {
		// A semaphore's first listing of its leases, with its watch
		// (Semaphore.listW): the same order argument holds.
		if ch, err := tryListing(s, c.l.childrenW); err == nil {
			c.leasePipe, c.pipeAt = ch, at
		}
		return
	}
	// Only in a free slot (listings.go): one that would wait is not sent,
	// and list sends its own when a slot frees.
	ch, err := tryListing(s, func() (listing, error) {
		names, st, err := s.conn.Children(c.l.path)
		var p int64
		if st != nil {
			p = st.Pzxid
		}
		return listing{names, p}, err
	})
	if err == nil {
		c.pipe, c.pipeAt = ch, at
	}
}

// findOwnNode looks for a node carrying this acquisition's uuid and owned by
// our session: a node of an older session is not ours any more.
func (c *contender) findOwnNode(ctx context.Context) (bool, error) {
	s := c.l.s
	sent := s.now()
	names, _, err := c.l.children(ctx, joining)
	if err != nil {
		return false, err
	}
	for _, ch := range c.l.queue(names) {
		if ch.uuid != c.uuid {
			continue
		}
		st, err := retry(ctx, s, func() (*zk.Stat, error) { return c.l.stat(joinPath(c.l.path, ch.name)) })
		if errors.Is(err, zk.ErrNoNode) {
			continue
		}
		if err != nil {
			return false, err
		}
		if st.EphemeralOwner == s.ID() {
			c.name, c.stat, c.ambiguous = ch.name, st, false
			c.trace(TraceEvent{Action: traceevent.FindOwnNode, Result: traceevent.ResultFound, Target: ch.name, Start: sent.at, ZxidLow: sent.zxid})
			return true, nil
		}
	}
	c.trace(TraceEvent{Action: traceevent.FindOwnNode, Result: traceevent.ResultAbsent, Start: sent.at, ZxidLow: sent.zxid})
	return false, nil
}

// statOf is the create2 reply's Stat as go-zookeeper spells it.
func statOf(st zkwire.Stat) *zk.Stat {
	return &zk.Stat{Czxid: st.Czxid, Mzxid: st.Mzxid, Ctime: st.Ctime, Mtime: st.Mtime,
		Version: st.Version, Cversion: st.Cversion, Aversion: st.Aversion,
		EphemeralOwner: st.EphemeralOwner, DataLength: st.DataLength,
		NumChildren: st.NumChildren, Pzxid: st.Pzxid}
}

// list reads the queue (ListChildren) and finds our place in it; -1 when
// our node is gone. Our node's Stat (the token) usually came with the
// create2 reply; when it did not (the wire sent a plain create), the first
// listing also starts reading it, pipelined.
func (c *contender) list(ctx context.Context) ([]child, int, error) {
	s := c.l.s
	if c.stat == nil && c.prefetch == nil {
		node := joinPath(c.l.path, c.name)
		c.prefetch, _ = start(s, func() (*zk.Stat, error) { return c.l.stat(node) })
	}
	names, pzxid, err := c.pipedListing(ctx)
	if err != nil {
		return nil, -1, err
	}
	if names == nil {
		c.listed = s.now()
		line := joining
		if c.ahead >= 0 {
			line = urgent
		}
		names, pzxid, err = c.l.children(ctx, line)
		if err != nil {
			return nil, -1, err
		}
	}
	c.pzxid = pzxid
	q := c.l.queue(names)
	me := -1
	for i, ch := range q {
		switch {
		case ch.name == c.name:
			me = i
		case ch.uuid == c.uuid:
			// A create we gave up on did happen after all: not ours to keep.
			dup := joinPath(c.l.path, ch.name)
			s.background(func(life context.Context) { s.deleteNode(life, dup) })
		}
	}
	if c.ahead < 0 {
		c.ahead = me
	}
	return q, me, nil
}

// pipedListing takes the listing sent behind our create (pipeList), if
// there is one and it shows our node; nil names: list now.
func (c *contender) pipedListing(ctx context.Context) ([]string, int64, error) {
	ch := c.pipe
	c.pipe = nil
	r, ok, err := takePipe(ctx, c, ch, func(l listing) []string { return l.names })
	if !ok {
		return nil, 0, err
	}
	return r.names, r.pzxid, nil
}

// takePipe waits for a listing pipeList sent behind our create, if ch is
// one, and takes it (ok) if it shows our node. Its trace marks its start,
// and our create's zxid as the least it was served at (the server answered
// it after applying the create). A listing that failed on the connection,
// or found no path, tells nothing: the caller lists again.
func takePipe[T any](ctx context.Context, c *contender, ch <-chan result[T], names func(T) []string) (T, bool, error) {
	var none T
	if ch == nil {
		return none, false, nil
	}
	r, err := await(ctx, c.l.s, ch)
	if err != nil && !transient(err) && !errors.Is(err, zk.ErrNoNode) {
		return none, false, err
	}
	if err != nil || c.stat == nil || !slices.Contains(names(r), c.name) {
		return none, false, nil
	}
	c.listed = mark{at: c.pipeAt.at, zxid: max(c.pipeAt.zxid, c.stat.Czxid)}
	return r, true, nil
}

// grant reads our token and hands out the lease (Grant).
func (c *contender) grant(ctx context.Context) (*Lease, error) {
	s := c.l.s
	node := joinPath(c.l.path, c.name)
	var err error
	if c.prefetch != nil {
		c.stat, err = await(ctx, s, c.prefetch)
		c.prefetch = nil
	}
	if c.stat == nil && (err == nil || transient(err)) {
		c.stat, err = retry(ctx, s, func() (*zk.Stat, error) { return c.l.stat(node) })
	}
	if errors.Is(err, zk.ErrNoNode) {
		return nil, fmt.Errorf("%w: our node vanished at grant", ErrLockLost)
	}
	if err != nil {
		return nil, err
	}
	// The grant is a local step: the listing that showed us first and the
	// stat that gave the token may be long past (a paused process), and the
	// monitor may not have run since. Past the loss deadline another client
	// may hold the lock with a newer token: no lease then.
	if err := s.checkDeadline(); err != nil {
		return nil, err
	}
	lease := newLease(c)
	lease.noteGrant(c.begun)
	if err := s.addLease(lease); err != nil {
		return nil, err
	}
	lease.watchOwnNode(c.own)
	c.own = nil
	c.trace(TraceEvent{Action: traceevent.Grant, Token: lease.token, Start: c.listed.at})
	return lease, nil
}

// twoAhead is the node two ahead of an exclusive contender at position i
// (the one before its predecessor), "" when there is none or the lock is a
// read/write lock (its waiters watch one node each).
func twoAhead(q []child, i int, k Mode) string {
	if k != ModeExclusive || i < 2 {
		return ""
	}
	return q[i-2].name
}

// getW reads a node with a watch: getData, since exists would leave a
// watch behind on a node that is already gone.
func (c *contender) getW(target string) func() (<-chan zk.Event, error) {
	node := joinPath(c.l.path, target)
	return func() (<-chan zk.Event, error) {
		_, _, ch, err := c.l.s.conn.GetW(node)
		return ch, err
	}
}

// watchBoth sets the watches of a wait: on the node two ahead (second, if
// any: WatchSecond) and on the node we wait for (WatchPredecessor), the
// two getData calls in flight together, so the second costs no round trip
// of its own. A nil fired means: list again. A watch on the node we wait
// for that an earlier listing of this acquisition set and that has not
// fired is reused: the listing just made shows that node, so it was
// deleted after it, if at all, and the armed watch tells us.
// go-zookeeper cannot remove a watch: one we stop waiting on (a second
// that went, a node no longer chosen) fires into a channel nobody reads,
// once, when its node goes; its node was gone before the listing that
// dropped it, since a client sees an event before the data after it.
func (c *contender) watchBoth(ctx context.Context, target, second string) (fired, secondFired <-chan zk.Event, err error) {
	s := c.l.s
	sent := s.now()
	var secondRes <-chan result[<-chan zk.Event]
	if second != "" {
		if secondRes, err = start(s, c.getW(second)); err != nil {
			return nil, nil, err
		}
	}
	reuse := c.pred != nil && c.pred.name == target
	if !reuse {
		c.pred = nil
		fired, err = do(ctx, s, c.getW(target))
	}
	if secondRes != nil {
		ch, serr := await(ctx, s, secondRes)
		switch {
		case serr == nil:
			secondFired = ch
			c.trace(TraceEvent{Action: traceevent.WatchSecond, Target: second, Result: traceevent.ResultExists, Start: sent.at, ZxidLow: sent.zxid})
		case errors.Is(serr, zk.ErrNoNode):
			c.trace(TraceEvent{Action: traceevent.WatchSecond, Target: second, Result: traceevent.ResultGone, Start: sent.at, ZxidLow: sent.zxid})
		case transient(serr):
			// Not retried: a retry would read after the predecessor's
			// getData, yet stand for a read before it, and a node gone in
			// between could not be told from one gone before. The second
			// watch only saves a listing, so wait without it
			// (WatchSecondLost, PredecessorLockConnLoss): the
			// predecessor's deletion then lists again.
			c.trace(TraceEvent{Action: traceevent.WatchSecond, Target: second, Result: traceevent.ResultLost, Start: sent.at, ZxidLow: sent.zxid})
		default:
			return nil, nil, serr
		}
	}
	if reuse {
		// Armed since an earlier listing, and this listing saw the node.
		c.trace(TraceEvent{Action: traceevent.WatchPredecessor, Target: target, Result: traceevent.ResultExists, Start: c.listed.at, ZxidLow: c.listed.zxid})
		return c.pred.ch, secondFired, nil
	}
	switch {
	case err == nil:
		c.pred = &armedWatch{name: target, ch: fired}
		c.trace(TraceEvent{Action: traceevent.WatchPredecessor, Target: target, Result: traceevent.ResultExists, Start: sent.at, ZxidLow: sent.zxid})
		return fired, secondFired, nil
	case errors.Is(err, zk.ErrNoNode):
		c.trace(TraceEvent{Action: traceevent.WatchPredecessor, Target: target, Result: traceevent.ResultGone, Start: sent.at, ZxidLow: sent.zxid})
		return nil, nil, nil
	case transient(err):
		// The server dropped the watch with the connection, if it had
		// armed it, and go-zookeeper registers a watch only with its
		// reply: nothing is armed on the node. List again (a step the
		// spec takes as WatchPredecessorLost, PredecessorLockConnLoss);
		// waiting here would wait for an event that never comes.
		c.trace(TraceEvent{Action: traceevent.WatchPredecessor, Target: target, Result: traceevent.ResultLost, Start: sent.at, ZxidLow: sent.zxid})
		var b backoff
		return nil, nil, b.wait(ctx, s)
	}
	return nil, nil, err
}

// cancel ends a failed acquisition (Cancel), deleting whatever node it may
// have made: for a moment in the caller's time, since the node is usually
// one round trip from gone, then in the background.
func (c *contender) cancel() {
	s := c.l.s
	sent := s.now()
	if c.name == "" && c.inflight == nil && !c.ambiguous {
		c.trace(TraceEvent{Action: traceevent.Cancel, Start: sent.at})
		return
	}
	if c.inflight != nil {
		// The acquisition ends without having seen its create's reply:
		// for the trace the create may or may not have happened (a
		// clean-up may still learn the outcome, and delete, later).
		c.trace(TraceEvent{Action: traceevent.CreateReplyLost, Start: c.sentAt})
	}
	if how := s.endedHow(); how != "" {
		// The session has ended: we delete nothing (our calls would fail);
		// the server deletes the session's nodes when it closes or expires
		// it, which may be later than now. The result says so, so that the
		// trace is not read as a delete done now.
		c.trace(TraceEvent{Action: traceevent.Cancel, Result: how, Start: sent.at})
		return
	}
	ctx, stop := context.WithTimeout(s.life, cancelGrace)
	defer stop()
	err := c.removeOwnNodes(ctx)
	c.traceWrite(TraceEvent{Action: traceevent.Cancel, Start: sent.at, ZxidLow: sent.zxid, Pending: err != nil}, c.deleted)
	if err == nil || s.Err() != nil {
		return
	}
	s.background(func(life context.Context) { c.removeOwnNodes(life) })
}

// removeOwnNodes deletes our node, or, when we cannot be sure which it is,
// every node carrying our uuid.
func (c *contender) removeOwnNodes(ctx context.Context) error {
	s := c.l.s
	if c.inflight != nil {
		// The result is taken from the channel only once: a clean-up left to
		// the background must not wait on it again (it would wait until the
		// session ends).
		var r result[string]
		select {
		case r = <-c.inflight:
		case <-ctx.Done():
			return ctx.Err()
		case <-s.done:
			return s.Err()
		}
		c.inflight = nil
		switch err := s.classify(r.err); {
		case err == nil:
			c.name = path.Base(r.v)
		case transient(err):
			c.ambiguous = true
		}
		// Any other error (NoNode, NoAuth, ...) is the server's answer:
		// the create made nothing.
	}
	if !c.ambiguous {
		if c.name == "" {
			return nil
		}
		node := joinPath(c.l.path, c.name)
		gone, err := s.deleteNode(ctx, node)
		if err == nil && !gone {
			c.deleted = node
		}
		return err
	}
	// The create's reply was lost, and with it the connection: this
	// listing may be served by another server, which need not have applied
	// the create yet (a read sees only what its server has applied). A sync
	// brings that server up to the leader, which ordered our create (if it
	// ever commits: one that reaches the leader after our session moved
	// fails) before the sync; a listing without it can miss our node and
	// leave it queued until the session ends.
	if _, err := retry(ctx, s, func() (string, error) { return s.conn.Sync(c.l.path) }); err != nil && !errors.Is(err, zk.ErrNoNode) {
		return err
	}
	names, _, err := c.l.children(ctx, urgent)
	if err != nil {
		return err
	}
	for _, ch := range c.l.queue(names) {
		if ch.uuid == c.uuid {
			if _, err := s.deleteNode(ctx, joinPath(c.l.path, ch.name)); err != nil {
				return err
			}
		}
	}
	c.ambiguous = false
	return nil
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

// traceList reports a listing; the names are copied only when traced.
func (c *contender) traceList(result traceevent.Result, target string, q []child) {
	if c.l.s.cfg.tracer == nil {
		return
	}
	names := make([]string, len(q))
	for i, ch := range q {
		names[i] = ch.name
	}
	c.trace(TraceEvent{Action: traceevent.ListChildren, Result: result, Target: target, Children: names,
		Start: c.listed.at, ZxidLow: c.listed.zxid, Zxid: c.pzxid})
}
