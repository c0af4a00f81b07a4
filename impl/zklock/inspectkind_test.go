package zklock

import (
	"context"
	"errors"
	"testing"
)

// A path's kind from its children's names: candidates make an election,
// the leases/locks folders a semaphore, a lock contender (or nothing) a
// lock; a lock contender beside either makes it a lock.
func TestKindOf(t *testing.T) {
	const (
		latch = "_c_0f8a6a52-8b59-4a0c-9a8d-5a8bd3a3e6f1-latch-0000000003"
		lock  = "_c_0f8a6a52-8b59-4a0c-9a8d-5a8bd3a3e6f1-lock-0000000004"
		read  = "_c_0f8a6a52-8b59-4a0c-9a8d-5a8bd3a3e6f1-__READ__0000000005"
	)
	for _, c := range []struct {
		names []string
		want  Kind
	}{
		{nil, KindLock},
		{[]string{"notes"}, KindLock},
		{[]string{lock}, KindLock},
		{[]string{read, "leases"}, KindLock},
		{[]string{latch}, KindElection},
		{[]string{latch, "notes"}, KindElection},
		{[]string{latch, lock}, KindLock},
		{[]string{"leases", "locks"}, KindSemaphore},
		{[]string{"locks"}, KindSemaphore},
		{[]string{"leases", latch}, KindElection},
	} {
		if got := KindOf(c.names); got != c.want {
			t.Errorf("KindOf(%q) = %s, want %s", c.names, got, c.want)
		}
	}
}

// A nil session or context is ErrInvalidArgument for every reader of a
// path's kind, not a panic.
func TestInspectKindsBadInput(t *testing.T) {
	ctx := context.Background()
	for name, f := range map[string]func(context.Context, *Session) error{
		"InspectKind":      func(c context.Context, s *Session) error { _, err := InspectKind(c, s, "/a"); return err },
		"InspectElection":  func(c context.Context, s *Session) error { _, err := InspectElection(c, s, "/a"); return err },
		"InspectSemaphore": func(c context.Context, s *Session) error { _, err := InspectSemaphore(c, s, "/a"); return err },
	} {
		if err := f(ctx, nil); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("%s(nil session) = %v, want ErrInvalidArgument", name, err)
		}
		if err := f(nil, &Session{}); !errors.Is(err, ErrInvalidArgument) { // the nil context is the bad input
			t.Errorf("%s(nil context) = %v, want ErrInvalidArgument", name, err)
		}
	}
}
