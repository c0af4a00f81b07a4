package zklock

// Joining the queue: our node's create (with the listing pipelined
// behind it), the search for it when the reply is lost, and the listings
// that find our place.

import (
	"context"
	"errors"
	"path"
	"slices"

	"github.com/go-zookeeper/zk"

	"github.com/zklock/zklock/internal/zkwire"
	"github.com/zklock/zklock/traceevent"
)

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
			c.step(traceevent.FindOwnNode, ch.name, traceevent.ResultFound, sent)
			return true, nil
		}
	}
	c.step(traceevent.FindOwnNode, "", traceevent.ResultAbsent, sent)
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
