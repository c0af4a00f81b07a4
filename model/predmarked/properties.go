package predmarked

import (
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/recipe"
)

// The module's own properties, each a method named like the property;
// PredecessorLock's are predlock's, on the embedded state.

// MTypeOK: every variable has its type, an event's name possibly a
// Changed(s) (PredecessorLock's TypeOK, whose event names have none, runs
// on the state without those events), and the marker's variables theirs.
func (sp *Spec) MTypeOK(s *State) bool {
	inner := s.State
	inner.Inbox = make([][]predlock.Watch, len(s.Inbox))
	for c, q := range s.Inbox {
		for _, e := range q {
			if x := Changed(e.Node.Seq); e.Node.Seq <= Changed(0) {
				if x < 0 || x > sp.MaxSeq {
					return false
				}
				continue
			}
			inner.Inbox[c] = append(inner.Inbox[c], e)
		}
	}
	if !sp.Spec.TypeOK(&inner) || len(s.Seen) != sp.N() || len(s.HoldStep) != sp.N() {
		return false
	}
	for _, m := range s.Marks {
		if m < 0 || m > sp.MaxSeq {
			return false
		}
	}
	for c := range s.Seen {
		if s.Seen[c] > SeenMark || s.HoldStep[c] > HoldOwn {
			return false
		}
	}
	return true
}

// MarkIsHead: only the head of the queue carries a mark: every node
// before an existing marked node is gone.
func (sp *Spec) MarkIsHead(s *State) bool {
	for _, m := range s.Marks {
		if s.HasSeq(m) && len(s.Nodes) > 0 && s.Nodes[0].Seq < m {
			return false
		}
	}
	return true
}

// MarkedTargetIsHead: a marking waiter that read a mark on its existing
// target, on a live session, has exactly its target before its own node.
func (sp *Spec) MarkedTargetIsHead(s *State) bool {
	for c := range s.PC {
		if !sp.Marking(c) || s.PC[c] != recipe.PCWait || s.Seen[c] != SeenMark || !s.LiveC(c) ||
			!s.NodeExists(s.Target[c]) {
			continue
		}
		for _, n := range s.Nodes {
			if n.Seq < s.Node[c] && n.Seq != s.Target[c].Seq {
				return false
			}
		}
	}
	return true
}

// OwnWriteSilent: no client has its own node's NodeDataChanged event of
// its current request queued: the holder's own-node watch is armed after
// the mark.
func (sp *Spec) OwnWriteSilent(s *State) bool {
	for c, q := range s.Inbox {
		own := event(Changed(s.Node[c]), s.UuidOf(c))
		for _, e := range q {
			if e == own {
				return false
			}
		}
	}
	return true
}

// OneWatcher: a node is watched by one waiter at most (Watchers(t), as
// PredecessorLock's NoHerd counts them, without the second's exception).
func (sp *Spec) OneWatcher(s *State) bool {
	for i, w := range s.Watches {
		if i > 0 && s.Watches[i-1].Node == w.Node {
			continue
		}
		n := 0
		for c := range s.PC {
			if s.PC[c] == recipe.PCWait && !woken(s, c) && watches(s, predlock.Watch{Node: w.Node, Req: s.UuidOf(c)}) {
				n++
			}
		}
		if n > 1 {
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

// watches reports whether w is armed.
func watches(s *State, w predlock.Watch) bool {
	for _, x := range s.Watches {
		if x == w {
			return true
		}
	}
	return false
}

// Invariants is the module's table of state invariants, by name: its own
// and PredecessorLock's on the embedded state.
func (sp *Spec) Invariants() map[string]func(*State) bool {
	in := func(f func(*predlock.State) bool) func(*State) bool {
		return func(s *State) bool { return f(&s.State) }
	}
	return map[string]func(*State) bool{
		"MTypeOK": sp.MTypeOK, "MarkIsHead": sp.MarkIsHead, "MarkedTargetIsHead": sp.MarkedTargetIsHead,
		"OwnWriteSilent": sp.OwnWriteSilent, "OneWatcher": sp.OneWatcher,
		"MutualExclusion":       in(sp.MutualExclusion),
		"NaiveExclusion":        in(sp.NaiveExclusion),
		"NoHerd":                in(sp.NoHerd),
		"NoOrphans":             in((*predlock.State).NoOrphans),
		"GrantsInSequenceOrder": in(sp.GrantsInSequenceOrder),
		"KnownNodeExists":       in(sp.KnownNodeExists),
	}
}

// ActionProperties is the module's table of action properties, by name:
// PredecessorLock's on the embedded state.
func (sp *Spec) ActionProperties() map[string]func(s, t *State) bool {
	return map[string]func(s, t *State) bool{
		"TokensIncrease": func(s, t *State) bool { return sp.TokensIncrease(&s.State, &t.State) },
		"FencedSafety":   func(s, t *State) bool { return sp.FencedSafety(&s.State, &t.State) },
	}
}
