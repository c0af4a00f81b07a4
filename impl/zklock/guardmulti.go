package zklock

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-zookeeper/zk"

	"github.com/zklock/zklock/traceevent"
)

// guardedTry is one multi of guardedMulti whose outcome ends the call:
// where and when its check was sent, the replies to the ops after the
// check, and what became of it (ResultOk: applied; ResultGone: the check
// failed and the lease has ended; ResultLost: no reply we can read, so it
// may have been applied or not).
type guardedTry struct {
	node    string
	version int32
	sent    mark
	res     []zk.MultiResponse
	result  traceevent.Result
}

// guardedMulti runs ops(node) in one multi headed by a check of the
// lease's node at the data version it knows: the ops apply only while the
// node is ours and unchanged, whatever the client believes. A check that
// fails because someone else wrote our node's data (our session still
// owns it) is tried again at the new version; one that finds the node gone
// or another session's ends the lease (recheck: ErrLockLost). A multi the
// server applied then waits for the lease's own-node watch (writeStood),
// which says ErrMaybeApplied if the node was deleted or replaced around
// it. verb names the call in its errors; done, if not nil, is told the
// try that ends the call before writeStood runs (Proclaim traces it). It
// returns the replies to ops, with paths relative to the chroot.
func (l *Lease) guardedMulti(ctx context.Context, verb string, ops func(node string) []any, done func(guardedTry)) ([]zk.MultiResponse, error) {
	s := l.s
	for {
		l.mu.Lock()
		werr := l.awaitSettled(ctx) // a Downgrade moves the node: check the one it settles on
		node, version, ended := l.node, l.version, l.err
		l.mu.Unlock()
		if werr != nil {
			return nil, fmt.Errorf("zklock: %s %s: %w", verb, s.relative(node), werr)
		}
		if ended != nil {
			return nil, fmt.Errorf("zklock: %s %s: %w: %w", verb, s.relative(node), ErrNotHeld, ended)
		}
		if err := l.awaitOwnWatch(ctx); err != nil {
			return nil, fmt.Errorf("zklock: %s %s: %w", verb, s.relative(node), err)
		}
		t := guardedTry{node: node, version: version, sent: s.now()}
		all := append([]any{&zk.CheckVersionRequest{Path: node, Version: version}}, ops(node)...)
		res, err := do(ctx, s, func() ([]zk.MultiResponse, error) { return s.conn.Multi(all...) })
		if err != nil && len(res) > 0 && (errors.Is(res[0].Error, zk.ErrNoNode) || errors.Is(res[0].Error, zk.ErrBadVersion)) {
			// Someone else's write changed the version (we still hold, and
			// try again), or our node is gone or not ours (recheck ends us).
			if rerr := l.recheck(ctx, node, version); rerr != nil {
				t.result = traceevent.ResultGone
				l.told(done, t)
				return nil, fmt.Errorf("zklock: %s: %w", verb, rerr)
			}
			continue
		}
		if err == nil && len(res) != len(all) {
			err = errors.New("short multi reply")
		}
		if len(res) > 0 {
			res = res[1:]
		}
		for i := range res {
			if res[i].String != "" {
				res[i].String = s.relative(res[i].String)
			}
		}
		t.res, t.result = res, traceevent.ResultOk
		if err != nil {
			// No answer we can read (the connection lost, ctx ended, the
			// session gone): the multi may have been applied or not.
			t.result = traceevent.ResultLost
		}
		l.told(done, t)
		if err != nil {
			return res, fmt.Errorf("zklock: %s %s: %w", verb, s.relative(node), err)
		}
		if err := l.writeStood(ctx); err != nil {
			return res, fmt.Errorf("zklock: %s %s: %w", verb, s.relative(node), err)
		}
		return res, nil
	}
}

// told tells done, if there is one, the try that ends a guarded multi.
func (l *Lease) told(done func(guardedTry), t guardedTry) {
	if done != nil {
		done(t)
	}
}

// recheck looks at our node after Guard's check failed on it: nil means
// the lease still holds (the node moved with a Downgrade, or only its data
// version changed) and Guard may try again.
func (l *Lease) recheck(ctx context.Context, node string, version int32) error {
	l.mu.Lock()
	moved := l.node != node || l.version != version || l.st == stateDowngrading
	alt, ended := l.alt, l.err
	l.mu.Unlock()
	switch {
	case ended != nil:
		return fmt.Errorf("%s: %w: %w", node, ErrNotHeld, ended)
	case moved:
		return nil
	}
	st, err := retry(ctx, l.s, func() (*zk.Stat, error) { return l.core.stat(node) })
	switch {
	case err == nil && st.EphemeralOwner == l.s.ID():
		l.mu.Lock()
		if l.node == node {
			l.version = st.Version
		}
		l.mu.Unlock()
		return nil
	case err == nil:
		return l.lostAt(node)
	case !errors.Is(err, zk.ErrNoNode):
		return fmt.Errorf("%s: %w", node, err)
	case alt == "":
		return l.lostAt(node)
	}
	// A Downgrade that failed as far as we knew did happen after all.
	st, err = retry(ctx, l.s, func() (*zk.Stat, error) { return l.core.stat(alt) })
	switch {
	case err == nil && st.EphemeralOwner == l.s.ID():
		l.mu.Lock()
		if l.node == node {
			l.node, l.alt, l.version, l.kind = alt, "", st.Version, ModeRead
		}
		l.mu.Unlock()
		return nil
	case err == nil || errors.Is(err, zk.ErrNoNode):
		return l.lostAt(node)
	}
	return fmt.Errorf("%s: %w", alt, err)
}
