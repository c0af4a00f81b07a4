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

// NoHerd: a node is watched, for their current requests, by at most one
// waiting client other than as its second (as its predecessor; in the herd
// mutant, the parent) and by at most one as its second: at most two in all.
// A waiter with an event of its current request not yet taken (Woken) is
// not counted: it will list again.
func (sp *Spec) NoHerd(s *State) bool {
	for i, w := range s.Watches {
		if i > 0 && s.Watches[i-1].Node == w.Node {
			continue
		}
		pred, second := 0, 0
		for c := range s.PC {
			if s.PC[c] != recipe.PCWait || woken(s, c) || !hasWatch(s, Watch{Node: w.Node, Req: s.UuidOf(c)}) {
				continue
			}
			if w.Node.Seq == s.Second[c] {
				second++
			} else {
				pred++
			}
		}
		if pred > 1 || second > 1 {
			return false
		}
	}
	return true
}

// woken is Woken(c): an event of c's current request is in its inbox.
func woken(s *State, c int) bool {
	for _, e := range s.Inbox[c] {
		if e.Req == s.UuidOf(c) {
			return true
		}
	}
	return false
}

func hasWatch(s *State, w Watch) bool {
	for _, x := range s.Watches {
		if x == w {
			return true
		}
	}
	return false
}

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
func (sp *Spec) KnownNodeExists(s *State) bool { return s.State.KnownNodeExists(nil) }

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
