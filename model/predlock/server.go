package predlock

import (
	"github.com/zklock/zklock/model/internal/cow"
)

// SessOf is the session client c currently uses (spec: Sess(c)).
func (s *State) SessOf(c int) Session { return Session{C: c, K: s.Sess[c]} }

// UuidOf is the uuid of client c's current (or last) request (spec: Uuid(c)).
func (s *State) UuidOf(c int) Uuid { return Uuid{C: c, R: s.ReqNo[c]} }

// LiveC reports whether a ZooKeeper call by c can succeed (spec: Live(c)).
func (s *State) LiveC(c int) bool { return s.IsLive(s.SessOf(c)) }

// HasSeq reports whether a node with sequence number seq exists
// (spec: ZK!NodeExists(seq)).
func (s *State) HasSeq(seq int) bool { return s.NodeExists(name(seq)) }

// OwnNodeExists: c's known node exists, owned by its current session and
// carrying its current request's uuid (spec: OwnNodeExists(c)).
func (s *State) OwnNodeExists(c int) bool {
	n, ok := s.NodeAt(s.Node[c])
	return ok && n.Owner == s.SessOf(c) && n.Uuid == s.UuidOf(c)
}

// Overdue: c's loss deadline has passed (spec: Overdue(c) == ~Live(c)).
// The spec has no clocks: a session's deadline passes before the server
// may expire it, so an expired current session is a passed deadline, and
// a deadline passed on a live session shows up as LearnExpiry.
func (s *State) Overdue(c int) bool { return !s.LiveC(c) }

// knownToken is KnownToken(c, z): the token c knows once its node is known
// (at CreateOk or FindOwnNode; a czxid never changes): z, except with
// GrantReread, where the token is only read at Grant.
func (sp *Spec) knownToken(s *State, c, z int) []int {
	if sp.GrantRule == GrantReread {
		return s.Token
	}
	return cow.With(s.Token, c, z)
}

// Abandoned: the server still has session x but its client has moved on to
// a newer session (spec: Abandoned(s)).
func (s *State) Abandoned(x Session) bool { return s.IsLive(x) && x != s.SessOf(x.C) }

// idle is Idle(c): the reset of c's per-request state.
func idle(t *State, c int) {
	t.PC = cow.With(t.PC, c, PCIdle)
	t.Node = cow.With(t.Node, c, NoNode)
	t.Target = cow.With(t.Target, c, NoNode)
	setSoleBlocker(t, c, false)
	t.Token = cow.With(t.Token, c, 0)
	t.Tenure = cow.With(t.Tenure, c, 0)
}

// setSoleBlocker sets soleBlocker[c] in t, copying the slice only when
// the value changes (it is FALSE almost everywhere).
func setSoleBlocker(t *State, c int, v bool) {
	if t.SoleBlocker[c] != v {
		t.SoleBlocker = cow.With(t.SoleBlocker, c, v)
	}
}

// fault is the guard of Fault: the budget is not spent.
func (sp *Spec) fault(s *State) bool { return s.Faults < sp.MaxFaults }
