package zklock

import "testing"

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
