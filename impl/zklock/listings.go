package zklock

import (
	"context"
	"errors"
	"slices"
	"sync"

	"github.com/go-zookeeper/zk"
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
// flight at once: a few, so that the server always has the next one while
// we read a reply, and the replies a sync waits behind stay small beside
// the room the loss deadline leaves. In the load campaign (2,000 waiters
// over two sessions, before the two priorities below) 32 slots queued and
// drained no faster than 8, and the syncs waited no less (at most 1.3 s
// against 1.1 s).
const maxListings = 8

// Slots are handed to waiting listings by priority, urgent first. A
// listing of a waiter that is already queued and was woken by a watch (the
// node ahead of it went: its grant may depend on this listing) is urgent; a
// listing of a waiter still joining is not. Without the two priorities, a burst
// of joins left the listings of the waiters at the head of the queue behind
// a thousand listings of waiters at its tail, and each hand-off of the
// drain that followed waited seconds for them.
const (
	joining    = iota // a waiter's first listing, Contenders, a lost create's search
	urgent            // a queued waiter woken by a watch, a cancel's clean-up
	priorities        // how many there are
)

// errNoSlot says a listing found no free slot and was not sent (tryListing).
var errNoSlot = errors.New("zklock: no free listing slot")

// listingSlots counts a session's listings in flight: free slots, and the
// listings waiting for one, each on its own channel, closed when a slot is
// handed to it. While any listing waits, free is 0.
type listingSlots struct {
	mu      sync.Mutex
	free    int
	waiting [priorities][]chan struct{} // by priority, oldest first
}

func newListingSlots(n int) *listingSlots { return &listingSlots{free: n} }

// take waits for a slot at priority as long as ctx and the session (done)
// live: a cancelled Lock stops waiting at once. ended is the error when
// done closes first.
func (l *listingSlots) take(ctx context.Context, priority int, done <-chan struct{}, ended func() error) error {
	l.mu.Lock()
	if l.free > 0 {
		l.free--
		l.mu.Unlock()
		return nil
	}
	ch := make(chan struct{})
	l.waiting[priority] = append(l.waiting[priority], ch)
	l.mu.Unlock()
	var err error
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		err = ctx.Err()
	case <-done:
		err = ended()
	}
	l.mu.Lock()
	if i := slices.Index(l.waiting[priority], ch); i >= 0 {
		l.waiting[priority] = slices.Delete(l.waiting[priority], i, i+1)
		l.mu.Unlock()
		return err
	}
	l.mu.Unlock()
	// A slot was handed over as we gave up: pass it on.
	l.give()
	return err
}

// tryTake takes a slot only if one is free at once.
func (l *listingSlots) tryTake() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.free == 0 {
		return false
	}
	l.free--
	return true
}

// give frees a slot: to the first urgent listing waiting, else to the
// first joining one, else to the pool.
func (l *listingSlots) give() {
	l.mu.Lock()
	for p := priorities - 1; p >= 0; p-- {
		if q := l.waiting[p]; len(q) > 0 {
			ch := q[0]
			l.waiting[p] = slices.Delete(q, 0, 1)
			l.mu.Unlock()
			close(ch)
			return
		}
	}
	l.free++
	l.mu.Unlock()
}

// startListing starts a listing in a slot it has taken: the slot is given
// back when the call returns, on the worker, whether or not anyone still
// waits for the result.
func startListing[T any](s *Session, fn func() (T, error)) (<-chan result[T], error) {
	ch, err := start(s, func() (T, error) {
		defer s.listings.give()
		return fn()
	})
	if err != nil {
		s.listings.give() // never handed to a worker
	}
	return ch, err
}

// doListing is do for a listing: it first waits for a slot at priority.
func doListing[T any](ctx context.Context, s *Session, priority int, fn func() (T, error)) (T, error) {
	if err := s.listings.take(ctx, priority, s.done, s.Err); err != nil {
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
	if !s.listings.tryTake() {
		return nil, errNoSlot
	}
	return startListing(s, fn)
}

// retryListing is retry for a listing: each attempt waits for its own slot.
func retryListing[T any](ctx context.Context, s *Session, priority int, fn func() (T, error)) (T, error) {
	var b backoff
	for {
		v, err := doListing(ctx, s, priority, fn)
		if err == nil || !transient(err) {
			return v, err
		}
		if werr := b.wait(ctx, s); werr != nil {
			return v, werr
		}
	}
}

// syncPath syncs the session's server with the ensemble's leader on l's
// path, so that the reads after it see every change acknowledged before
// the call, as the leader would answer them (a lagging server answers
// from behind). A missing path needs no sync: its listing is empty.
func (l *lockCore) syncPath(ctx context.Context) error {
	s := l.s
	if _, err := retry(ctx, s, func() (string, error) { return s.conn.Sync(l.path) }); err != nil && !errors.Is(err, zk.ErrNoNode) {
		return err
	}
	return nil
}

// syncList is syncPath, then a listing of l's path at joining priority
// (nobody waits on it for a grant): no path lists as empty, pzxid 0.
func (l *lockCore) syncList(ctx context.Context) ([]string, int64, error) {
	if err := l.syncPath(ctx); err != nil {
		return nil, 0, err
	}
	return l.children(ctx, joining)
}
