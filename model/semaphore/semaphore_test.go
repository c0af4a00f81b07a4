package semaphore_test

import (
	"testing"

	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/semaphore"
	"github.com/zklock/zklock/model/specs"
)

// check explores k with the named invariants and returns the verdict and
// the violated property.
func check(t *testing.T, k semaphore.Constants, invariants ...string) (explore.Verdict, string) {
	t.Helper()
	sp, err := semaphore.New(k)
	if err != nil {
		t.Fatal(err)
	}
	es, err := specs.SemaphoreSpec(sp, false, invariants, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := explore.Check(es, explore.Options{TLCOrder: true})
	if err != nil {
		t.Fatal(err)
	}
	return res.Verdict, res.Property
}

func base(clients ...string) recipe.Constants {
	return recipe.Constants{Clients: clients, MaxRequests: 1, MaxSeq: len(clients), MaxFaults: 0}
}

// TestCountAfterCreateSafeWithoutMutex: Curator's count (after the create)
// keeps at most MaxLeases holders even without the internal mutex, as the
// spec's comment on AtMostMaxHolders argues; the mutex is there against the
// herd (and the deadlock of all acquirers waiting). kazoo's order (count,
// then create) is safe with the mutex and fails without it.
func TestCountAfterCreateSafeWithoutMutex(t *testing.T) {
	three := base("c1", "c2", "c3")
	two := base("c1", "c2")
	for _, tc := range []struct {
		name    string
		k       semaphore.Constants
		verdict explore.Verdict
	}{
		{"curator without mutex, N=1", semaphore.Constants{Constants: three, MaxLeases: 1}, explore.Pass},
		{"curator without mutex, N=2", semaphore.Constants{Constants: three, MaxLeases: 2}, explore.Pass},
		{"kazoo with mutex, N=2", semaphore.Constants{Constants: three, MaxLeases: 2, InternalLock: true, CountFirst: true}, explore.Pass},
		{"kazoo without mutex, N=1", semaphore.Constants{Constants: two, MaxLeases: 1, CountFirst: true}, explore.InvariantViolated},
	} {
		if v, p := check(t, tc.k, "TypeOK", "AtMostMaxHolders"); v != tc.verdict {
			t.Errorf("%s: %s %s, want %s", tc.name, v, p, tc.verdict)
		}
	}
}

// TestHerdNeedsNoMutex: without the internal mutex two acquirers wait on
// the leases' child watch at once; with it, never.
func TestHerdNeedsNoMutex(t *testing.T) {
	k := semaphore.Constants{Constants: base("c1", "c2", "c3"), MaxLeases: 1}
	if v, p := check(t, k, "NoHerd"); v != explore.InvariantViolated || p != "NoHerd" {
		t.Errorf("without the mutex: %s %s, want NoHerd violated", v, p)
	}
	k.InternalLock = true
	if v, p := check(t, k, "NoHerd", "WaiterHoldsInternal"); v != explore.Pass {
		t.Errorf("with the mutex: %s %s, want pass", v, p)
	}
}

// TestNewRejectsBadConstants: no leases, or asynchronous deletes.
func TestNewRejectsBadConstants(t *testing.T) {
	if _, err := semaphore.New(semaphore.Constants{Constants: base("c1")}); err == nil {
		t.Error("MaxLeases = 0 accepted")
	}
	k := base("c1")
	k.AsyncDelete = true
	if _, err := semaphore.New(semaphore.Constants{Constants: k, MaxLeases: 1}); err == nil {
		t.Error("AsyncDelete accepted")
	}
}
