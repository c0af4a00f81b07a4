package zklock

import (
	"context"
	"errors"
)

// The heartbeat's sync proves the session alive only once its reply comes
// back, and ZooKeeper answers one session's requests in the order they were
// sent: the sync waits behind everything the session sent before it. A
// listing of a lock queue is the one request of this package whose reply
// grows with the queue (getChildren of every contender: tens of KB for two
// thousand names), and every acquisition lists at least once as it joins.
// A session with hundreds of waiters joining one long queue at once had as
// many listings in flight, and its sync waited behind all of them past its
// loss deadline on a healthy ensemble (issue 22: six of sixteen waiter
// sessions declared themselves lost in a soak).
//
// So a session keeps at most maxListings listings in flight; the others
// wait for a slot on our side, where they delay no sync. A sync then waits
// behind at most maxListings large replies, whatever the number of
// waiters: that is what makes spec/tla/SessionTimingLoad.tla's assumption
// (a healthy session gets every reply within a bound Delay) hold for a
// session with many waiters. The loss rule is untouched: which requests a
// sync proves, and from when the deadline counts, are as before; only
// fewer requests stand between the heartbeat's sync and its reply. Nor does
// any step of the protocol change: a listing that waits for a slot is sent
// later, as a slow client would send it, and every step after it (the
// watch, the grant) depends on its reply as before.
//
// A slot is held from before the request is handed to go-zookeeper until
// its call returns (the reply, or the connection's loss), not until its
// caller stops waiting: a cancelled Lock's listing still stands in front of
// the sync until it is answered.

// maxListings is how many listings of lock queues one session keeps in
// flight at once. Enough to keep the server busy (a listing is served in
// about a millisecond), few enough that the replies a sync waits behind
// stay small beside the room the loss deadline leaves.
const maxListings = 8

// errNoSlot says a listing found no free slot and was not sent (tryListing).
var errNoSlot = errors.New("zklock: no free listing slot")

// takeListing waits for a listing slot as long as ctx and the session
// live: a cancelled Lock stops waiting at once.
func (s *Session) takeListing(ctx context.Context) error {
	select {
	case s.listings <- struct{}{}:
		return nil
	default:
	}
	select {
	case s.listings <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	case <-s.done:
		return s.Err()
	}
}

// giveListing frees a slot taken by takeListing or tryListing.
func (s *Session) giveListing() { <-s.listings }

// startListing starts a listing in a slot it has taken: the slot is given
// back when the call returns, on the worker, whether or not anyone still
// waits for the result.
func startListing[T any](s *Session, fn func() (T, error)) (<-chan result[T], error) {
	ch, err := start(s, func() (T, error) {
		defer s.giveListing()
		return fn()
	})
	if err != nil {
		s.giveListing() // never handed to a worker
	}
	return ch, err
}

// doListing is do for a listing: it first waits for a slot.
func doListing[T any](ctx context.Context, s *Session, fn func() (T, error)) (T, error) {
	if err := s.takeListing(ctx); err != nil {
		var zero T
		return zero, err
	}
	ch, err := startListing(s, fn)
	if err != nil {
		var zero T
		return zero, err
	}
	return await(ctx, s, ch)
}

// tryListing starts a listing only if a slot is free at once (errNoSlot
// otherwise): for a listing that is an optimisation, which the caller
// replaces by a waiting one.
func tryListing[T any](s *Session, fn func() (T, error)) (<-chan result[T], error) {
	select {
	case s.listings <- struct{}{}:
	default:
		return nil, errNoSlot
	}
	return startListing(s, fn)
}

// retryListing is retry for a listing: each attempt takes its own slot.
func retryListing[T any](ctx context.Context, s *Session, fn func() (T, error)) (T, error) {
	var b backoff
	for {
		v, err := doListing(ctx, s, fn)
		if err == nil || !transient(err) {
			return v, err
		}
		if werr := b.wait(ctx, s); werr != nil {
			return v, werr
		}
	}
}
