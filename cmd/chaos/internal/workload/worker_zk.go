package workload

import (
	"context"
	"errors"
	"fmt"
	"path"
	"sync"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklock/zklock/checker"
)

// zkWorker runs the same workload on go-zookeeper's zk.Lock, the control
// (--lock=zk). zk.Lock has no context, no TryLock and no loss signal: its
// holder is never told that its session expired, so no lost record is ever
// written, and the checker must see two holders overlap. go-zookeeper opens a
// new session by itself after an expiry, so one connection serves the whole
// run.
type zkWorker struct {
	*Client
	conn *zk.Conn

	lastSession int64 // to count the sessions go-zookeeper opens by itself

	mu      sync.Mutex
	closing bool
}

// connect opens the client's connection through its proxies and waits for
// its first session.
func (w *zkWorker) connect(ctx context.Context) error {
	conn, err := connect(ctx, w.addrs(), w.w.Cfg.SessionTimeout, nil)
	if err != nil {
		return fmt.Errorf("%s: %w", w.name, err)
	}
	if w.w.Cfg.Auth != nil {
		// go-zookeeper sends it again on every reconnect.
		if err := conn.AddAuth(AuthScheme, w.w.Cfg.Auth); err != nil {
			conn.Close()
			return fmt.Errorf("%s: authenticating: %w", w.name, err)
		}
	}
	w.conn = conn
	w.noteSession()
	return nil
}

// Run runs rounds until ctx ends.
func (w *zkWorker) Run(ctx context.Context) {
	for ctx.Err() == nil {
		lp, mode := w.pick() // exclusive only: --lock=zk has no read/write paths
		w.round(ctx, lp, mode)
		w.think(ctx, nil, 0, 100*time.Millisecond)
	}
}

func (w *zkWorker) round(ctx context.Context, lp *LockPath, mode checker.Mode) {
	acl := zk.WorldACL(zk.PermAll)
	if w.w.Cfg.Auth != nil {
		acl = LockACL()
	}
	l := zk.NewLock(w.conn, lp.Path, acl)
	w.setState(StateWaiting, lp.Path)
	w.gate.pass()
	call := w.now()
	sid := checker.SessionID(w.conn.SessionID())
	err := l.Lock() // no context: it waits until granted or the connection is closed
	w.gate.pass()
	ret := w.now()
	rec := checker.Record{Kind: checker.KindAcquire, Session: sid, Path: lp.Path, Mode: mode, Call: call, Return: ret}
	if err != nil {
		// zk.Lock may leave its node behind on an error: unknown, not failed.
		w.setState(StateIdle, "")
		rec.Outcome, rec.Error = checker.OutcomeUnknown, err.Error()
		w.add(rec)
		w.think(ctx, nil, 100*time.Millisecond, 300*time.Millisecond)
		return
	}
	w.noteSession()
	sid = checker.SessionID(w.conn.SessionID())
	node, token, err := ownNode(w.conn, lp.Path)
	if err != nil {
		// Granted, but the node is already gone (the session expired in
		// between): no token to act with. Record what is known and let go.
		w.setState(StateIdle, "")
		rec.Outcome, rec.Error = checker.OutcomeUnknown, "granted, but no node found: "+err.Error()
		w.add(rec)
		l.Unlock()
		return
	}
	rec.Session, rec.Outcome, rec.Token, rec.Node = sid, checker.OutcomeOK, token, node
	w.add(rec)

	t := &tenure{lp: lp, mode: mode, token: token, node: node, session: sid, acqReturn: ret, conn: w.conn,
		zkWrite: plainWrite(w.conn, lp.Data)}
	t.belief = w.w.Mon.Begin(w.name, lp.Path, mode, token, call)
	w.setHolding(lp.Path, node)

	w.critical(ctx, t)

	w.setState(StateIdle, "")
	w.gate.pass()
	call = w.now()
	w.w.Mon.End(t.belief)
	err = l.Unlock()
	w.gate.pass()
	ret = w.now()
	rel := checker.Record{Kind: checker.KindRelease, Session: sid, Path: lp.Path, Call: call, Return: ret,
		Outcome: checker.OutcomeOK, Token: token, Node: node}
	if err != nil {
		rel.Outcome, rel.Error = checker.OutcomeUnknown, err.Error()
	}
	w.add(rel)
}

// noteSession counts a session the first time it is seen: go-zookeeper
// replaces an expired session without telling anyone.
func (w *zkWorker) noteSession() {
	if id := w.conn.SessionID(); id != 0 && id != w.lastSession {
		w.lastSession = id
		w.w.Mon.Sessions.Add(1)
	}
}

// ownNode finds the lock node zk.Lock just created, which it does not
// expose: the newest child of path owned by the connection's session.
func ownNode(conn *zk.Conn, dir string) (string, int64, error) {
	sid := conn.SessionID()
	children, _, err := conn.Children(dir)
	if err != nil {
		return "", 0, err
	}
	var best string
	var czxid int64
	for _, ch := range children {
		p := path.Join(dir, ch)
		ok, st, err := conn.Exists(p)
		if err != nil {
			return "", 0, err
		}
		if ok && st.EphemeralOwner == sid && st.Czxid > czxid {
			best, czxid = p, st.Czxid
		}
	}
	if best == "" {
		return "", 0, errors.New("no node of session " + checker.SessionID(sid))
	}
	return best, czxid, nil
}

// Close closes the connection, which is also the only way to end a Lock
// call that waits.
func (w *zkWorker) Close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.conn != nil && !w.closing {
		w.closing = true
		w.conn.Close()
	}
}
