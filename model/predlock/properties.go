package predlock

import "github.com/zklock/zklock/model/recipe"

// The spec's properties, each a method named like the property. Invariants
// take a state; action properties a step (s, t); the liveness property is
// given by the two state predicates of its leads-to.

// TypeOK: every variable has the type the spec declares (spec: TypeOK).
func (sp *Spec) TypeOK(s *State) bool {
	if !s.State.TypeOK(&sp.Constants.Constants) || len(s.Tenure) != sp.N() {
		return false
	}
	for _, x := range s.Tenure {
		if x < 0 {
			return false
		}
	}
	return s.Grants >= 0 && s.LastToken >= 0 && s.ResHigh >= 0 && s.ResTenure >= 0
}

// MutualExclusion: no two clients hold while both their own nodes exist.
func (sp *Spec) MutualExclusion(s *State) bool {
	for c := range s.PC {
		for d := range s.PC {
			if c != d && s.PC[c] == recipe.PCHold && s.PC[d] == recipe.PCHold && s.OwnNodeExists(c) && s.OwnNodeExists(d) {
				return false
			}
		}
	}
	return true
}

// NaiveExclusion: no two clients believe they hold. It holds under expiry
// (the loss timer fires first) and fails with pauses: the reason fencing
// exists.
func (sp *Spec) NaiveExclusion(s *State) bool {
	holders := 0
	for _, p := range s.PC {
		if p == recipe.PCHold {
			holders++
		}
	}
	return holders <= 1
}

// NoHerd: a node is watched by at most one waiting client, for its current
// request.
func (sp *Spec) NoHerd(s *State) bool {
	for i, w := range s.Watches {
		if i > 0 && s.Watches[i-1].Node == w.Node {
			continue
		}
		waiters := 0
		for c := range s.PC {
			if s.PC[c] == recipe.PCWait && s.hasWatch(Watch{Node: w.Node, Req: s.UuidOf(c)}) {
				waiters++
			}
		}
		if waiters > 1 {
			return false
		}
	}
	return true
}

func (s *State) hasWatch(w Watch) bool {
	for _, x := range s.Watches {
		if x == w {
			return true
		}
	}
	return false
}

// NoOrphans: every node of a session a client still uses belongs to its
// running request or has its delete pending (nodes of abandoned sessions go
// when the server expires them).
func (sp *Spec) NoOrphans(s *State) bool {
	for _, n := range s.Nodes {
		c := n.Owner.C
		if n.Owner != s.SessOf(c) {
			continue
		}
		if n.Uuid == s.UuidOf(c) && s.PC[c] != recipe.PCIdle {
			continue
		}
		if p, ok := s.PendingOf(n.Uuid); !ok || p.Sess != n.Owner {
			return false
		}
	}
	return true
}

// RequestParam maps i in 0..N*MaxRequests-1, the parameter of
// NoOrphansEventually, to the uuid it stands for, in TLC's order of
// Clients \X (1..MaxRequests).
func (sp *Spec) RequestParam(i int) Uuid { return Uuid{C: i / sp.MaxRequests, R: i%sp.MaxRequests + 1} }

// Orphaned is Orphaned(u) for u = RequestParam(i): the request has ended
// and a node carrying its uuid is still there (NoOrphansEventually's P).
func (sp *Spec) Orphaned(s *State, i int) bool {
	u := sp.RequestParam(i)
	ended := u != s.UuidOf(u.C) || s.PC[u.C] == recipe.PCIdle
	return ended && s.HasNodeOf(u)
}

// NoNodeOf is NoOrphansEventually's Q: no node carries the uuid of
// RequestParam(i).
func (sp *Spec) NoNodeOf(s *State, i int) bool { return !s.HasNodeOf(sp.RequestParam(i)) }

// GrantsInSequenceOrder: a holder whose node exists has the first node;
// since seqs only grow, grants follow sequence order.
func (sp *Spec) GrantsInSequenceOrder(s *State) bool {
	for c := range s.PC {
		if s.PC[c] == recipe.PCHold && s.OwnNodeExists(c) {
			for _, n := range s.Nodes {
				if s.Node[c] > n.Seq {
					return false
				}
			}
		}
	}
	return true
}

// KnownNodeExists: a client that knows its node and whose session is live
// has that node.
func (sp *Spec) KnownNodeExists(s *State) bool {
	for c := range s.PC {
		if s.PC[c].KnowsNode() && s.LiveC(c) && !s.OwnNodeExists(c) {
			return false
		}
	}
	return true
}

// TokensIncrease (action property): every grant's token exceeds the
// previous grant's (lastToken).
func (sp *Spec) TokensIncrease(s, t *State) bool {
	for c := range s.PC {
		if s.PC[c] != recipe.PCHold && t.PC[c] == recipe.PCHold && t.Token[c] <= s.LastToken {
			return false
		}
	}
	return true
}

// FencedSafety (action property): the resource never accepts a write from
// an older tenure after a newer one wrote.
func (sp *Spec) FencedSafety(s, t *State) bool { return t.ResTenure >= s.ResTenure }

// Acquiring is the left side of StarvationFree for client c:
// pc[c] \in Acquiring.
func (sp *Spec) Acquiring(s *State, c int) bool { return s.PC[c].Acquiring() }

// Holds is the right side of StarvationFree for client c: pc[c] = "hold".
func (sp *Spec) Holds(s *State, c int) bool { return s.PC[c] == recipe.PCHold }
