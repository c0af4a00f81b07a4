package checker

import (
	"math"
	"sort"
)

// never is the end of a tenure that did not end before the history did.
const never = math.MaxInt64

// A lease is one successful acquire and the tenure that followed: from the return of
// the acquire to the earlier of the release call and the moment Lease.Done was
// observed closed. That is the interval in which the client believes it holds.
type lease struct {
	acq     int // index of the acquire record
	path    string
	client  string
	session string
	mode    Mode
	max     int // a semaphore's leases held at once; 0 for a lock
	token   int64
	node    string
	call    int64 // acquire call
	start   int64 // acquire return: the tenure starts
	end     int64 // the tenure ends; never if it did not
	endRec  int   // index of the record that ended it, or -1
	rewound bool  // the acquire said its token is not above an earlier one (Record.Rewound)
}

func (l *lease) writer() bool { return l.mode != ModeRead }

// conflicts reports whether two leases on one path may not be held together.
// A semaphore's leases may, up to its max: the semaphore-overlap check
// counts them instead.
func (l *lease) conflicts(o *lease) bool {
	if l.max > 0 || o.max > 0 {
		return false
	}
	return l.writer() || o.writer()
}

type leaseKey struct {
	path   string
	client string
	token  int64
}

// leases indexes the successful acquires of a history and the records ending them.
type leases struct {
	all    []*lease
	byKey  map[leaseKey][]*lease
	byPath map[string][]*lease // in start order
}

func buildLeases(h History) *leases {
	ls := &leases{byKey: make(map[leaseKey][]*lease), byPath: make(map[string][]*lease)}
	for i := range h {
		r := &h[i]
		if r.Kind != KindAcquire || r.Outcome != OutcomeOK {
			continue
		}
		l := &lease{
			acq: i, path: r.Path, client: r.Client, session: r.Session, mode: r.Mode, max: r.Max,
			token: r.Token, node: r.Node, call: r.Call, start: r.Return, end: never, endRec: -1, rewound: r.Rewound,
		}
		k := leaseKey{r.Path, r.Client, r.Token}
		ls.byKey[k] = append(ls.byKey[k], l)
		ls.all = append(ls.all, l)
	}
	for _, group := range ls.byKey {
		sort.SliceStable(group, func(i, j int) bool { return group[i].start < group[j].start })
	}
	for i := range h {
		r := &h[i]
		var at int64
		switch r.Kind {
		case KindRelease:
			at = r.Call // whatever the outcome: the client stopped believing when it called
		case KindLost:
			at = r.Return
		default:
			continue
		}
		l := ls.find(r.Path, r.Client, r.Token, r.Call)
		if l != nil && at < l.end {
			l.end, l.endRec = at, i
		}
	}
	for _, l := range ls.all {
		ls.byPath[l.path] = append(ls.byPath[l.path], l)
	}
	for _, group := range ls.byPath {
		sort.Slice(group, func(i, j int) bool {
			if group[i].start != group[j].start {
				return group[i].start < group[j].start
			}
			return group[i].acq < group[j].acq
		})
	}
	return ls
}

// find returns the lease a release, lost or write record of the given client and
// token refers to: the latest one acquired before the record's call. The same
// client holding the same token twice only happens in broken histories; there the
// choice keeps the findings readable.
func (ls *leases) find(path, client string, token int64, at int64) *lease {
	group := ls.byKey[leaseKey{path, client, token}]
	var found *lease
	for _, l := range group {
		if l.start <= at || found == nil {
			found = l
		}
	}
	return found
}
