package checker_test

import (
	"testing"

	"github.com/zklock/zklock/checker"
)

// S is a semaphore of at most two leases in the handmade histories below.
const S = "/semaphores/a"

// sacq is a successful acquire of a lease of S (max 2).
func sacq(client string, call, ret, token int64) checker.Record {
	r := acq(client, S, call, ret, token)
	r.Max = 2
	return r
}

func init() {
	goodControls = append(goodControls, control{
		name: "semaphore: two leases held together, a third waits for a release",
		h: checker.History{
			sacq("A", 0, 10, 1),
			sacq("B", 5, 15, 2),
			sacq("C", 12, 40, 3), // waits: two held
			rel("A", S, 30, 35, 1, ok),
			acqNot("D", S, 20, 25, failed), // TryAcquire found none free
			rel("B", S, 50, 55, 2, ok),
			rel("C", S, 60, 65, 3, ok),
		},
	}, control{
		name: "semaphore: a crashed holder (release of unknown outcome) and a lost one make room",
		h: checker.History{
			sacq("A", 0, 10, 1),
			sacq("B", 5, 15, 2),
			rel("A", S, 20, 25, 1, checker.OutcomeUnknown), // closed its session
			lost("B", S, 15, 30, 2),
			sacq("C", 12, 40, 3),
			sacq("D", 14, 45, 4),
			rel("C", S, 50, 55, 3, ok),
			rel("D", S, 60, 65, 4, ok),
		},
	}, control{
		name:    "semaphore: a third believer frozen across its loss",
		excused: []checker.CheckName{checker.CheckSemaphoreOverlap},
		h: checker.History{
			sacq("A", 0, 10, 1),
			sacq("B", 5, 15, 2),
			fault(checker.FaultPause, "A", 13, 300),
			sacq("C", 20, 150, 3), // A's node expired while it slept
			lost("A", S, 10, 310, 1),
			rel("B", S, 400, 410, 2, ok),
			rel("C", S, 420, 430, 3, ok),
		},
	})
	badControls = append(badControls, control{
		name:    "semaphore: three leases of a max-2 semaphore held at once",
		illegal: []string{"semaphore " + S},
		violate: []checker.CheckName{checker.CheckSemaphoreOverlap},
		h: checker.History{
			sacq("A", 0, 10, 1),
			sacq("B", 5, 15, 2),
			sacq("C", 12, 20, 3),
			rel("A", S, 30, 35, 1, ok),
			rel("B", S, 50, 55, 2, ok),
			rel("C", S, 60, 65, 3, ok),
		},
	}, control{
		name:    "semaphore: a frozen believer that noticed its loss long after it thawed",
		violate: []checker.CheckName{checker.CheckSemaphoreOverlap},
		h: checker.History{
			sacq("A", 0, 10, 1),
			sacq("B", 5, 15, 2),
			fault(checker.FaultPause, "A", 13, 300),
			sacq("C", 20, 150, 3),
			lost("A", S, 10, 2_000_000_000, 1), // past the grace after the pause
			rel("B", S, 2_000_000_100, 2_000_000_110, 2, ok),
			rel("C", S, 2_000_000_120, 2_000_000_130, 3, ok),
		},
	})
}

// TestSemaphoreSummary: the leases and the most held at once are counted,
// and a lock's history has no summary.
func TestSemaphoreSummary(t *testing.T) {
	res, err := checker.Check(checker.History{
		sacq("A", 0, 10, 1), sacq("B", 5, 15, 2), rel("A", S, 30, 35, 1, ok),
		sacq("C", 32, 40, 3), rel("B", S, 50, 55, 2, ok), rel("C", S, 60, 65, 3, ok),
	}, checker.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := checker.SemaphoreSummary{Leases: 3, Max: 2, MostHeld: 2}
	if res.Semaphore == nil || *res.Semaphore != want || res.Verdict != checker.VerdictPass {
		t.Errorf("summary %+v verdict %s, want %+v and pass", res.Semaphore, res.Verdict, want)
	}
	res, err = checker.Check(checker.History{acq("A", L, 0, 10, 1)}, checker.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Semaphore != nil {
		t.Errorf("a lock's history has a semaphore summary: %+v", res.Semaphore)
	}
}

// TestSemaphoreMaxOnlyOnAcquire: a max on a release, or a negative one, is a
// bad record.
func TestSemaphoreMaxOnlyOnAcquire(t *testing.T) {
	r := rel("A", S, 30, 35, 1, ok)
	r.Max = 2
	if _, err := checker.Check(checker.History{sacq("A", 0, 10, 1), r}, checker.Options{}); err == nil {
		t.Error("a release with a max passed validation")
	}
	a := sacq("A", 0, 10, 1)
	a.Max = -1
	if _, err := checker.Check(checker.History{a}, checker.Options{}); err == nil {
		t.Error("a negative max passed validation")
	}
}
