package zklock

// The marker hand-off of a Mutex (spec/tla/PredecessorLockMarked.tla,
// docs/QUEUES.md): the new holder marks its own node at the grant (Mark);
// a waiter watches only its predecessor, takes the predecessor's
// NodeDataChanged as "it holds" and re-arms (MarkSeen, Rearm), and takes
// the deletion of a node whose mark it read as its grant, without listing
// the queue again (GrantOnMarkedGone). Any other wake-up lists again
// (UnmarkedGone). Read/write locks, election latches and semaphore leases
// keep PredecessorLock's rule (wait.go).
//
// The mark is the node's own data written back (setData at version 0):
// "marked" is a data version of 1 or more, read in the Stat of the same
// getData reply that arms the watch, so the mark and the node it marks
// cannot come from two different nodes (a node re-created at the same path
// starts again at version 0). Writing the same bytes back keeps what users
// put there (WithData, ownIdentity), which Curator and Inspect read; the
// mark's time is the node's mtime, the grant's. A mark in the data itself
// would grow every node and change what other clients read.

import (
	"context"
	"errors"

	"github.com/go-zookeeper/zk"

	"github.com/zklock/zklock/traceevent"
)

// marking says whether the acquisition takes the marker's rules: a
// Mutex's, not a read/write lock's, an election's or a semaphore's.
func (c *contender) marking() bool {
	return c.kind == ModeExclusive && !c.l.latch && c.l.sem == ""
}

// isMarked says whether a node's Stat shows a mark: its data was written
// since its create. Only a holder writes a Mutex node (an outsider with
// write access can forge one, as it can delete the holder's node: ACLs
// are the defence).
func isMarked(st *zk.Stat) bool { return st != nil && st.Version >= 1 }

// predRead is a getData of the node we wait for: its watch and whether
// the same reply showed it marked.
type predRead struct {
	ch     <-chan zk.Event
	marked bool
}

// getMarked reads target with a watch (MWatchPredecessor, Rearm).
func (c *contender) getMarked(target string) func() (predRead, error) {
	node := joinPath(c.l.path, target)
	return func() (predRead, error) {
		_, st, ch, err := c.l.s.conn.GetW(node)
		if err != nil {
			return predRead{}, err
		}
		return predRead{ch: ch, marked: isMarked(st)}, nil
	}
}

// readPred sets the watch on target (a traced step a, WatchPredecessor or
// Rearm), with the watch on our own node pipelined beside it when own is
// set. gone is true when target no longer exists; a nil read with no
// error and not gone means: list again.
func (c *contender) readPred(ctx context.Context, a traceevent.Action, target string, own bool) (r *predRead, gone bool, err error) {
	s := c.l.s
	var ownArmed <-chan result[bool]
	if own {
		ownArmed = c.watchOwn()
	}
	sent := s.now()
	v, err := do(ctx, s, c.getMarked(target))
	var b backoff
	for transient(err) && ctx.Err() == nil && s.Err() == nil {
		// A lost reply: the server dropped whatever watch it armed with
		// the connection, and go-zookeeper sets none for a call it got no
		// reply to, so the lost read changed nothing and is sent again
		// (the spec's MWatchPredecessor and Rearm stay enabled until a
		// read answers).
		if err = b.wait(ctx, s); err != nil {
			return nil, false, err
		}
		sent = s.now()
		v, err = do(ctx, s, c.getMarked(target))
	}
	if ownArmed != nil && err == nil {
		// Whether it armed is read at the grant (ownIntact).
		if _, err = await(ctx, s, ownArmed); err != nil {
			return nil, false, err
		}
	}
	switch {
	case err == nil:
		c.step(a, target, traceevent.ResultExists, sent)
		return &v, false, nil
	case errors.Is(err, zk.ErrNoNode):
		c.step(a, target, traceevent.ResultGone, sent)
		return nil, true, nil
	}
	return nil, false, err
}

// waitMarked is a marking waiter's wait on target, the node just before
// ours (last: the listing showed it alone ahead). It returns the lease, or
// nil and no error to list again.
func (c *contender) waitMarked(ctx context.Context, target string, last bool) (*Lease, error) {
	s := c.l.s
	r, _, err := c.readPred(ctx, traceevent.WatchPredecessor, target, last)
	if r == nil || err != nil {
		return nil, err // gone before the watch: list again
	}
	if r.marked && c.own == nil {
		// The head already: its deletion is our grant, which needs our
		// own watch; armed now, off the hand-off's path.
		if _, err := await(ctx, s, c.watchOwn()); err != nil {
			return nil, err
		}
	}
	for {
		var ev zk.Event
		select {
		case ev = <-r.ch:
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-s.done:
			return nil, s.Err()
		}
		switch {
		case ev.Type == zk.EventNodeDataChanged:
			// It marked: it holds, and the change is not our grant. Read
			// the mark and watch again; the grant needs our own watch too.
			c.trace(TraceEvent{Action: traceevent.MarkSeen, Target: target})
			var gone bool
			if r, gone, err = c.readPred(ctx, traceevent.Rearm, target, true); err != nil {
				return nil, err
			}
			if gone {
				// Marked, then deleted: only a holder marks, so it was
				// the head, and nothing can be ahead of ours now.
				return c.grantMarked(ctx)
			}
			if r == nil {
				return nil, nil
			}
		case ev.Type == zk.EventNodeDeleted && r.marked:
			c.trace(TraceEvent{Action: traceevent.GrantOnMarkedGone, Target: target})
			return c.grantMarked(ctx)
		default:
			// Deleted without a mark we read (a cancel, an expiry, a
			// release before its mark, a holder that never marks), or a
			// session event: list again.
			c.trace(TraceEvent{Action: traceevent.UnmarkedGone, Target: target})
			return nil, nil
		}
	}
}

// grantMarked takes the grant a marked predecessor's deletion gave,
// provided our own node is still ours: its watch, armed before, has not
// fired (ownIntact); failing that (a fired watch, a move to another
// connection, no watch), one read of it decides.
func (c *contender) grantMarked(ctx context.Context) (*Lease, error) {
	if !c.ownIntact() {
		ok, err := c.ownStands(ctx)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, nil // the listing reports our node missing
		}
	}
	return c.grant(ctx)
}

// ownStands reads our own node: still there, ours, and the node we made.
func (c *contender) ownStands(ctx context.Context) (bool, error) {
	s := c.l.s
	node := joinPath(c.l.path, c.name)
	st, err := retry(ctx, s, func() (*zk.Stat, error) { return c.l.stat(node) })
	switch {
	case errors.Is(err, zk.ErrNoNode):
		return false, nil
	case err != nil:
		return false, err
	case st.EphemeralOwner != s.ID() || c.stat != nil && st.Czxid != c.stat.Czxid:
		return false, nil
	}
	if c.stat == nil {
		c.stat = st
	}
	return true, nil
}
