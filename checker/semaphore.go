package checker

import (
	"fmt"
	"strings"
)

// CheckSemaphoreOverlap: more leases of one semaphore believed held at one
// instant than its max, counting only beliefs no process pause explains.
const CheckSemaphoreOverlap CheckName = "semaphore-overlap"

// checkSemaphoreOverlaps reports every instant a lease of a semaphore began
// while its max others were believed held: the overlap check's counterpart
// for N holders, with the same belief intervals (acquire's return to the
// release's call or the loss seen). A believer whose belief a pause explains
// (ps.excuse, as the overlap check excuses one side) is not counted; an
// excess only such believers make is reported excused.
func checkSemaphoreOverlaps(ls *leases, ps pauses, horizon int64, out *collector) {
	for path, group := range ls.byPath {
		var active []*lease
		for _, t := range group { // in start order
			if t.max == 0 || t.end <= t.start {
				continue
			}
			kept := active[:0]
			for _, a := range active {
				if a.end > t.start {
					kept = append(kept, a)
				}
			}
			active = append(kept, t)
			if len(active) > t.max {
				out.add(semaphoreFinding(path, active, t, ps, horizon))
			}
		}
	}
}

func semaphoreFinding(path string, active []*lease, t *lease, ps pauses, horizon int64) Finding {
	s, e := t.start, int64(never)
	f := Finding{Check: CheckSemaphoreOverlap, Path: path, Start: s}
	var names, excuses []string
	counted := 0
	for _, l := range active {
		e = min(e, l.end)
		f.Clients = append(f.Clients, l.client)
		f.Tokens = append(f.Tokens, l.token)
		f.Records = append(f.Records, leaseRecords(l)...)
		names = append(names, fmt.Sprintf("%s (token %d, %s)", l.client, l.token, describeTenure(l)))
		if i := ps.excuse(l, s); i >= 0 {
			excuses = append(excuses, ps.describe(l, i))
			f.Faults = append(f.Faults, i)
			continue
		}
		counted++
	}
	f.End = e
	if e == never {
		f.End = horizon
	}
	f.Text = fmt.Sprintf("%d leases of %s (max %d) believed held at once over [%s, %s]: %s",
		len(active), path, t.max, fmtTime(s), fmtTime(e), strings.Join(names, ", "))
	if counted <= t.max {
		f.Excuse = strings.Join(excuses, "; ")
	} else {
		f.Faults = nil // the excess stands without the frozen believers
	}
	return f
}

// SemaphoreSummary counts a semaphore campaign's leases.
type SemaphoreSummary struct {
	Leases int `json:"leases"` // successful acquires of a semaphore
	Max    int `json:"max"`    // the largest max the acquires carried
	// MostHeld is the most leases of one semaphore believed held at one
	// instant, pauses or not: at most Max in a run that passes unexcused.
	MostHeld int `json:"most_held"`
}

func summarizeSemaphore(ls *leases) *SemaphoreSummary {
	s := &SemaphoreSummary{}
	for _, group := range ls.byPath {
		var active []*lease
		for _, t := range group {
			if t.max == 0 {
				continue
			}
			s.Leases++
			s.Max = max(s.Max, t.max)
			if t.end <= t.start {
				continue
			}
			kept := active[:0]
			for _, a := range active {
				if a.end > t.start {
					kept = append(kept, a)
				}
			}
			active = append(kept, t)
			s.MostHeld = max(s.MostHeld, len(active))
		}
	}
	if s.Leases == 0 {
		return nil
	}
	return s
}

// String says it in one line.
func (s *SemaphoreSummary) String() string {
	return fmt.Sprintf("%d leases, max %d, at most %d believed held at once", s.Leases, s.Max, s.MostHeld)
}
