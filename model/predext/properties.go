package predext

import (
	"github.com/zklock/zklock/model/internal/cow"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/zk"
)

// insertFlight returns the flights with f added (a set, sorted).
func insertFlight(fs []Flight, f Flight) []Flight { return cow.Insert(fs, f, flightLess) }

// insertPending returns pending with p added (a set, sorted).
func insertPending(ps []zk.Pending, p zk.Pending) []zk.Pending {
	return cow.Insert(ps, p, zk.PendingLess)
}

// TypeOK is GTypeOK or FTypeOK: PredecessorLock's TypeOK, guarded a
// natural number, each flight of a session and a uuid within the bounds.
func (sp *Spec) TypeOK(s *State) bool {
	if !sp.Spec.TypeOK(&s.State) || s.Guarded < 0 || s.Version < 0 || s.Version > 1 {
		return false
	}
	for _, f := range s.Flight {
		if f.Sess.C < 0 || f.Sess.C >= sp.N() || f.Sess.K < 1 || f.Sess.K > sp.MaxFaults+1 ||
			f.Uuid.C < 0 || f.Uuid.C >= sp.N() || f.Uuid.R < 1 || f.Uuid.R > sp.MaxRequests {
			return false
		}
	}
	return true
}

// GuardedExclusion (action property, PredecessorLockGuard): a step that
// changes the guarded resource (every write that lands: the version moves)
// writes a tenure at least as new as the last guarded write's, and no
// other client holds with its node standing: every holder whose node
// exists has the written tenure.
func (sp *Spec) GuardedExclusion(s, t *State) bool {
	if t.Guarded == s.Guarded && t.Version == s.Version {
		return true
	}
	if t.Guarded < s.Guarded {
		return false
	}
	for d := range s.PC {
		if s.PC[d] == recipe.PCHold && s.OwnNodeExists(d) && s.Tenure[d] != t.Guarded {
			return false
		}
	}
	return true
}
