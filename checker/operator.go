package checker

import (
	"fmt"
	"strings"
	"time"
)

// An operator's faults: someone with the campaign's credentials deletes a
// holder's lock node (and may put one of the same name in its place), or
// wipes the ensemble (every server's data emptied: the history starts
// over, zxids go back, sessions are gone). A holder cannot learn of either
// before it happens, so its belief may outlast its node; what a lock must
// promise is that the belief ends soon after:
//
//   - after a deletion, within one notification: a holder watching its own
//     node learns of the deletion when the next waiter learns of it, so its
//     belief overlaps the next grant by no more than NotifyGrace after the
//     delete returned (the belief-overlap judgment: an overlap is excused
//     within that window, a violation beyond it);
//   - after a wipe, at the first contact with the new history: within
//     RewindGrace after the ensemble is healthy again (the reconnect
//     period of the client and its probe of the servers).
//
// A wipe fault lists in its Nodes the registers kept in the ensemble: their
// state goes back with it, so their writes are judged within one history
// (a separate partition after the wipe; a stale write across it excused).
//
// Tokens are compared only within one history: a token-order finding that
// spans a wipe is excused, and the token-said check asks instead that an
// acquire whose token is not above one the process handed out before
// (every client of a campaign is one process) said so (Record.Rewound).

// The fault names the checker reads besides FaultPause: the chaos kinds
// operator-delete, operator-replace and wipe.
const (
	FaultOperatorDelete  = "operator-delete"
	FaultOperatorReplace = "operator-replace"
	FaultWipe            = "wipe"
	// FaultRestore: every server's data replaced by a backup taken earlier
	// in the campaign; judged as a wipe (the history went back).
	FaultRestore = "restore"
)

// CheckTokenSaid: an acquire's token is not above one handed out before its
// call on the same path, and the acquire did not say so (Record.Rewound).
const CheckTokenSaid CheckName = "token-said"

// Defaults for [Options.NotifyGrace] and [Options.RewindGrace].
const (
	DefaultNotifyGrace = time.Second
	// DefaultRewindGrace: go-zookeeper retries the servers once a second,
	// and zklock's probe of a refused handshake takes a round trip.
	DefaultRewindGrace = 2 * time.Second
)

func operatorFault(name string) bool {
	return name == FaultOperatorDelete || name == FaultOperatorReplace || rewinds(name)
}

// rewoundHow says what the rewinding fault name did to the ensemble.
func rewoundHow(name string) string {
	if name == FaultRestore {
		return "restored from a backup"
	}
	return "wiped"
}

// rewinds: the fault name sends the ensemble's history back (a wipe, a
// restore).
func rewinds(name string) bool { return name == FaultWipe || name == FaultRestore }

// graceOf is how long after fault f ends a belief it explains may last.
func (p pauses) graceOf(f *Record) int64 {
	switch f.Fault {
	case FaultOperatorDelete, FaultOperatorReplace:
		return p.notify
	case FaultWipe, FaultRestore:
		return p.rewind
	}
	return p.grace
}

func (p pauses) describeOperator(l *lease, i int) string {
	f := &p.h[i]
	if rewinds(f.Fault) {
		return fmt.Sprintf("the ensemble was %s by fault record %d (%s to %s) and %s stopped believing at %s, within %v of the ensemble's return",
			rewoundHow(f.Fault), i, fmtTime(f.Call), fmtTime(f.end()), l.client,
			fmtTime(l.end), time.Duration(p.rewind))
	}
	return fmt.Sprintf("an operator deleted %s's node by fault record %d (%s, %s to %s) and %s stopped believing at %s, within one notification (%v)",
		l.client, i, f.Fault, fmtTime(f.Call), fmtTime(f.end()), l.client, fmtTime(l.end), time.Duration(p.notify))
}

// wipes are the indices of h's wipe faults.
type wipes struct {
	h  History
	at []int
}

func findWipes(h History) wipes {
	w := wipes{h: h}
	for i := range h {
		if h[i].Kind == KindFault && rewinds(h[i].Fault) {
			w.at = append(w.at, i)
		}
	}
	return w
}

// between returns the index of a wipe that overlaps [from, to], or -1.
func (w wipes) between(from, to int64) int {
	for _, i := range w.at {
		if f := &w.h[i]; f.Call <= to && f.end() >= from {
			return i
		}
	}
	return -1
}

// excuse excuses a token-order finding whose interval spans a wipe: its
// tokens are of two histories; and a stale-write finding on a register
// the wipe took back (its Nodes): the register's history started over
// with the ensemble's. nil without wipes.
func (w wipes) excuse() func(*Finding) {
	if len(w.at) == 0 {
		return nil
	}
	return func(f *Finding) {
		if f.Check != CheckTokenOrder && f.Check != CheckStaleWrite {
			return
		}
		// A token is of the history it was granted in: the interval starts
		// at the earliest grant the finding names, which may be before
		// its Start (a tenure's end).
		from := f.Start
		for _, r := range f.Records {
			if a := &w.h[r]; a.Kind == KindAcquire && a.Return < from {
				from = a.Return
			}
		}
		i := w.between(from, f.End)
		if i < 0 || (f.Check == CheckStaleWrite && !wipedRegister(&w.h[i], f.Register)) {
			return
		}
		r := &w.h[i]
		what := "tokens of two histories are not ordered"
		if f.Check == CheckStaleWrite {
			what = "the register, kept in the ensemble, went back with it"
		}
		f.Excuse = fmt.Sprintf("the ensemble was %s between (fault record %d, %s to %s): %s",
			rewoundHow(r.Fault), i, fmtTime(r.Call), fmtTime(r.end()), what)
		f.Faults = []int{i}
	}
}

// wipedRegister says whether wipe f took register reg back: f's Nodes
// name it, or name the register of which it is one client's part
// ("name@client", a semaphore's lease holders each writing their own).
func wipedRegister(f *Record, reg string) bool {
	for _, n := range f.Nodes {
		if reg == n || strings.HasPrefix(reg, n+"@") {
			return true
		}
	}
	return false
}

// acrossRestore says whether an operation on register reg, called at call
// and returned at ret (0: never), overlaps a restore that took reg back:
// the server may have served it before the restore or after it, from the
// backup, and the two histories' values differ (after a wipe the register
// is gone, and such an operation fails).
func (w wipes) acrossRestore(reg string, call, ret int64) bool {
	for _, i := range w.at {
		r := &w.h[i]
		if r.Fault == FaultRestore && wipedRegister(r, reg) && call < r.end() && (ret == 0 || ret > r.Call) {
			return true
		}
	}
	return false
}

// registerKey is the partition of an operation on register reg called at
// call: a register a wipe or a restore took back (listed in the fault's
// Nodes) starts a new partition after each such fault, "reg@wipe N" or
// "reg@restore N"; restored says the partition starts at a restore, from
// the backup's value and token, which the history does not show.
func (w wipes) registerKey(reg string, call int64) (key string, restored bool) {
	n, last := 0, ""
	for _, i := range w.at {
		if r := &w.h[i]; r.end() <= call && wipedRegister(r, reg) {
			n, last = n+1, r.Fault
		}
	}
	if n == 0 {
		return reg, false
	}
	return fmt.Sprintf("%s@%s %d", reg, last, n), last == FaultRestore
}

// checkTokensSaid reports every acquire whose token is not above one
// granted on its path before it was called, across a wipe, unless it said
// so. Within one history the token-order check judges the same pairs.
func checkTokensSaid(ls *leases, w wipes, out *collector) {
	if len(w.at) == 0 {
		return
	}
	for path, group := range ls.byPath {
		afterBest(group, func(best, y *lease) {
			if best == nil || best.token < y.token || y.rewound || best == y || w.between(best.start, y.start) < 0 {
				return
			}
			out.add(tokenPair(CheckTokenSaid, path, best, y, y.start,
				fmt.Sprintf("%s was granted %s with token %d at %s, before %s asked; %s got token %d, not above it, and was not told",
					best.client, path, best.token, fmtTime(best.start), y.client, y.client, y.token)))
		})
	}
}

// CheckRewindBelief: a lease believed across the start of a wipe went on
// being believed past RewindGrace after the ensemble was back, whether or
// not anyone was granted meanwhile: its holder did not end it on meeting
// the older history.
const CheckRewindBelief CheckName = "rewind-belief"

// checkRewindBeliefs reports every lease held when a wipe began whose
// belief outlasted the wipe's end by more than grace.
func checkRewindBeliefs(ls *leases, w wipes, grace, horizon int64, out *collector) {
	for _, i := range w.at {
		f := &w.h[i]
		for _, l := range ls.all {
			if l.start >= f.Call || l.end <= f.Call || l.end <= f.end()+grace {
				continue
			}
			shown := l.end
			if shown == never {
				shown = horizon
			}
			out.add(Finding{
				Check: CheckRewindBelief, Path: l.path,
				Clients: []string{l.client}, Tokens: []int64{l.token},
				Start: f.end(), End: shown, Records: append(leaseRecords(l), i),
				Text: fmt.Sprintf("%s held %s (token %d) when the ensemble was %s (fault record %d, %s to %s) and believed it until %s, past %v after the ensemble's return",
					l.client, l.path, l.token, rewoundHow(f.Fault), i, fmtTime(f.Call), fmtTime(f.end()), fmtTime(shown), time.Duration(grace)),
			})
		}
	}
}
