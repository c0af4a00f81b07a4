package zklock

import (
	"crypto/tls"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/zklock/zklock/internal/zkwire"
)

// The session's loss timer needs to know which of our requests the server
// answered, when each was sent and when its reply came, and which of them
// were syncs (see lossClock). go-zookeeper does not say, so every connection
// it dials goes through trackedConn, which notes the send time and opcode of
// each request and reports each reply with them. The wire format itself
// (frames, headers, opcodes) is internal/zkwire's, shared with faultinject.
//
// The wire also turns the lock node's create into a create2 (ZooKeeper 3.5
// and later), whose reply carries the new node's Stat: its czxid is the
// fencing token, which would otherwise cost a read of its own. go-zookeeper
// v1.0.4 has no create2 call, but a create2 request is a create request
// under another opcode, and go-zookeeper reads only the path from the
// reply, so the wire changes the opcode of the creates it was asked to
// (expectCreate2) and keeps the Stat from their replies (see created).

var errDialRefused = errors.New("zklock: session is over, not reconnecting")

// wireObserver is what the wire reports to: the Session.
type wireObserver interface {
	replied(sent, at time.Time, sync bool)
	sawZxid(zxid int64)
	wrote(path string, zxid int64)
	connectReplied(sent time.Time, sessionID int64, timeout time.Duration)
	serverExpired()
	// lossNow reads the clock the loss deadline is counted on: the send
	// and arrival times reported are on it.
	lossNow() time.Time
	handshakeCut(addr string)
}

// wire dials for go-zookeeper and keeps the connections it made, so that a
// lost session can cut them: go-zookeeper would otherwise open a fresh
// session on the next reconnect, and a read blocked in its handshake can
// outlive Close by several session timeouts.
type wire struct {
	obs wireObserver
	// writes: report the zxid of every write by the path of its request,
	// which a trace needs (go-zookeeper does not say which zxid a reply
	// carried).
	writes bool
	// tls, when not nil, wraps every connection in a TLS client; the
	// counting sits on top, where the bytes are plaintext.
	tls *tls.Config
	// evidence gathers, before the session exists, the servers that
	// cannot be spoken to in our protocol (see tlsEvidence).
	evidence *tlsEvidence

	mu     sync.Mutex
	conns  map[*trackedConn]struct{}
	closed bool

	// c2 holds the creates to send as create2, by the path of their
	// request; c2n is its size, which the send loop reads without the lock
	// before every write.
	c2mu sync.Mutex
	c2   map[string]*created
	c2n  atomic.Int32
}

// created is where the reply to a create sent as create2 leaves the path
// and Stat of the node made. Written by the receive loop before
// go-zookeeper hands the reply to its caller.
type created struct {
	mu   sync.Mutex
	path string
	stat zkwire.Stat
	ok   bool
	// sent is closed when the request goes out as create2: go-zookeeper
	// writes requests one at a time, in the order they were queued, so a
	// request queued after that goes out after it, on the same connection.
	sent chan struct{}
}

// onWire says when the create went out as create2 (never, if it went out
// as a plain create or not at all).
func (c *created) onWire() <-chan struct{} { return c.sent }

func (c *created) set(path string, st zkwire.Stat) {
	c.mu.Lock()
	c.path, c.stat, c.ok = path, st, true
	c.mu.Unlock()
}

// get returns the Stat of the node made, if its reply was a create2's
// and named path (the path the create call returned).
func (c *created) get(path string) (zkwire.Stat, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stat, c.ok && c.path == path
}

// expectCreate2 has the next create request for path go out as create2,
// and returns where its node's Stat will be. A request that does not go
// out as a whole frame at a frame boundary (go-zookeeper writes each
// request whole) stays a create: the caller then reads the Stat itself.
func (w *wire) expectCreate2(path string) *created {
	c := &created{sent: make(chan struct{})}
	w.c2mu.Lock()
	if w.c2 == nil {
		w.c2 = make(map[string]*created)
	}
	w.c2[path] = c
	w.c2n.Store(int32(len(w.c2)))
	w.c2mu.Unlock()
	return c
}

// forgetCreate2 withdraws an expectCreate2 whose request was not sent.
func (w *wire) forgetCreate2(path string, c *created) {
	w.c2mu.Lock()
	if w.c2[path] == c {
		delete(w.c2, path)
		w.c2n.Store(int32(len(w.c2)))
	}
	w.c2mu.Unlock()
}

// takeCreate2 returns the expectation for the create request frame p, if
// there is one, and withdraws it: one request per expectation.
func (w *wire) takeCreate2(p []byte) *created {
	if len(p) < 4+zkwire.RequestHeaderLen || int(binary.BigEndian.Uint32(p)) != len(p)-4 {
		return nil
	}
	if _, op, _ := zkwire.RequestHeader(p[4:]); op != zkwire.OpCreate {
		return nil
	}
	path := zkwire.RequestPath(p[4:])
	if path == "" {
		return nil
	}
	w.c2mu.Lock()
	defer w.c2mu.Unlock()
	c := w.c2[path]
	if c != nil {
		delete(w.c2, path)
		w.c2n.Store(int32(len(w.c2)))
	}
	return c
}

func (w *wire) dial(network, addr string, timeout time.Duration) (net.Conn, error) {
	w.mu.Lock()
	closed := w.closed
	w.mu.Unlock()
	if closed {
		return nil, errDialRefused
	}
	w.evidence.dial(addr)
	start := time.Now()
	raw, err := net.DialTimeout(network, addr, timeout)
	if err != nil {
		return nil, err
	}
	c := raw
	if w.tls != nil {
		if c, err = w.tlsHandshake(raw, addr, max(timeout-time.Since(start), tlsProbeTimeout)); err != nil {
			return nil, err
		}
	}
	tc := &trackedConn{Conn: c, raw: raw, addr: addr, w: w}
	tc.in = zkwire.NewScanner(maxReplyKept, tc.replyHeaderLen, tc.repliedFrame)
	if w.writes {
		tc.out = zkwire.NewScanner(requestWithPathLen(false), requestWithPathLen, tc.sentFrame)
	} else {
		tc.out = zkwire.NewScanner(requestHeaderLen(false), requestHeaderLen, tc.sentFrame)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		raw.Close()
		return nil, errDialRefused
	}
	if w.conns == nil {
		w.conns = make(map[*trackedConn]struct{})
	}
	w.conns[tc] = struct{}{}
	return tc, nil
}

// shut refuses further dials and closes every open connection.
func (w *wire) shut() {
	w.mu.Lock()
	w.closed = true
	conns := w.conns
	w.conns = nil
	w.mu.Unlock()
	for c := range conns {
		// The raw connection: a TLS close_notify could wait on a stuck
		// write, and the session is over anyway.
		c.raw.Close()
	}
}

func (w *wire) forget(c *trackedConn) {
	w.mu.Lock()
	delete(w.conns, c)
	w.mu.Unlock()
}

// The connect request has no header; requests start with xid and opcode.
func requestHeaderLen(first bool) int {
	if first {
		return 0
	}
	return zkwire.RequestHeaderLen
}

// A write request's path follows its header (after a multi's first op
// header); maxTracedPath bounds what is kept of it.
const maxTracedPath = 512

func requestWithPathLen(first bool) int {
	if first {
		return 0
	}
	return zkwire.RequestHeaderLen + zkwire.MultiOpHeaderLen + 4 + maxTracedPath
}

// The connect reply starts with protocol version, timeout and session id;
// replies start with xid, zxid and error code. While a create2 is
// unanswered, replies are kept up to a create2 reply's size (a longer
// path leaves the Stat unread: the caller reads it itself).
func (c *trackedConn) replyHeaderLen(first bool) int {
	switch {
	case first:
		return zkwire.ConnectReplyLen
	case c.c2pending.Load() > 0:
		return maxReplyKept
	}
	return zkwire.ReplyHeaderLen
}

const maxReplyKept = zkwire.ReplyHeaderLen + 4 + maxTracedPath + zkwire.StatLen

type pendingRequest struct {
	xid     int32
	op      zkwire.Op
	sent    time.Time
	path    string   // a write's, when the wire reports writes
	created *created // a create sent as create2: where its Stat goes
	order   uint64   // how many requests the connection sent before it
}

type trackedConn struct {
	net.Conn          // the TLS connection over raw, or raw itself
	raw      net.Conn // the TCP connection
	addr     string
	w        *wire
	out      *zkwire.Scanner // written by go-zookeeper's send loop only
	in       *zkwire.Scanner // read by its receive loop only

	// sending is the send time of the bytes being written now. Only the send
	// loop touches it (Write, and sentFrame, which Feed calls from Write), so
	// it needs no lock: one lock per request, in sentFrame, not two.
	sending time.Time
	// sendingC2 is where the Stat of the create2 being written goes, and
	// c2buf the copy of that request with its opcode changed; the send
	// loop's too.
	sendingC2 *created
	c2buf     []byte
	// c2pending counts the create2 requests not answered yet.
	c2pending atomic.Int32

	mu          sync.Mutex
	pending     pendingRequests // requests sent on this connection, not answered yet
	connectSent time.Time
	closeOnce   sync.Once

	// Read by the receive side only (the handshake, then the receive
	// loop, one after the other): whether the connect reply came, and
	// the bytes before it on a plaintext connection.
	gotConnectReply bool
	first           firstBytes
}

func (c *trackedConn) Write(p []byte) (int, error) {
	c.sending = c.w.obs.lossNow()
	// Not the connect request, whose bytes at the opcode's place are the
	// epoch of the last zxid seen.
	if c.w.c2n.Load() > 0 && c.out.Started() && c.out.AtBoundary() {
		if to := c.w.takeCreate2(p); to != nil {
			// A copy: a Write must not change the caller's bytes.
			c.c2buf = append(c.c2buf[:0], p...)
			binary.BigEndian.PutUint32(c.c2buf[zkwire.RequestOpOffset:], uint32(zkwire.OpCreate2))
			c.sendingC2 = to
			c.out.Feed(c.c2buf)
			c.sendingC2 = nil
			// The send loop is here until this frame is written: whatever
			// the caller queues from now on goes out after it.
			close(to.sent)
			return c.Conn.Write(c.c2buf)
		}
	}
	c.out.Feed(p)
	return c.Conn.Write(p)
}

func (c *trackedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if c.w.tls == nil && !c.gotConnectReply && !c.first.done {
		c.first.add(p[:n])
		if looksLikeTLS(c.first.buf.Bytes()) {
			// A TLS alert read as a frame length would make go-zookeeper
			// allocate hundreds of megabytes before failing.
			c.first.done = true
			c.w.plainConnectFailed(c.addr, c.first.buf.Bytes())
			return 0, fmt.Errorf("%w: %s answered with a TLS record", ErrTLS, c.addr)
		}
		if err != nil {
			c.first.done = true
			c.w.plainConnectFailed(c.addr, c.first.buf.Bytes())
		}
	}
	c.in.Feed(p[:n])
	if err != nil && !c.gotConnectReply && c.connectWasSent() {
		c.w.obs.handshakeCut(c.addr)
	}
	return n, err
}

// connectWasSent says whether the connect request went out: a connection
// closed after it and before its reply is a refused handshake.
func (c *trackedConn) connectWasSent() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return !c.connectSent.IsZero()
}

func (c *trackedConn) Close() error {
	c.closeOnce.Do(func() { c.w.forget(c) })
	return c.Conn.Close()
}

func (c *trackedConn) sentFrame(first bool, hdr []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if first {
		c.connectSent = c.sending
		return
	}
	xid, op, ok := zkwire.RequestHeader(hdr)
	if !ok {
		return
	}
	p := pendingRequest{xid: xid, op: op, sent: c.sending}
	if c.w.writes {
		p.path = zkwire.RequestPath(hdr)
	}
	if op == zkwire.OpCreate2 && c.sendingC2 != nil {
		p.created = c.sendingC2
		c.c2pending.Add(1)
	}
	c.pending.add(p)
}

func (c *trackedConn) repliedFrame(first bool, hdr []byte) {
	if first {
		c.gotConnectReply = true
		ms, sid, ok := zkwire.ConnectReply(hdr)
		if !ok {
			return
		}
		timeout := time.Duration(ms) * time.Millisecond
		c.mu.Lock()
		sent := c.connectSent
		c.mu.Unlock()
		if sid == 0 {
			c.w.obs.serverExpired()
			return
		}
		c.w.obs.connectReplied(sent, sid, timeout)
		return
	}
	xid, zxid, code, ok := zkwire.ReplyHeader(hdr)
	if !ok {
		return
	}
	if xid == zkwire.XidNotification {
		return
	}
	if zxid > 0 {
		c.w.obs.sawZxid(zxid)
	}
	if code == zkwire.ErrSessionExpired {
		c.w.obs.serverExpired()
		return
	}
	c.mu.Lock()
	req, _ := c.pending.take(xid)
	c.mu.Unlock()
	if !req.sent.IsZero() {
		c.w.obs.replied(req.sent, c.w.obs.lossNow(), req.op == zkwire.OpSync)
	}
	if req.created != nil {
		c.c2pending.Add(-1)
		if path, st, ok := zkwire.Create2Reply(hdr); ok {
			req.created.set(path, st)
		}
	}
	if req.path != "" && code == 0 {
		c.w.obs.wrote(req.path, zxid)
	}
}
