package zklock

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/go-zookeeper/zk"
	"github.com/zklock/zklock/traceevent"
)

// Errors of a lease whose lock node someone else removed. Each matches
// ErrLockLost too.
var (
	// ErrNodeDeleted: someone else (an operator, a clean-up script, another
	// program with the rights) deleted a lease's lock node while it was
	// held. The next contender may hold the lock already.
	ErrNodeDeleted = fmt.Errorf("%w: lock node deleted by someone else", ErrLockLost)
	// ErrNodeReplaced: a lease's lock node was deleted and a node of the
	// same name made again by someone else (its czxid or its owner is not
	// ours). The node is not ours, whatever its data version.
	ErrNodeReplaced = fmt.Errorf("%w: lock node replaced by someone else", ErrLockLost)
	// ErrMaybeApplied: a Guard or Proclaim whose multi the server applied,
	// while the lease ended because its node was deleted or replaced by
	// someone else: the check may have passed on a stranger's node of the
	// same name at a matching version, so the write may have applied
	// without the lock. Never reported as success.
	ErrMaybeApplied = fmt.Errorf("%w: the guarded write may have applied", ErrLockLost)
)

// ownWatch is the one watch a held lease keeps on its own lock node
// (LearnNodeGone in spec/tla/OwnWatch.tla). ZooKeeper sends a watch event
// before the reply of any request the server handled after the change,
// on the same connection, and go-zookeeper hands the event over (fired is
// closed) before it hands over that reply: a guarded multi whose reply
// finds fired still open was applied while our node stood unchanged.
type ownWatch struct {
	node  string
	armed chan struct{}   // closed once the watch is set on the server, or will never be
	fired <-chan zk.Event // go-zookeeper's channel, set before armed is closed
	acted chan struct{}   // closed once the watcher acted on the event
	once  sync.Once       // closes armed
	// stopped: the watcher ended with this watch and the lease may still
	// hold (its session ending, or a read refused); under the lease's mu.
	stopped bool

	mu    sync.Mutex
	ev    *zk.Event // the event, once taken from fired by the watcher or a writer
	taken bool      // the watcher has taken the event (a writer saw fired closed)
}

func newOwnWatch(node string) *ownWatch {
	return &ownWatch{node: node, armed: make(chan struct{}), acted: make(chan struct{})}
}

// setArmed closes armed, once.
func (w *ownWatch) setArmed() { w.once.Do(func() { close(w.armed) }) }

// hasFired says whether the watch's event has come; it never blocks.
func (w *ownWatch) hasFired() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.ev != nil || w.taken || w.fired == nil {
		return w.ev != nil || w.taken
	}
	select {
	case ev, ok := <-w.fired:
		if ok {
			w.ev = &ev
		} else {
			w.taken = true
		}
		return true
	default:
		return false
	}
}

// event waits for the watch's event, taken by whichever side came first.
func (w *ownWatch) event(ctx context.Context, done <-chan struct{}) (zk.Event, bool) {
	select {
	case ev, ok := <-w.fired:
		w.mu.Lock()
		defer w.mu.Unlock()
		if ok {
			w.ev = &ev
		}
		if w.ev == nil {
			return zk.Event{Type: zk.EventNotWatching}, true
		}
		return *w.ev, true
	case <-done:
	case <-ctx.Done():
	}
	return zk.Event{}, false
}

// watchOwnNode starts the lease's watcher: it keeps one watch on the
// lease's node for as long as the lease is held, reusing fired (the watch a
// waiter armed on its own node for the hand-off) if there is one. It ends
// the lease when the node is deleted or replaced by someone else. The
// first watch is the lease's before the grant returns, so that Guard and
// Proclaim (and Unlock, after a Downgrade) wait for it to be set.
func (l *Lease) watchOwnNode(fired <-chan zk.Event) {
	l.mu.Lock()
	w := newOwnWatch(l.node)
	l.watch = w
	l.mu.Unlock()
	if !l.s.background(func(life context.Context) { l.keepOwnWatch(life, w, fired) }) {
		l.mu.Lock()
		w.stopped = true
		l.mu.Unlock()
		w.setArmed()
		close(w.acted)
	}
}

// keepOwnWatch is the watcher: arm, wait for the event, act, arm again.
// Before it closes a watch's acted, the lease has its next watch, or the
// watch is marked stopped: a writer waiting on acted then never spins.
func (l *Lease) keepOwnWatch(life context.Context, w *ownWatch, fired <-chan zk.Event) {
	czxid := l.token // the node we were granted: a replacement has another czxid
	for {
		again := l.watchOnce(life, w, fired, &czxid)
		w.setArmed()
		l.mu.Lock()
		var next *ownWatch
		if again && l.err == nil {
			if l.node != w.node {
				czxid = 0 // moved by a Downgrade: the new node's stat is the baseline
			}
			next = newOwnWatch(l.node)
			l.watch = next
		} else {
			w.stopped = true
		}
		l.mu.Unlock()
		close(w.acted)
		if next == nil {
			return
		}
		w, fired = next, nil
	}
}

// watchOnce arms w (unless fired is already armed on its node), waits
// for its event and acts on it. It reports whether to arm again. czxid is
// the node's czxid as first seen (0: take it from this arming).
func (l *Lease) watchOnce(life context.Context, w *ownWatch, fired <-chan zk.Event, czxid *int64) bool {
	if fired == nil {
		st, ch, err := l.armOwn(life, w.node)
		switch {
		case errors.Is(err, zk.ErrNoNode):
			return l.ownNodeGone(life, w.node, ErrNodeDeleted)
		case err != nil:
			return false // the session ended: so does the lease, with it
		case st.EphemeralOwner != l.s.ID() || (*czxid != 0 && st.Czxid != *czxid):
			return l.ownNodeGone(life, w.node, ErrNodeReplaced)
		}
		*czxid, fired = st.Czxid, ch
	}
	w.mu.Lock()
	w.fired = fired
	w.mu.Unlock()
	w.setArmed()
	ev, ok := w.event(life, l.done)
	if !ok {
		return false
	}
	switch ev.Type {
	case zk.EventNotWatching:
		return false // the session ended: so does the lease, with it
	case zk.EventNodeDeleted:
		return l.ownNodeGone(life, w.node, ErrNodeDeleted)
	}
	// A data change (ours by Proclaim, or someone's setData): arm again,
	// and the stat that comes with it tells whether the node is ours.
	return true
}

// armOwn sets the watch on node, through lost connections.
func (l *Lease) armOwn(life context.Context, node string) (*zk.Stat, <-chan zk.Event, error) {
	type armed struct {
		st *zk.Stat
		ch <-chan zk.Event
	}
	a, err := retry(life, l.s, func() (armed, error) {
		_, st, ch, err := l.s.conn.GetW(node)
		return armed{st, ch}, err
	})
	return a.st, a.ch, err
}

// ownNodeGone ends the lease because its node went (how says whether it
// was deleted or replaced), unless the node moved with our own Downgrade
// or the lease already ended. It reports whether to arm again (on the
// node the lease moved to).
func (l *Lease) ownNodeGone(life context.Context, node string, how error) bool {
	l.mu.Lock()
	if err := l.awaitSettled(life); err != nil {
		l.mu.Unlock()
		return false
	}
	switch {
	case l.err != nil:
		l.mu.Unlock()
		return false
	case l.node != node:
		l.mu.Unlock()
		return true
	case l.alt != "":
		// A Downgrade whose outcome was unknown may have moved us to its
		// read node after all: Guard's recheck adopts it, or ends the
		// lease.
		version := l.version
		l.mu.Unlock()
		return l.recheck(life, node, version) == nil
	}
	l.mu.Unlock()
	if l.s.Err() != nil {
		// The session ended first, and its end ends the lease with its
		// cause: closing a session deletes its nodes, which fires this
		// watch, and that is no one else's delete.
		return false
	}
	if l.end(fmt.Errorf("%w: %s", how, l.s.relative(node))) {
		l.s.removeLease(l)
		l.traceNodeGone(node)
	}
	return false
}

// traceNodeGone reports that the lease ended on its own-node watch
// (LearnNodeGone in spec/tla/PredecessorLockForeign.tla): a step of no
// request of ours, so it carries no zxids.
func (l *Lease) traceNodeGone(node string) {
	l.mu.Lock()
	kind := l.kind
	l.mu.Unlock()
	ev := TraceEvent{Action: traceevent.LearnNodeGone, Lock: l.lock, Request: l.uuid, Kind: kind.String(), Node: baseName(node)}
	if l.sem != "" {
		ev.Lock, ev.Kind = l.sem, ""
	}
	l.s.trace(ev)
}

// awaitOwnWatch waits until the lease's watch is set on the server, so
// that a multi sent next is ordered after it: any change to our node
// before the multi is applied fires it before the multi's reply.
func (l *Lease) awaitOwnWatch(ctx context.Context) error {
	l.mu.Lock()
	w := l.watch
	l.mu.Unlock()
	if w == nil {
		return nil
	}
	select {
	case <-w.armed:
	case <-l.done:
	case <-ctx.Done():
		return ctx.Err()
	}
	return nil
}

// writeStood tells whether a guarded multi that the server applied went
// through our own node: nil if the watch set before it did not fire by its
// reply (or fired for a change that left the node ours); an error matching
// ErrMaybeApplied if the lease ended because someone else deleted or
// replaced its node.
func (l *Lease) writeStood(ctx context.Context) error {
	for {
		l.mu.Lock()
		w, ended := l.watch, l.err
		l.mu.Unlock()
		switch {
		case ended != nil && (errors.Is(ended, ErrNodeDeleted) || errors.Is(ended, ErrNodeReplaced)):
			return fmt.Errorf("%w: %w", ErrMaybeApplied, ended)
		case ended != nil || w == nil:
			return nil
		}
		select {
		case <-w.armed:
		case <-l.done:
			continue
		case <-ctx.Done():
			return fmt.Errorf("the write applied; whether through our node is unknown: %w", ctx.Err())
		}
		if !w.hasFired() {
			return nil
		}
		select {
		case <-w.acted:
		case <-l.done:
		case <-ctx.Done():
			return fmt.Errorf("the write applied; whether through our node is unknown: %w", ctx.Err())
		}
		l.mu.Lock()
		stopped, ended := w.stopped, l.err
		l.mu.Unlock()
		if stopped && ended == nil {
			return nil // no watch any more: what the code did before it had one
		}
	}
}
