package predlock

import (
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/internal/cow"
	"github.com/zklock/zklock/model/recipe"
)

// ExpireSession: the server expires session x (closeSession, one
// transaction): its ephemeral nodes are deleted, watches on them fire, and
// the session's own watches are dropped. For the session a client uses this
// is a fault, enabled only while the client does not believe it holds,
// unless it is paused (the loss timer fires before the server may expire
// the session); an abandoned session may always expire, at no cost. Spec:
// PredecessorLock!ExpireSession (ZooKeeper Programmer's Guide "ZooKeeper
// Sessions": an expired session's ephemeral nodes are deleted;
// docs/DESIGN.md "Unrecoverable errors: sessions, loss and fencing").
func (sp *Spec) ExpireSession(s *State, x Session, t *State) model.Guard {
	if !s.IsLive(x) {
		return `s \in live`
	}
	c := x.C
	current := x == s.SessOf(c)
	if current {
		switch {
		case !sp.WithExpiry:
			return `s = Sess(c) => WithExpiry`
		case s.PC[c] == recipe.PCHold && !s.Paused[c]:
			return `s = Sess(c) => (pc[c] = "hold" => paused[c])`
		case !sp.fault(s):
			return `s = Sess(c) => Fault`
		}
	}
	*t = *s
	if current {
		t.Faults = s.Faults + 1
	}
	s.Server.ExpireSession(&t.Server, x, current)
	return model.Enabled
}

// DeleteLands: the pending delete of request u reaches the server; one
// transaction deletes the request's nodes and watches on them fire. The
// session is live (ExpireSession drops the pending deletes of the session
// it expires). A step of the network and the server: a paused client's
// delete lands too. Spec: PredecessorLock!DeleteLands.
func (sp *Spec) DeleteLands(s *State, u Uuid, t *State) model.Guard {
	if g := s.DeleteLandsGuard(u); g != model.Enabled {
		return g
	}
	*t = *s
	s.Server.DeleteLands(&t.Server, u)
	return model.Enabled
}

// DropDelete: a connection loss drops the pending delete of request u for
// good; a fault. Spec: PredecessorLockDropDelete!DropDelete (a mutant).
func (sp *Spec) DropDelete(s *State, u Uuid, t *State) model.Guard {
	p, ok := s.PendingOf(u)
	switch {
	case !ok:
		return `p \in pending`
	case !sp.fault(s):
		return gFault
	}
	*t = *s
	t.Faults = s.Faults + 1
	t.Pending = cow.Filter(s.Pending, func(q Pending) bool { return q != p })
	return model.Enabled
}

// PauseClient: a process pause (GC, VM stall, SIGSTOP); a fault. With
// GrantReread only a holder pauses (a slow non-holder is modeled by
// interleaving); with a local grant a client pauses in any state but
// "idle", as impl/zklock's process can. Spec: PredecessorLock!PauseClient
// (docs/DESIGN.md "Unrecoverable errors: sessions, loss and fencing").
func (sp *Spec) PauseClient(s *State, c int, t *State) model.Guard {
	switch {
	case !sp.WithPause:
		return `WithPause`
	case s.Paused[c]:
		return gNotPaused
	case sp.GrantRule == GrantReread && s.PC[c] != recipe.PCHold:
		return `GrantRule = "reread" => pc[c] = "hold"`
	case sp.GrantRule != GrantReread && s.PC[c] == recipe.PCIdle:
		return `GrantRule # "reread" => pc[c] # "idle"`
	case !sp.fault(s):
		return gFault
	}
	*t = *s
	t.Faults = s.Faults + 1
	t.Paused = cow.With(s.Paused, c, true)
	return model.Enabled
}

// ResumeClient: the pause ends; the client still believes whatever it
// believed. Spec: PredecessorLock!ResumeClient.
func (sp *Spec) ResumeClient(s *State, c int, t *State) model.Guard {
	if !s.Paused[c] {
		return `paused[c]`
	}
	*t = *s
	t.Paused = cow.With(s.Paused, c, false)
	return model.Enabled
}
