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
	s := &Session{done: make(chan struct{}), listings: make(chan struct{}, maxListings), log: slog.New(slog.DiscardHandler)}
	s.life, s.endLife = context.WithCancel(context.Background())
	t.Cleanup(func() {
		s.lose(ErrClosed, traceevent.ResultClosed)
		s.wg.Wait()
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
		if err := s.takeListing(ctx); err != nil {
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
		_, err := doListing(ctx, s, func() (int, error) { return 1, nil })
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
	eventually(t, "every slot given back", 10*time.Second, func() bool { return len(s.listings) == 0 })
	for range maxListings {
		if v, err := doListing(context.Background(), s, func() (int, error) { return 7, nil }); err != nil || v != 7 {
			t.Fatalf("listing after the slots came back: %v, %v", v, err)
		}
	}
	if n := len(s.listings); n != 0 {
		t.Fatalf("%d slots still taken after every call returned", n)
	}
}

// TestListingSlotWaitEndsWithSession: a listing waiting for a slot returns
// the session's error when the session ends.
func TestListingSlotWaitEndsWithSession(t *testing.T) {
	s := slotSession(t)
	for range maxListings {
		s.listings <- struct{}{}
	}
	waited := make(chan error, 1)
	go func() {
		_, err := doListing(context.Background(), s, func() (int, error) { return 0, nil })
		waited <- err
	}()
	s.lose(ErrSessionLost, traceevent.ResultTimer)
	if err := <-waited; !errors.Is(err, ErrSessionLost) {
		t.Fatalf("wait for a slot as the session ended: %v, want ErrSessionLost", err)
	}
}
