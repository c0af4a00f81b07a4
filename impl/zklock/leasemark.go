package zklock

// The holder's side of the marker hand-off (marker.go): the mark a Mutex
// lease writes on its node at the grant, and the WatchOwn step of its
// own-node watch that reads it back.

import (
	"context"

	"github.com/go-zookeeper/zk"

	"github.com/zklock/zklock/traceevent"
)

// leaseMark is a lease's mark: its setData is sent once, at the grant,
// and not waited for by Lock.
type leaseMark struct {
	sent chan struct{} // closed just before the setData is handed to the connection
	done chan struct{} // closed once its reply (or its loss) is known and traced
	// under the lease's mu:
	maybe    bool // the mark may be on the node: applied, or its reply lost
	watchOwn bool // WatchOwn was traced: the own-node watch read the mark back
}

// sendMark marks the lease's node (Mark): setData of the node's own data
// at version 0, so that a mark never lands on a node someone else wrote,
// nor twice. Sent on the session's connection before Unlock's delete
// (release waits for sent), and a session's requests are applied in
// order, so the mark lands before the release; a mark that finds the
// node gone is no mark, and the successor lists again.
func (l *Lease) sendMark() {
	m := &leaseMark{sent: make(chan struct{}), done: make(chan struct{})}
	l.mu.Lock()
	l.marking = m
	node := l.node
	l.mu.Unlock()
	s := l.s
	at := s.now()
	_, err := start(s, func() (struct{}, error) {
		close(m.sent)
		st, err := s.conn.Set(node, l.core.data, 0)
		l.marked(m, node, at, st, err)
		return struct{}{}, nil
	})
	if err != nil {
		close(m.sent)
		close(m.done)
	}
}

// marked takes the mark's reply: the data version Guard and Check go on
// from, and the Mark step, traced before done is closed so that release
// traces its Release after it.
func (l *Lease) marked(m *leaseMark, node string, at mark, st *zk.Stat, err error) {
	defer close(m.done)
	ev := TraceEvent{Action: traceevent.Mark, Lock: l.lock, Request: l.uuid, Kind: ModeExclusive.String(),
		Node: baseName(node), Start: at.at, ZxidLow: at.zxid}
	switch {
	case err == nil && st != nil:
		l.mu.Lock()
		if l.node == node {
			l.version = st.Version // our own write: Guard and Check go on from it
		}
		m.maybe = true
		l.mu.Unlock()
		ev.Zxid = st.Mzxid
	case transient(err):
		// Applied or not: a successor may read it.
		l.mu.Lock()
		m.maybe = true
		l.mu.Unlock()
		ev.Result, ev.Pending = traceevent.ResultLost, true
	default:
		return // the node gone or written by someone else: no mark
	}
	l.s.trace(ev)
}

// awaitMark waits for the mark's reply, if one was sent, so that Guard
// and Check read the data version it made.
func (l *Lease) awaitMark(ctx context.Context) error {
	l.mu.Lock()
	m := l.marking
	l.mu.Unlock()
	if m == nil {
		return nil
	}
	select {
	case <-m.done:
	case <-l.s.done:
	case <-ctx.Done():
		return ctx.Err()
	}
	return nil
}

// ownReadMark traces WatchOwn when the own-node watch, armed with a getData
// whose Stat is st, read the lease's mark back: once per lease, while it
// holds (under mu, so that Unlock's Release is traced after it), and
// after the Mark step it reads.
func (l *Lease) ownReadMark(life context.Context, st *zk.Stat, sent mark) {
	l.mu.Lock()
	m := l.marking
	l.mu.Unlock()
	if m == nil || !isMarked(st) || l.s.cfg.tracer == nil {
		return
	}
	select {
	case <-m.done:
	case <-life.Done():
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if m.watchOwn || !m.maybe || l.err != nil {
		return
	}
	m.watchOwn = true
	l.s.trace(TraceEvent{Action: traceevent.WatchOwn, Lock: l.lock, Request: l.uuid, Kind: ModeExclusive.String(),
		Node: baseName(l.node), Start: sent.at, ZxidLow: sent.zxid})
}
