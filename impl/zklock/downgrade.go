package zklock

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-zookeeper/zk"

	"github.com/zklock/zklock/traceevent"
)

// Downgrade turns a write lease into a read lease without letting anyone
// in between. One multi creates a read node named with the write node's
// sequence number, so it keeps the write node's place in the queue, and
// deletes the write node. Readers queued behind it then acquire; a queued
// writer keeps waiting, now for our read lease (Curator's CURATOR-621 let it
// in). The lease keeps its token and its Done channel.
//
// A Downgrade racing another waits for it and then returns
// ErrNotWriteLease. If Unlock is called while the multi is under way, the
// Unlock deletes whichever node the multi leaves and Downgrade returns
// ErrNotHeld (matching ErrReleased). If Downgrade fails with its outcome
// unknown (ctx ended while the multi was in flight), the lease is a read
// lease from then on (Mode says so): the multi may have happened, and
// readers queued behind may be granted, so exclusive access ended when
// Downgrade was called. The read node the multi may have made is not
// forgotten: Guard adopts it if the write node is gone, and Unlock deletes
// it. If the multi did not happen, the write node stays until Unlock; it
// only keeps more clients waiting.
func (l *Lease) Downgrade(ctx context.Context) error {
	if l == nil {
		return fmt.Errorf("%w: nil lease", ErrInvalidArgument)
	}
	if ctx == nil {
		return fmt.Errorf("%w: nil context", ErrInvalidArgument)
	}
	l.mu.Lock()
	werr := l.awaitSettled(ctx)
	from, kind, err := l.node, l.kind, l.err
	if werr == nil && err == nil && kind == ModeWrite {
		l.st, l.settled, l.moved = stateDowngrading, make(chan struct{}), true
	}
	l.mu.Unlock()
	switch {
	case werr != nil:
		return fmt.Errorf("zklock: downgrade %s: %w", from, werr)
	case err != nil:
		return fmt.Errorf("zklock: downgrade %s: %w: %w", from, ErrNotHeld, err)
	case kind != ModeWrite:
		return fmt.Errorf("zklock: downgrade %s: %w (a %s lease)", from, ErrNotWriteLease, kind)
	}
	to, err := l.readNodeFor(from)
	if err != nil {
		l.settle("", false, nil)
		return err
	}
	sent := l.s.now()
	done, err := l.downgrade(ctx, from, to)
	if done {
		l.s.traceWrite(TraceEvent{Action: traceevent.Downgrade, Lock: l.lock, Request: l.uuid, Kind: ModeRead.String(), Node: baseName(to), Start: sent.at, ZxidLow: sent.zxid}, to)
		return l.settle(to, true, nil)
	}
	if errors.Is(err, zk.ErrNoNode) {
		return l.settle("", false, fmt.Errorf("zklock: downgrade: %w", l.lostAt(from)))
	}
	return l.settle(to, false, fmt.Errorf("zklock: downgrade %s: %w", from, err))
}

// readNodeFor names the read node that takes a write node's place.
func (l *Lease) readNodeFor(from string) (string, error) {
	seq, ok := parseChild(baseName(from))
	if !ok {
		return "", fmt.Errorf("zklock: downgrade %s: %w: no sequence number", from, ErrInvalidArgument)
	}
	return joinPath(l.lock, protectedPrefix+l.uuid+readMarker+seqName(seq.seq)), nil
}

// settle ends the downgrading state. When the multi happened the lease now
// holds the read node. When it may have happened or may yet happen, the
// read node is kept as the lease's alternative and the lease is a read
// lease: readers behind may be granted (SharedLock!DowngradeReplyLost; the
// mutant SharedLockDowngradeLost, which keeps the write lease, breaks
// WriterExclusion). An Unlock that came meanwhile takes it from here.
func (l *Lease) settle(to string, done bool, err error) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch {
	case done:
		l.node, l.alt, l.version, l.kind = to, "", 0, ModeRead
	case to != "":
		l.alt, l.kind = to, ModeRead
	}
	if l.st == stateDowngrading {
		l.st = stateHolding
	}
	close(l.settled)
	l.settled = nil
	if l.unlock && err == nil {
		return fmt.Errorf("zklock: downgrade %s: %w: %w", l.node, ErrNotHeld, ErrReleased)
	}
	return err
}

// downgrade runs the multi until it is known to have happened (true) or
// not, through lost replies.
func (l *Lease) downgrade(ctx context.Context, from, to string) (bool, error) {
	s := l.s
	if err := s.beginOp(); err != nil {
		return false, err
	}
	defer s.endOp()
	var b backoff
	for {
		_, err := do(ctx, s, func() ([]zk.MultiResponse, error) {
			return s.conn.Multi(
				&zk.CreateRequest{Path: to, Data: l.core.data, Acl: l.core.acl, Flags: zk.FlagEphemeral},
				&zk.DeleteRequest{Path: from, Version: -1})
		})
		if err == nil {
			return true, nil
		}
		if errors.Is(err, zk.ErrNoNode) || (!transient(err) && !errors.Is(err, zk.ErrNodeExists)) {
			return false, err
		}
		// The reply was lost (or an earlier lost reply had in fact been
		// applied): the multi happened if our read node exists.
		st, err := retry(ctx, s, func() (*zk.Stat, error) { return l.core.stat(to) })
		switch {
		case err == nil && st.EphemeralOwner == s.ID():
			return true, nil
		case err != nil && !errors.Is(err, zk.ErrNoNode):
			return false, err
		}
		if err := b.wait(ctx, s); err != nil {
			return false, err
		}
	}
}

// lostAt ends a lease whose node turned out to be gone (or not ours), if
// the lease still has that node.
func (l *Lease) lostAt(node string) error {
	lost := fmt.Errorf("%w: lock node %s gone or changed", ErrLockLost, node)
	l.mu.Lock()
	current := l.node == node
	l.mu.Unlock()
	if current && l.end(lost) {
		l.s.removeLease(l)
	}
	return lost
}
