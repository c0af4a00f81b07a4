package trace

import (
	"fmt"
	"strings"
)

// String renders the report: the verdict of every lock, the diverging
// event with the model states it was compared against, or the faults a
// valid trace needed.
func (r *Report) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "trace: %s\n", r.Verdict)
	for _, l := range r.Locks {
		b.WriteString(l.String())
	}
	return b.String()
}

// String renders one lock's result.
func (l *LockReport) String() string {
	var b strings.Builder
	lock := l.Lock
	if lock == "" {
		lock = "(lock)"
	}
	fmt.Fprintf(&b, "lock %s (%s, %d clients, %d events): %s; %d search states\n",
		lock, l.Spec, len(l.Clients), l.Events, l.Verdict, l.Explored)
	switch l.Verdict {
	case Valid:
		if len(l.Faults) > 0 {
			fmt.Fprintf(&b, "  unobservable fault steps the order needed: %s\n", strings.Join(l.Faults, "; "))
		}
	case Inconclusive:
		fmt.Fprintf(&b, "  %s\n", l.Reason)
		if d := l.Divergence; d != nil {
			fmt.Fprintf(&b, "  the deepest point reached (after %d events matched), where the search backtracked from: %s\n  why: %s\n",
				d.Matched, d.Event.String(), d.Reason)
		}
	case Invalid:
		d := l.Divergence
		if d == nil {
			break
		}
		fmt.Fprintf(&b, "  diverging event (after %d events matched): %s\n", d.Matched, d.Event.String())
		fmt.Fprintf(&b, "  why: %s\n", d.Reason)
		fmt.Fprintf(&b, "  compared against %d model state(s); the first %d:\n", d.Compared, len(d.Candidates))
		for i, c := range d.Candidates {
			fmt.Fprintf(&b, "  --- candidate %d: %s\n", i+1, c.Why)
			for _, line := range strings.Split(c.State, "\n") {
				fmt.Fprintf(&b, "    %s\n", line)
			}
		}
		for _, o := range d.Others {
			fmt.Fprintf(&b, "  also unmatched there: %s\n", o)
		}
	}
	return b.String()
}
