package ensemble

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"time"
)

// DefaultFourLetterTimeout bounds a four-letter word whose context has no
// deadline: a paused server accepts the connection (the kernel does) and
// then never answers.
const DefaultFourLetterTimeout = 10 * time.Second

// FourLetterWord sends a four-letter word (srvr, ruok, mntr, cons, wchp,
// wchc, ...) to the server at addr and returns its whole reply.
func FourLetterWord(ctx context.Context, addr, cmd string) (string, error) {
	return fourLetterWord(ctx, addr, cmd, nil)
}

// FourLetterWordTLS is FourLetterWord over TLS, for a server's secure
// client port (see Config.TLS); cfg is the client's TLS configuration.
func FourLetterWordTLS(ctx context.Context, addr, cmd string, cfg *tls.Config) (string, error) {
	if cfg == nil {
		return "", fmt.Errorf("%w: nil TLS config", ErrBadConfig)
	}
	return fourLetterWord(ctx, addr, cmd, cfg)
}

func fourLetterWord(ctx context.Context, addr, cmd string, cfg *tls.Config) (string, error) {
	if len(cmd) != 4 {
		return "", fmt.Errorf("%w: %q", ErrBadCommand, cmd)
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, DefaultFourLetterTimeout)
		defer cancel()
	}
	var conn net.Conn
	var err error
	if cfg == nil {
		var d net.Dialer
		conn, err = d.DialContext(ctx, "tcp", addr)
	} else {
		d := tls.Dialer{Config: cfg}
		conn, err = d.DialContext(ctx, "tcp", addr)
	}
	if err != nil {
		return "", fourLetterErr(ctx, cmd, addr, err)
	}
	defer conn.Close()
	deadline, _ := ctx.Deadline()
	if err := conn.SetDeadline(deadline); err != nil {
		return "", fmt.Errorf("ensemble: %s %s: %w", cmd, addr, err)
	}
	// The deadline covers expiry; this covers cancellation.
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	if _, err := io.WriteString(conn, cmd); err != nil {
		return "", fourLetterErr(ctx, cmd, addr, err)
	}
	out, err := io.ReadAll(conn)
	if err != nil {
		return "", fourLetterErr(ctx, cmd, addr, err)
	}
	return string(out), nil
}

// fourLetterErr reports the context's error, which callers can test for,
// rather than the i/o timeout it caused. The connection's deadline is the
// context's, and it can fire a moment before the context's own timer does,
// so a timeout counts as the context's deadline even while ctx.Err() is nil.
func fourLetterErr(ctx context.Context, cmd, addr string, err error) error {
	var ne net.Error
	if cerr := ctx.Err(); cerr != nil {
		err = cerr
	} else if errors.As(err, &ne) && ne.Timeout() {
		err = context.DeadlineExceeded
	}
	return fmt.Errorf("ensemble: %s %s: %w", cmd, addr, err)
}

// FourLetter sends a four-letter word to server i; see FourLetterWord.
func (e *Ensemble) FourLetter(ctx context.Context, i int, cmd string) (string, error) {
	addr, err := e.addr(i)
	if err != nil {
		return "", err
	}
	return e.fourLetter(ctx, addr, cmd)
}

// Srvr asks server i for srvr and parses the reply.
func (e *Ensemble) Srvr(ctx context.Context, i int) (Stat, error) {
	addr, err := e.addr(i)
	if err != nil {
		return Stat{}, err
	}
	return e.srvr(ctx, addr)
}

func (e *Ensemble) addr(i int) (string, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	s, err := e.serverLocked(i)
	if err != nil {
		return "", err
	}
	return s.addr(), nil
}

func (e *Ensemble) srvr(ctx context.Context, addr string) (Stat, error) {
	out, err := e.fourLetter(ctx, addr, "srvr")
	if err != nil {
		return Stat{}, err
	}
	st, err := ParseSrvr(out)
	if err != nil {
		return Stat{}, fmt.Errorf("ensemble: srvr %s: %w", addr, err)
	}
	return st, nil
}
