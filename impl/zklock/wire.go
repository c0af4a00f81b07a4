package zklock

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/zklock/zklock/internal/zkwire"
)

// The session's loss timer needs to know which of our requests the server
// answered, when each was sent and when its reply came, and which of them
// were syncs (see lossClock). go-zookeeper does not say, so every connection
// it dials goes through trackedConn, which notes the send time and opcode of
// each request and reports each reply with them. The wire format itself
// (frames, headers, opcodes) is internal/zkwire's, shared with faultinject.

var errDialRefused = errors.New("zklock: session is over, not reconnecting")

// wireObserver is what the wire reports to: the Session.
type wireObserver interface {
	acked(sent, at time.Time, sync bool)
	sawZxid(zxid int64)
	wrote(path string, zxid int64)
	connected(sent time.Time, sessionID int64, timeout time.Duration)
	expired()
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
	if w.writes {
		tc.out = zkwire.NewScanner(requestWithPathLen(false), requestWithPathLen, tc.sentFrame)
	} else {
		tc.out = zkwire.NewScanner(requestHeaderLen(false), requestHeaderLen, tc.sentFrame)
	}
	tc.in = zkwire.NewScanner(replyHeaderLen(false), replyHeaderLen, tc.repliedFrame)
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
// replies start with xid, zxid and error code.
func replyHeaderLen(first bool) int {
	if first {
		return zkwire.ConnectReplyLen
	}
	return zkwire.ReplyHeaderLen
}

type pendingRequest struct {
	xid  int32
	op   zkwire.Op
	sent time.Time
	path string // a write's, when the wire reports writes
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

	mu          sync.Mutex
	pending     []pendingRequest
	connectSent time.Time
	closeOnce   sync.Once

	// Read by the receive side only (the handshake, then the receive
	// loop, one after the other): whether the connect reply came, and
	// the bytes before it on a plaintext connection.
	gotConnectReply bool
	first           firstBytes
}

func (c *trackedConn) Write(p []byte) (int, error) {
	c.sending = time.Now()
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
	return n, err
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
	c.pending = append(c.pending, p)
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
			c.w.obs.expired()
			return
		}
		c.w.obs.connected(sent, sid, timeout)
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
		c.w.obs.expired()
		return
	}
	c.mu.Lock()
	var req pendingRequest
	for i, p := range c.pending {
		if p.xid == xid {
			req = p
			c.pending = append(c.pending[:i], c.pending[i+1:]...)
			break
		}
	}
	c.mu.Unlock()
	if !req.sent.IsZero() {
		c.w.obs.acked(req.sent, time.Now(), req.op == zkwire.OpSync)
	}
	if req.path != "" && code == 0 {
		c.w.obs.wrote(req.path, zxid)
	}
}
