package predext

import (
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/zk"
)

// holding is the guard both writes share: c is not paused and believes it
// holds.
func holding(s *State, c int) model.Guard {
	switch {
	case s.Paused[c]:
		return recipe.GNotPaused
	case s.PC[c] != recipe.PCHold:
		return `pc[c] = "hold"`
	}
	return model.Enabled
}

// GuardedWrite: Lease.Guard's multi [check(own node), the caller's ops] on
// the lease's session (impl/zklock/lease.go). The server applies it as one
// transaction only if c's own node stands, which it does exactly while the
// session that made it is live: Lands(c). Otherwise
// nothing lands and the lease ends with ErrLockLost: on an expired session
// the call fails with SESSIONEXPIRED, which ends the session (the step of
// LearnExpiry); a missing node on a live session ends the lease alone
// (Lease.recheck, lostAt; unreachable here). Spec:
// PredecessorLockGuard!GuardedWrite.
func (sp *Spec) GuardedWrite(s *State, c int, t *State) model.Guard {
	if g := holding(s, c); g != model.Enabled {
		return g
	}
	live := s.LiveC(c)
	switch {
	case live && s.OwnNodeExists(c):
		lands(s, c, t)
	case live:
		*t = *s
		idle(t, c)
	default:
		return sp.Step(s, model.Label{Action: recipe.ActLearnExpiry, Client: int16(c)}, t)
	}
	return model.Enabled
}

// UnguardedWrite (mutant GuardUnchecked): the write without the check of
// the lock node; it lands whatever became of the node. Spec:
// PredecessorLockGuardUnchecked!UnguardedWrite.
func (sp *Spec) UnguardedWrite(s *State, c int, t *State) model.Guard {
	if g := holding(s, c); g != model.Enabled {
		return g
	}
	lands(s, c, t)
	return model.Enabled
}

// lands is Lands(c): c's write to the guarded node lands; the tenure is
// c's and the version moves on.
func lands(s *State, c int, t *State) {
	*t = *s
	t.Guarded, t.Version = s.Tenure[c], 1-s.Version
}

// CancelInFlight: the request's context ends with its create sent and not
// answered (impl/zklock: contender.create returns ctx.Err() and keeps the
// reply in c.inflight): the client is idle, and the create joins flight,
// waited for by the clean-up (contender.cancel, removeOwnNodes) if waited.
// With waited false it is the mutant's CancelNoWait: the clean-up listed at
// once, found nothing and ended. Spec:
// PredecessorLockCancelInFlight!CancelInFlight,
// PredecessorLockCancelNoWait!CancelNoWait.
func (sp *Spec) CancelInFlight(s *State, c int, waited bool, t *State) model.Guard {
	switch {
	case !sp.WithCancel:
		return `WithCancel`
	case s.Paused[c]:
		return recipe.GNotPaused
	case s.PC[c] != recipe.PCCreate:
		return `pc[c] = "create"`
	case !s.LiveC(c):
		return recipe.GLive
	}
	*t = *s
	t.Flight = insertFlight(s.Flight, Flight{Sess: s.SessOf(c), Uuid: s.UuidOf(c), Waited: waited})
	idle(t, c)
	return model.Enabled
}

// FlightLands: the server applies the in-flight create of request u while
// its session lives (the node is created, child watches fire); the
// clean-up that waited for it leaves its delete pending (DeleteLands or
// the session's expiry). One that did not wait deletes nothing. Spec:
// PredecessorLockCancelInFlight!FlightLands.
func (sp *Spec) FlightLands(s *State, u zk.Uuid, t *State) model.Guard {
	i := -1
	for j, f := range s.Flight {
		if f.Uuid == u {
			i = j
		}
	}
	switch {
	case i < 0:
		return `\E f \in flight : f.u = u`
	case !s.IsLive(s.Flight[i].Sess):
		return `ZK!IsLive(f.s)`
	case !s.CanCreate(sp.MaxSeq):
		return zk.GSeq
	}
	f := s.Flight[i]
	*t = *s
	s.CreateNode(&t.Server, zk.NoKind{}, f.Sess, u)
	t.Flight = append(append([]Flight(nil), s.Flight[:i]...), s.Flight[i+1:]...)
	if f.Waited {
		t.Pending = insertPending(s.Pending, zk.Pending{Sess: f.Sess, Uuid: u})
	}
	return model.Enabled
}
