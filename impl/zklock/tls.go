package zklock

import (
	"bytes"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"syscall"
	"time"
)

// WithTLS makes the session talk to the servers over TLS (ZooKeeper's
// secureClientPort), verified with cfg. A cfg without ServerName verifies
// each server's certificate against the host of its address, as tls.Dial
// does. The loss timer still sees every request and reply: it reads the
// plaintext inside the TLS connection. NewSession fails fast with ErrTLS
// when no server can be spoken to in the chosen protocol: a certificate
// that does not verify, a server that does not speak TLS, or (without
// WithTLS) a server that speaks only TLS.
func WithTLS(cfg *tls.Config) SessionOption {
	return func(c *sessionConfig) error {
		if cfg == nil {
			return fmt.Errorf("%w: nil TLS config", ErrInvalidArgument)
		}
		c.tls = cfg.Clone()
		return nil
	}
}

// tlsProbeTimeout bounds a probe of a server's protocol (see wire.probe):
// the server answers at once or not at all.
const tlsProbeTimeout = time.Second

// tlsHandshake runs the client handshake on raw within timeout. Its
// errors wrap ErrTLS when they show that the server cannot be spoken to
// over TLS, so NewSession can tell them from a server that is merely down.
func (w *wire) tlsHandshake(raw net.Conn, addr string, timeout time.Duration) (*tls.Conn, error) {
	cfg := w.tls
	if cfg.ServerName == "" {
		cfg = cfg.Clone()
		if host, _, err := net.SplitHostPort(addr); err == nil {
			cfg.ServerName = host
		}
	}
	c := tls.Client(raw, cfg)
	if err := c.SetDeadline(time.Now().Add(timeout)); err != nil {
		raw.Close()
		return nil, err
	}
	err := c.Handshake()
	if err == nil {
		err = c.SetDeadline(time.Time{})
	}
	if err == nil {
		return c, nil
	}
	raw.Close()
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return nil, err // a paused or blackholed server: not a protocol matter
	}
	if isEOF(err) {
		if !w.speaksPlain(addr) {
			return nil, err // closed on us, but not for not speaking TLS
		}
		err = fmt.Errorf("%w: %s does not speak TLS (it answers four-letter words in plaintext): %w", ErrTLS, addr, err)
	} else {
		err = fmt.Errorf("%w: %s: %w", ErrTLS, addr, err)
	}
	w.tlsFailed(addr, err)
	return nil, err
}

// isEOF: the peer closed the connection (or reset it).
func isEOF(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, net.ErrClosed) || errors.Is(err, syscall.ECONNRESET)
}

// speaksPlain asks addr for srvr in plaintext: a plaintext ZooKeeper
// port answers four-letter words with text (even one that does not
// allow srvr says so), a TLS one closes or answers with a TLS alert. It
// tells a server that does not speak TLS from one that closed our
// handshake for another reason (too many connections, shutting down).
func (w *wire) speaksPlain(addr string) bool {
	if !w.probing() {
		return false
	}
	c, err := net.DialTimeout("tcp", addr, tlsProbeTimeout)
	if err != nil {
		return false
	}
	defer c.Close()
	if c.SetDeadline(time.Now().Add(tlsProbeTimeout)) != nil {
		return false
	}
	if _, err := io.WriteString(c, "srvr"); err != nil {
		return false
	}
	buf := make([]byte, 64)
	n, _ := io.ReadAtLeast(c, buf, 1)
	return n > 0 && !looksLikeTLS(buf[:n])
}

// speaksTLS reports whether addr completes a TLS handshake, whoever's
// certificate it shows: nothing is sent over the connection, which only
// tells a TLS-only port from a server that closed our plaintext connect
// request for another reason (not serving during an election, say).
func (w *wire) speaksTLS(addr string) bool {
	if !w.probing() {
		return false
	}
	raw, err := net.DialTimeout("tcp", addr, tlsProbeTimeout)
	if err != nil {
		return false
	}
	defer raw.Close()
	if raw.SetDeadline(time.Now().Add(tlsProbeTimeout)) != nil {
		return false
	}
	// Only the protocol is probed; the certificate is not trusted for anything.
	c := tls.Client(raw, &tls.Config{InsecureSkipVerify: true}) //nolint:gosec
	err = c.Handshake()
	var alert tls.AlertError
	return err == nil || errors.As(err, &alert)
}

// looksLikeTLS: a TLS record header (handshake or alert, version 3.x)
// where a ZooKeeper reply would start with a small frame length.
func looksLikeTLS(b []byte) bool {
	return len(b) >= 2 && (b[0] == 0x15 || b[0] == 0x16) && b[1] == 0x03
}

// tlsEvidence collects, until the session is first established, the
// addresses that cannot be spoken to in the session's protocol, so that
// NewSession gives up as soon as every address it tried is one of them.
type tlsEvidence struct {
	mu     sync.Mutex
	dialed map[string]int   // dials by address
	failed map[string]error // the protocol failure of each address that had one
	last   error
	all    chan struct{} // closed when every address dialed failed, after a full round
	closed bool
	done   bool // established: evidence no longer matters
}

func newTLSEvidence() *tlsEvidence {
	return &tlsEvidence{dialed: map[string]int{}, failed: map[string]error{}, all: make(chan struct{})}
}

func (e *tlsEvidence) dial(addr string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.dialed[addr]++
	e.checkLocked()
}

func (e *tlsEvidence) fail(addr string, err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.failed[addr], e.last = err, err
	e.checkLocked()
}

// checkLocked closes all once go-zookeeper has gone round every address
// (it dials one twice only after trying all) and each has failed.
func (e *tlsEvidence) checkLocked() {
	if e.closed || e.done || len(e.failed) < len(e.dialed) {
		return
	}
	for _, n := range e.dialed {
		if n > 1 {
			e.closed = true
			close(e.all)
			return
		}
	}
}

func (e *tlsEvidence) established() {
	e.mu.Lock()
	e.done = true
	e.mu.Unlock()
}

// err is the latest protocol failure, nil if none.
func (e *tlsEvidence) err() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.last
}

func (w *wire) probing() bool {
	w.evidence.mu.Lock()
	defer w.evidence.mu.Unlock()
	return !w.evidence.done
}

func (w *wire) tlsFailed(addr string, err error) { w.evidence.fail(addr, err) }

// plainConnectFailed is called when a plaintext connection ended before
// the server's connect reply: if the first bytes were a TLS record, or the
// server completes a TLS handshake, the port speaks only TLS.
func (w *wire) plainConnectFailed(addr string, first []byte) {
	if looksLikeTLS(first) || (len(first) == 0 && w.speaksTLS(addr)) {
		w.tlsFailed(addr, fmt.Errorf("%w: %s speaks TLS: use WithTLS", ErrTLS, addr))
	}
}

// firstBytes keeps the start of what a connection received before its
// connect reply, to recognise a TLS record there.
type firstBytes struct {
	buf  bytes.Buffer
	done bool
}

func (f *firstBytes) add(p []byte) {
	if f.done || f.buf.Len() >= 8 {
		return
	}
	f.buf.Write(p[:min(len(p), 8-f.buf.Len())])
}
