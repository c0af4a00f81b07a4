package zklock

// The hand-off and the grant: the watch on our own node that lets a
// deletion ahead of us be the grant, and the grant itself.

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-zookeeper/zk"

	"github.com/zklock/zklock/traceevent"
)

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
