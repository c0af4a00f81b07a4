package checker

import (
	"fmt"
	"sort"
)

// checkTokens reports tokens that do not increase in grant order. A token is the lock
// node's czxid, so two facts hold for any correct lock:
//
//   - if acquire X returned before acquire Y was called, X's node was created first
//     and X.token < Y.token, whatever the modes, pauses or faults;
//   - if X's tenure ended before Y's began and they conflict, X was granted first,
//     and grants go in node order, so X.token < Y.token. A client frozen between
//     its grant and the return of its acquire can break this one (its node expired
//     meanwhile and others held the lock); that case is excused by the pause.
//
// A token handed out by two acquires is reported too.
func checkTokens(ls *leases, ps pauses, out *collector) {
	for path, group := range ls.byPath {
		checkDuplicateTokens(path, group, out)
		if group[0].max > 0 {
			// A semaphore's lease node is made before it waits and several
			// hold at once: neither order holds among its tokens.
			continue
		}
		checkRequestOrder(path, group, out)
		checkTenureOrder(path, group, ps, out)
	}
}

func checkDuplicateTokens(path string, group []*lease, out *collector) {
	first := make(map[int64]*lease, len(group))
	for _, l := range group {
		if p, ok := first[l.token]; ok {
			out.add(Finding{
				Check: CheckTokenOrder, Path: path,
				Clients: []string{p.client, l.client}, Tokens: []int64{l.token, l.token},
				Start: p.start, End: l.start, Records: []int{p.acq, l.acq},
				Text: fmt.Sprintf("token %d granted twice on %s: to %s at %s and to %s at %s",
					l.token, path, p.client, fmtTime(p.start), l.client, fmtTime(l.start)),
			})
			continue
		}
		first[l.token] = l
	}
}

func checkRequestOrder(path string, group []*lease, out *collector) {
	afterBest(group, func(best, y *lease) {
		if best != nil && best.token > y.token {
			out.add(tokenPair(CheckTokenOrder, path, best, y, y.call,
				fmt.Sprintf("%s's acquire on %s returned token %d at %s, before %s asked, yet %s got the lower token %d",
					best.client, path, best.token, fmtTime(best.start), y.client, y.client, y.token)))
		}
	})
}

// tokenPair is a finding about two leases of path: x's, granted before y
// asked, and y's, whose token is not above x's; it spans x's grant to end.
func tokenPair(check CheckName, path string, x, y *lease, end int64, text string) Finding {
	return Finding{Check: check, Path: path,
		Clients: []string{x.client, y.client}, Tokens: []int64{x.token, y.token},
		Start: x.start, End: end, Records: []int{x.acq, y.acq}, Text: text}
}

// afterBest calls f for each lease y of group in call order, with best the
// lease of the highest token among those whose acquire returned before y's
// was called (nil if none).
func afterBest(group []*lease, f func(best, y *lease)) {
	byReturn := sortedLeases(group, func(l *lease) int64 { return l.start })
	byCall := sortedLeases(group, func(l *lease) int64 { return l.call })
	var best *lease
	i := 0
	for _, y := range byCall {
		for i < len(byReturn) && byReturn[i].start < y.call {
			if best == nil || byReturn[i].token > best.token {
				best = byReturn[i]
			}
			i++
		}
		f(best, y)
	}
}

func checkTenureOrder(path string, group []*lease, ps pauses, out *collector) {
	byEnd := sortedLeases(group, func(l *lease) int64 { return l.end })
	// group is already in start order.
	var bestAny, bestWriter *lease
	i := 0
	for _, y := range group {
		for i < len(byEnd) && byEnd[i].end <= y.start {
			x := byEnd[i]
			if x.end > x.start { // a tenure that never was orders nothing
				if bestAny == nil || x.token > bestAny.token {
					bestAny = x
				}
				if x.writer() && (bestWriter == nil || x.token > bestWriter.token) {
					bestWriter = x
				}
			}
			i++
		}
		x := bestWriter
		if y.writer() {
			x = bestAny
		}
		if x == nil || x.token <= y.token || x == y {
			continue
		}
		f := Finding{
			Check: CheckTokenOrder, Path: path,
			Clients: []string{x.client, y.client}, Tokens: []int64{x.token, y.token},
			Start: x.end, End: y.start, Records: leaseRecords(x, y),
			Text: fmt.Sprintf("%s held %s with token %d until %s, then %s held it with the lower token %d from %s",
				x.client, path, x.token, fmtTime(x.end), y.client, y.token, fmtTime(y.start)),
		}
		if j := ps.excuse(y, y.start); j >= 0 {
			f.Excuse = ps.describe(y, j)
			f.Faults = []int{j}
		}
		out.add(f)
	}
}

func sortedLeases(group []*lease, key func(*lease) int64) []*lease {
	s := append([]*lease(nil), group...)
	sort.SliceStable(s, func(i, j int) bool { return key(s[i]) < key(s[j]) })
	return s
}
