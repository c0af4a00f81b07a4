package zklock

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-zookeeper/zk"
)

// Downgrade turns a write lease into a read lease without letting anyone
// in between. One multi creates a read node named with the write node's
// sequence number, so it keeps the write node's place in the queue, and
// deletes the write node. Readers queued behind it then acquire; a queued
// writer keeps waiting, now for our read lease (Curator's CURATOR-621 let it
// in). The lease keeps its token and its Done channel.
func (l *Lease) Downgrade(ctx context.Context) error {
	if l == nil {
		return fmt.Errorf("%w: nil lease", ErrInvalidArgument)
	}
	if ctx == nil {
		return fmt.Errorf("%w: nil context", ErrInvalidArgument)
	}
	l.mu.Lock()
	from, kind, err := l.node, l.kind, l.err
	l.mu.Unlock()
	if err != nil {
		return fmt.Errorf("zklock: downgrade %s: %w: %w", from, ErrNotHeld, err)
	}
	if kind != kindWrite {
		return fmt.Errorf("zklock: downgrade %s: %w (a %s lease)", from, ErrNotWriteLease, kind)
	}
	seq, ok := parseChild(baseName(from))
	if !ok {
		return fmt.Errorf("zklock: downgrade %s: %w: no sequence number", from, ErrInvalidArgument)
	}
	to := joinPath(l.lock, protectedPrefix+l.uuid+readMarker+seqName(seq.seq))
	s := l.s
	if err := s.beginOp(); err != nil {
		return fmt.Errorf("zklock: downgrade %s: %w", from, err)
	}
	defer s.endOp()
	var b backoff
	sent := s.now()
	for {
		_, err := do(ctx, s, func() ([]zk.MultiResponse, error) {
			return s.conn.Multi(
				&zk.CreateRequest{Path: to, Data: l.core.data, Acl: l.core.acl, Flags: zk.FlagEphemeral},
				&zk.DeleteRequest{Path: from, Version: -1})
		})
		if err == nil {
			return l.downgraded(to, sent)
		}
		switch {
		case errors.Is(err, zk.ErrNoNode):
			return fmt.Errorf("zklock: downgrade: %w", l.lostAt(from))
		case !transient(err) && !errors.Is(err, zk.ErrNodeExists):
			return fmt.Errorf("zklock: downgrade %s: %w", from, err)
		}
		// The reply was lost (or an earlier lost reply had in fact been
		// applied): the multi happened if our read node exists.
		st, err := retry(ctx, s, func() (*zk.Stat, error) { return l.core.stat(to) })
		switch {
		case err == nil && st.EphemeralOwner == s.ID():
			return l.downgraded(to, sent)
		case err != nil && !errors.Is(err, zk.ErrNoNode):
			return fmt.Errorf("zklock: downgrade %s: %w", from, err)
		}
		if err := b.wait(ctx, s); err != nil {
			return fmt.Errorf("zklock: downgrade %s: %w", from, err)
		}
	}
}

func (l *Lease) downgraded(to string, sent mark) error {
	l.mu.Lock()
	l.node, l.version, l.kind = to, 0, kindRead
	l.mu.Unlock()
	l.s.trace(TraceEvent{Action: ActDowngrade, Lock: l.lock, Request: l.uuid, Kind: kindRead.String(), Node: baseName(to), Start: sent.at, ZxidLow: sent.zxid, wrote: to})
	return nil
}

// lostAt ends a lease whose node turned out to be gone.
func (l *Lease) lostAt(node string) error {
	lost := fmt.Errorf("%w: lock node %s gone or changed", ErrLockLost, node)
	if l.end(lost) {
		l.s.removeLease(l)
	}
	return lost
}
