package zklock

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"syscall"
	"time"

	"github.com/go-zookeeper/zk"
)

// go-zookeeper v1.0.4 calls block, with no context, until the reply or the
// loss of the connection. Each call runs on a worker goroutine of the
// session's so that the caller can leave when its context ends; the call
// ends when the reply comes, which Close forces by closing the connection.
//
// Workers are reused: a call goes to an idle worker when there is one, and a
// new worker starts only when none is idle. A goroutine per call cost a
// goroutine creation, and a small stack grown again through go-zookeeper's
// encoder, on every round trip of every acquisition. A worker counts itself
// idle again before it hands its result over, so that a caller's next call
// finds it: calls made one after another run on one worker, and workers
// never outnumber the calls once in flight together. They end with the
// session.

type result[T any] struct {
	v   T
	err error
}

// A job runs one call; it calls idle once the call has returned, before it
// hands the result over.
type job func(idle func())

// start issues fn on the session's behalf and returns where its result will
// arrive.
func start[T any](s *Session, fn func() (T, error)) (<-chan result[T], error) {
	ch := make(chan result[T], 1)
	err := s.run(func(idle func()) {
		v, err := fn()
		idle()
		ch <- result[T]{v, err}
	})
	if err != nil {
		return nil, err
	}
	return ch, nil
}

// run gives j to an idle worker, or to a new one; it fails once the
// session has ended.
func (s *Session) run(j job) error {
	s.mu.Lock()
	if s.err != nil {
		err := s.err
		s.mu.Unlock()
		return err
	}
	if n := len(s.idle); n > 0 {
		w := s.idle[n-1]
		s.idle = s.idle[:n-1]
		s.mu.Unlock()
		w <- j // its buffer is empty: a worker is popped once per time it went idle
		return nil
	}
	s.goroutines.Add(1)
	s.mu.Unlock()
	go s.worker(j)
	return nil
}

// worker runs j, then the jobs handed to it while it is idle, until the
// session ends.
func (s *Session) worker(j job) {
	defer s.goroutines.Done()
	jobs := make(chan job, 1)
	idle := func() {
		s.mu.Lock()
		if s.err == nil {
			s.idle = append(s.idle, jobs)
		}
		s.mu.Unlock()
	}
	for {
		j(idle)
		select {
		case j = <-jobs:
		case <-s.life.Done():
			// A job handed over just before the session ended still runs
			// (its call fails at once on the closed connection).
			select {
			case j = <-jobs:
				j(func() {})
			default:
			}
			return
		}
	}
}

// await waits for a started call, the end of ctx, or the end of the session.
func await[T any](ctx context.Context, s *Session, ch <-chan result[T]) (T, error) {
	var zero T
	select {
	case r := <-ch:
		if r.err != nil {
			return r.v, s.classify(r.err)
		}
		return r.v, nil
	case <-ctx.Done():
		return zero, ctx.Err()
	case <-s.done:
		return zero, s.Err()
	}
}

// do is start then await.
func do[T any](ctx context.Context, s *Session, fn func() (T, error)) (T, error) {
	ch, err := start(s, fn)
	if err != nil {
		var zero T
		return zero, err
	}
	return await(ctx, s, ch)
}

// classify turns the session-ending errors of go-zookeeper into the
// session's own reason, so that callers see ErrSessionLost and friends.
func (s *Session) classify(err error) error {
	switch {
	case errors.Is(err, zk.ErrSessionExpired):
		s.serverExpired()
		return s.Err()
	case errors.Is(err, zk.ErrNoAuth):
		return ErrNoAuth
	case errors.Is(err, zk.ErrClosing):
		if serr := s.Err(); serr != nil {
			return serr
		}
	case brokenWrite(err):
		// A request whose write failed lost the connection like every
		// other request in flight on it, which get zk.ErrConnectionClosed:
		// callers that are handed the error (Guard's) match that.
		return fmt.Errorf("%w: %w", zk.ErrConnectionClosed, err)
	}
	return err
}

// transient errors say only that the connection broke: the request may or
// may not have been applied, and the session may well live on.
func transient(err error) bool {
	return errors.Is(err, zk.ErrConnectionClosed) || errors.Is(err, zk.ErrNoServer) ||
		errors.Is(err, zk.ErrSessionMoved) || brokenWrite(err)
}

// brokenWrite reports the errors go-zookeeper v1.0.4 answers a request with
// when writing it to the connection fails: the raw error of the socket,
// before the ErrConnectionClosed that every other request of the connection
// gets. The peer reset the connection (ECONNRESET, or EPIPE on a later
// write), the write did not finish within its deadline (a link that stopped
// taking bytes), or the connection was already closed on our side. Each
// means the connection is gone and go-zookeeper reconnects; nothing else
// does, so only a *net.OpError (through TLS too, which wraps it) with one of
// those causes counts: not a context's deadline, whose error is a timeout
// too.
func brokenWrite(err error) bool {
	var op *net.OpError
	if !errors.As(err, &op) {
		return false
	}
	return errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) ||
		errors.Is(err, syscall.ECONNABORTED) || errors.Is(err, os.ErrDeadlineExceeded) ||
		errors.Is(err, net.ErrClosed)
}

// backoff waits before retrying after a connection error. go-zookeeper
// queues requests until it reconnects, so this only keeps a flapping
// connection from turning into a busy loop.
type backoff struct{ d time.Duration }

func (b *backoff) wait(ctx context.Context, s *Session) error {
	if b.d == 0 {
		b.d = 10 * time.Millisecond
	} else if b.d < 500*time.Millisecond {
		b.d *= 2
	}
	t := time.NewTimer(b.d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-s.done:
		return s.Err()
	}
}

// background runs fn for as long as the session lives, on a goroutine that
// Close waits for. It reports false if the session has already ended.
func (s *Session) background(fn func(life context.Context)) bool {
	s.mu.Lock()
	if s.err != nil {
		s.mu.Unlock()
		return false
	}
	s.goroutines.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.goroutines.Done()
		fn(s.life)
	}()
	return true
}

// retry runs a call until it gives an answer other than a broken
// connection, or ctx or the session ends.
func retry[T any](ctx context.Context, s *Session, fn func() (T, error)) (T, error) {
	var b backoff
	for {
		v, err := do(ctx, s, fn)
		if err == nil || !transient(err) {
			return v, err
		}
		if werr := b.wait(ctx, s); werr != nil {
			return v, werr
		}
	}
}

// deleteNode deletes one of our nodes, retrying through connection loss,
// until ctx or the session ends (the server deletes an ephemeral node with
// its session). gone reports a node that was already missing at the first
// unambiguous answer: not a delete of ours whose reply was lost.
func (s *Session) deleteNode(ctx context.Context, path string) (gone bool, err error) {
	first := true
	var b backoff
	for {
		_, err := do(ctx, s, func() (struct{}, error) { return struct{}{}, s.conn.Delete(path, -1) })
		switch {
		case err == nil:
			return false, nil
		case errors.Is(err, zk.ErrNoNode):
			return first, nil
		case !transient(err):
			return false, fmt.Errorf("zklock: delete %s: %w", path, err)
		}
		first = false
		if werr := b.wait(ctx, s); werr != nil {
			return false, fmt.Errorf("zklock: delete %s: %w", path, werr)
		}
	}
}

// deleteEventually is deleteNode that, when ctx ends first, goes on in the
// background until it succeeds or the session ends: a node we meant to
// delete is never forgotten (Curator's CURATOR-678).
func (s *Session) deleteEventually(ctx context.Context, path string) (gone bool, err error) {
	gone, err = s.deleteNode(ctx, path)
	if err != nil && ctx.Err() != nil && s.Err() == nil {
		if s.background(func(life context.Context) { s.deleteNode(life, path) }) {
			return false, fmt.Errorf("zklock: delete %s goes on in the background: %w", path, ctx.Err())
		}
	}
	return gone, err
}
