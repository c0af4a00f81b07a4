package checker

import "fmt"

// pauses indexes the process-pause faults of a history. A paused client cannot act on
// anything, its lost-lock timer included, so its belief that it holds a lease can
// outlive the lease by the length of the pause. Findings that only say that are
// expected whenever pauses are injected; fencing is what must protect the resource.
type pauses struct {
	h      History
	faults []int
	grace  int64
	// notify and rewind are the graces after an operator's deletion of a
	// node and after a wipe (operator.go); 0 for a history checked without
	// Options.
	notify, rewind int64
}

func buildPauses(h History, grace int64) pauses {
	p := pauses{h: h, grace: grace}
	for i := range h {
		if h[i].Kind == KindFault && (h[i].Fault == FaultPause || operatorFault(h[i].Fault)) {
			p.faults = append(p.faults, i)
		}
	}
	return p
}

// overlapping returns the index of a pause of the client that overlaps [from, to],
// or -1.
func (p pauses) overlapping(client, session string, from, to int64) int {
	for _, i := range p.faults {
		f := &p.h[i]
		if f.affects(client, session) && f.Call <= to && f.end() >= from {
			return i
		}
	}
	return -1
}

// excuse returns the index of a pause that explains why the client still believed it
// held a lease at instant s, when the lease was evidently gone by then, or -1. The
// pause explains it if it began no later than s and the client's belief ended
// within the grace period after the pause did: a client that stayed deluded longer
// than that after waking up has a loss signal that does not work.
func (p pauses) excuse(l *lease, s int64) int {
	if l.end == never {
		return -1
	}
	for _, i := range p.faults {
		f := &p.h[i]
		if f.affects(l.client, l.session) && f.Call <= s && l.end <= f.end()+p.graceOf(f) {
			return i
		}
	}
	return -1
}

// describe says why l's belief is excused by pause i.
func (p pauses) describe(l *lease, i int) string {
	f := &p.h[i]
	if operatorFault(f.Fault) {
		return p.describeOperator(l, i)
	}
	return fmt.Sprintf("%s was frozen by fault record %d (%s %s, %s to %s) and stopped believing at %s",
		l.client, i, f.Fault, f.Target, fmtTime(f.Call), fmtTime(f.end()), fmtTime(l.end))
}
