package zklock

// Cancelling: a failed acquisition deletes whatever node it may have made.

import (
	"context"
	"errors"
	"path"

	"github.com/go-zookeeper/zk"

	"github.com/zklock/zklock/traceevent"
)

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
