package predlock

import (
	"github.com/zklock/zklock/model/internal/cow"
)

// HasSeq reports whether a node with sequence number seq exists
// (spec: ZK!NodeExists(seq)).
func (s *State) HasSeq(seq int) bool { return s.NodeExists(name(seq)) }

// OwnNodeExists: c's known node exists, owned by its current session and
// carrying its current request's uuid (spec: OwnNodeExists(c)).
func (s *State) OwnNodeExists(c int) bool { return s.OwnNodeOf(c, nil) }

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

// idle is Idle(c): the reset of c's per-request state.
func idle(t *State, c int) {
	t.Idle(c)
	t.Tenure = cow.With(t.Tenure, c, 0)
}

// fault is the guard of Fault: the budget is not spent.
func (sp *Spec) fault(s *State) bool { return sp.Fault(s.Faults) }
