package zklock

import (
	"context"
	"errors"
	"log/slog"
	"testing"
	"time"

	"github.com/zklock/zklock/traceevent"
)

// slotSession is a Session with only what the listing slots and the call
// workers use: no connection.
func slotSession(t *testing.T) *Session {
	t.Helper()
	s := &Session{done: make(chan struct{}), listings: newListingSlots(maxListings), log: slog.New(slog.DiscardHandler)}
	s.life, s.endLife = context.WithCancel(context.Background())
	t.Cleanup(func() {
		s.lose(ErrClosed, traceevent.ResultClosed)
		s.goroutines.Wait()
	})
	return s
}

// TestListingSlots: at most maxListings listings are in flight; one more
// waits for a slot (tryListing does not send it), a cancelled context stops
// the wait, and a slot is given back when the call returns, even when its
// caller stopped waiting for the result.
func TestListingSlots(t *testing.T) {
	s := slotSession(t)
	release := make(chan struct{})
	held := make([]<-chan result[int], maxListings)
	for i := range held {
		ctx := context.Background()
		if err := s.listings.take(ctx, joining, s.done, s.Err); err != nil {
			t.Fatal(err)
		}
		ch, err := startListing(s, func() (int, error) { <-release; return 0, nil })
		if err != nil {
			t.Fatal(err)
		}
		held[i] = ch
	}
	if _, err := tryListing(s, func() (int, error) { return 0, nil }); !errors.Is(err, errNoSlot) {
		t.Fatalf("tryListing with every slot taken: %v, want errNoSlot", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	waited := make(chan error, 1)
	go func() {
		_, err := doListing(ctx, s, joining, func() (int, error) { return 1, nil })
		waited <- err
	}()
	select {
	case err := <-waited:
		t.Fatalf("a listing beyond maxListings was sent: %v", err)
	case <-time.After(50 * time.Millisecond):
	}
	cancel()
	if err := <-waited; !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled wait for a slot: %v, want context.Canceled", err)
	}
	// Nobody reads the held calls' results: their slots come back as the
	// calls return all the same.
	close(release)
	eventually(t, "every slot given back", 10*time.Second, func() bool { return freeSlots(s.listings) == maxListings })
	for range maxListings {
		if v, err := doListing(context.Background(), s, joining, func() (int, error) { return 7, nil }); err != nil || v != 7 {
			t.Fatalf("listing after the slots came back: %v, %v", v, err)
		}
	}
	if n := freeSlots(s.listings); n != maxListings {
		t.Fatalf("%d of %d slots free after every call returned", n, maxListings)
	}
}

// TestListingSlotWaitEndsWithSession: a listing waiting for a slot returns
// the session's error when the session ends.
func TestListingSlotWaitEndsWithSession(t *testing.T) {
	s := slotSession(t)
	for range maxListings {
		if !s.listings.tryTake() {
			t.Fatal("a fresh session has fewer than maxListings free slots")
		}
	}
	waited := make(chan error, 1)
	go func() {
		_, err := doListing(context.Background(), s, joining, func() (int, error) { return 0, nil })
		waited <- err
	}()
	s.lose(ErrSessionLost, traceevent.ResultTimer)
	if err := <-waited; !errors.Is(err, ErrSessionLost) {
		t.Fatalf("wait for a slot as the session ended: %v, want ErrSessionLost", err)
	}
}

func freeSlots(l *listingSlots) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.free
}

// waitingIn is how many listings wait in line.
func waitingIn(l *listingSlots, line int) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.waiting[line])
}

// TestListingSlotsUrgentFirst: a freed slot goes to the first urgent
// listing waiting, before joining ones that waited longer; joining ones
// take theirs in the order they came; a listing that stopped waiting is
// skipped; and the pool gets the slot back only when nobody waits.
func TestListingSlotsUrgentFirst(t *testing.T) {
	l := newListingSlots(1)
	if !l.tryTake() || l.tryTake() {
		t.Fatal("one slot: the first tryTake takes it, the second finds none")
	}
	never := make(chan struct{})
	ended := func() error { return ErrClosed }
	got := make(chan string, 4)
	wait := func(name string, ctx context.Context, line int) {
		n := waitingIn(l, line)
		go func() {
			if err := l.take(ctx, line, never, ended); err != nil {
				got <- name + ": " + err.Error()
				return
			}
			got <- name
		}()
		eventually(t, name+" waiting", 10*time.Second, func() bool { return waitingIn(l, line) == n+1 })
	}
	gone, leave := context.WithCancel(context.Background())
	wait("join1", context.Background(), joining)
	wait("left", gone, joining)
	wait("join2", context.Background(), joining)
	wait("urgent", context.Background(), urgent)
	leave()
	if g := <-got; g != "left: "+context.Canceled.Error() {
		t.Fatalf("a cancelled wait returned %q", g)
	}
	for _, want := range []string{"urgent", "join1", "join2"} {
		l.give()
		if g := <-got; g != want {
			t.Fatalf("freed slot went to %s, want %s", g, want)
		}
	}
	l.give()
	if freeSlots(l) != 1 {
		t.Fatalf("%d free slots with nobody waiting, want 1", freeSlots(l))
	}
}
