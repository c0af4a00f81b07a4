package faultinject

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/zklock/zklock/internal/zkwire"
)

// fakeServer speaks ZooKeeper's framing, not its semantics: it answers the
// connect request, then replies to every request with the request's xid, a
// growing zxid, error 0 and the request's payload. Requests with opcode
// OpSync get no reply, and OpCheckWatches gets a watch notification first.
type fakeServer struct {
	t  *testing.T
	ln net.Listener
	wg sync.WaitGroup

	mu    sync.Mutex
	ops   []Op // requests received, in order
	conns []net.Conn
}

func newFakeServer(t *testing.T) *fakeServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeServer{t: t, ln: ln}
	f.wg.Add(1)
	go f.accept()
	t.Cleanup(f.close)
	return f
}

func (f *fakeServer) addr() string { return f.ln.Addr().String() }

func (f *fakeServer) close() {
	f.ln.Close()
	f.mu.Lock()
	for _, c := range f.conns {
		c.Close()
	}
	f.mu.Unlock()
	f.wg.Wait()
}

func (f *fakeServer) received() []Op {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Op(nil), f.ops...)
}

func (f *fakeServer) accept() {
	defer f.wg.Done()
	for {
		c, err := f.ln.Accept()
		if err != nil {
			return
		}
		f.mu.Lock()
		f.conns = append(f.conns, c)
		f.mu.Unlock()
		f.wg.Add(1)
		go f.serve(c)
	}
}

func (f *fakeServer) serve(c net.Conn) {
	defer f.wg.Done()
	defer c.Close()
	r := bufio.NewReader(c)
	if _, err := zkwire.ReadFrame(r); err != nil {
		return
	}
	f.mu.Lock()
	f.ops = append(f.ops, OpCreateSession)
	f.mu.Unlock()
	if _, err := c.Write(lengthPrefixed(make([]byte, 36))); err != nil {
		return
	}
	zxid := int64(0)
	for {
		buf, err := zkwire.ReadFrame(r)
		if err != nil {
			return
		}
		xid, op, ok := zkwire.RequestHeader(buf[4:])
		if !ok {
			return
		}
		f.mu.Lock()
		f.ops = append(f.ops, op)
		f.mu.Unlock()
		switch op {
		case OpSync:
			continue
		case OpCheckWatches:
			if _, err := c.Write(reply(XidNotification, -1, 0, nil)); err != nil {
				return
			}
		}
		zxid++
		if _, err := c.Write(reply(xid, zxid, 0, buf[12:])); err != nil {
			return
		}
	}
}

func lengthPrefixed(body []byte) []byte {
	buf := make([]byte, 4+len(body))
	binary.BigEndian.PutUint32(buf, uint32(len(body)))
	copy(buf[4:], body)
	return buf
}

func request(xid int32, op Op, payload []byte) []byte {
	body := make([]byte, 8+len(payload))
	binary.BigEndian.PutUint32(body, uint32(xid))
	binary.BigEndian.PutUint32(body[4:], uint32(op))
	copy(body[8:], payload)
	return lengthPrefixed(body)
}

func reply(xid int32, zxid int64, errCode int32, payload []byte) []byte {
	body := make([]byte, 16+len(payload))
	binary.BigEndian.PutUint32(body, uint32(xid))
	binary.BigEndian.PutUint64(body[4:], uint64(zxid))
	binary.BigEndian.PutUint32(body[12:], uint32(errCode))
	copy(body[16:], payload)
	return lengthPrefixed(body)
}

// fakeClient is a raw protocol client talking through a proxy.
type fakeClient struct {
	t *testing.T
	c net.Conn
	r *bufio.Reader
}

// dialFake connects to addr and completes the connect handshake.
func dialFake(t *testing.T, addr string) *fakeClient {
	t.Helper()
	fc := dialRaw(t, addr)
	fc.write(lengthPrefixed(make([]byte, 44)))
	if _, err := fc.next(5 * time.Second); err != nil {
		t.Fatalf("connect response: %v", err)
	}
	return fc
}

func dialRaw(t *testing.T, addr string) *fakeClient {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &fakeClient{t: t, c: c, r: bufio.NewReader(c)}
}

func (fc *fakeClient) write(b []byte) {
	fc.t.Helper()
	if _, err := fc.c.Write(b); err != nil {
		fc.t.Fatalf("write: %v", err)
	}
}

// next reads one frame and returns its body.
func (fc *fakeClient) next(timeout time.Duration) ([]byte, error) {
	fc.c.SetReadDeadline(time.Now().Add(timeout))
	buf, err := zkwire.ReadFrame(fc.r)
	if err != nil {
		return nil, err
	}
	return buf[4:], nil
}

// nextReply reads one frame and parses its reply header.
func (fc *fakeClient) nextReply(timeout time.Duration) (xid int32, zxid int64) {
	fc.t.Helper()
	body, err := fc.next(timeout)
	if err != nil {
		fc.t.Fatalf("read reply: %v", err)
	}
	xid, zxid, _, ok := zkwire.ReplyHeader(body)
	if !ok {
		fc.t.Fatalf("short reply %x", body)
	}
	return xid, zxid
}

// expectClosed waits for the proxy to close the connection.
func (fc *fakeClient) expectClosed(timeout time.Duration) {
	fc.t.Helper()
	body, err := fc.next(timeout)
	if err == nil {
		xid, _, _, _ := zkwire.ReplyHeader(body)
		fc.t.Fatalf("got a frame (xid %d), want the connection closed", xid)
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		fc.t.Fatalf("connection still open after %v", timeout)
	}
	if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, net.ErrClosed) {
		fc.t.Logf("connection closed with %v", err)
	}
}

func newProxy(t *testing.T, target string, opts ...Option) *Proxy {
	t.Helper()
	p, err := New(target, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}
