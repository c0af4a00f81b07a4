package checker

import "fmt"

// checkOverlaps reports every pair of conflicting tenures on one path that overlap in
// real time. Tenures are half-open, [start, end): a holder that called release at
// t and a successor whose acquire returned at t did not both believe at once.
//
// Without process pauses a correct lock never overlaps tenures: its loss timer fires
// before the server can expire the session, so the next grant comes after the old
// holder stopped believing. A pause stops the timer too; such overlaps are excused by
// the pause and only fencing keeps the resource safe.
func checkOverlaps(ls *leases, ps pauses, horizon int64, out *collector) {
	for path, group := range ls.byPath {
		var active []*lease
		for _, t := range group { // in start order
			if t.end <= t.start {
				continue // released before it returned: never believed
			}
			kept := active[:0]
			for _, a := range active {
				if a.end > t.start {
					kept = append(kept, a)
				}
			}
			active = kept
			for _, a := range active {
				if a.conflicts(t) {
					out.add(overlapFinding(path, a, t, ps, horizon))
				}
			}
			active = append(active, t)
		}
	}
}

func overlapFinding(path string, a, t *lease, ps pauses, horizon int64) Finding {
	s := t.start
	e := min(a.end, t.end)
	shown := e
	if e == never {
		shown = horizon
	}
	f := Finding{
		Check:   CheckOverlap,
		Path:    path,
		Clients: []string{a.client, t.client},
		Tokens:  []int64{a.token, t.token},
		Start:   s,
		End:     shown,
		Records: leaseRecords(a, t),
		Text: fmt.Sprintf("%s (token %d, %s) and %s (token %d, %s) both believed they held %s over [%s, %s]",
			a.client, a.token, describeTenure(a), t.client, t.token, describeTenure(t),
			path, fmtTime(s), fmtTime(e)),
	}
	// Either side may be the deluded one: the earlier holder frozen across the
	// hand-over, or the later one frozen between its grant and the return of its
	// acquire. The side whose belief the pause explains is the one excused.
	for _, l := range []*lease{a, t} {
		if i := ps.excuse(l, s); i >= 0 {
			f.Excuse = ps.describe(l, i)
			f.Faults = []int{i}
			break
		}
	}
	return f
}

func describeTenure(l *lease) string {
	return fmt.Sprintf("believed %s-%s", fmtTime(l.start), fmtTime(l.end))
}

func leaseRecords(ls ...*lease) []int {
	var out []int
	for _, l := range ls {
		out = append(out, l.acq)
		if l.endRec >= 0 {
			out = append(out, l.endRec)
		}
	}
	return out
}
