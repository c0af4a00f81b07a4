package semaphore

import "github.com/zklock/zklock/model/zk"

// The properties, as methods named like the spec's (an invariant takes the
// state; a side of a leads-to the client it is about).

// AtMostMaxHolders: at most MaxLeases clients believe they hold a lease.
func (sp *Spec) AtMostMaxHolders(s *State) bool {
	n := 0
	for _, p := range s.PC {
		if p.HoldsLease() {
			n++
		}
	}
	return n <= sp.MaxLeases
}

// AtMostMaxFencedHolders: at most MaxLeases clients believe they hold a
// lease whose node still exists (those a resource that accepts a write
// only from a lease whose node exists would serve at once).
func (sp *Spec) AtMostMaxFencedHolders(s *State) bool {
	n := 0
	for c, p := range s.PC {
		if p.HoldsLease() && s.OwnLeaseExists(c) {
			n++
		}
	}
	return n <= sp.MaxLeases
}

// KnownLeaseExists: a client that knows its lease node and whose session
// is live has it.
func (s *State) KnownLeaseExists() bool {
	for c := range s.PC {
		if s.Node[c] != NoNode && s.LiveC(c) && !s.OwnLeaseExists(c) {
			return false
		}
	}
	return true
}

// NoLeakedLeases: every lease node of a session a client still uses is the
// node of its running acquisition, the one it knows (or looks for).
func (s *State) NoLeakedLeases() bool {
	for _, n := range s.Nodes {
		c := n.Owner.C
		if n.Owner != s.SessOf(c) {
			continue
		}
		if n.Uuid != s.UuidOf(c) || s.PC[c] == PCIdle || (s.Node[c] != NoNode && s.Node[c] != n.Seq) {
			return false
		}
	}
	return true
}

// woken: c has an event of its current acquisition not yet taken (spec: Woken(c)).
func (s *State) woken(c int) bool {
	for _, w := range s.Inbox[c] {
		if w.Req == s.UuidOf(c) {
			return true
		}
	}
	return false
}

// waiter: c waits on an armed child watch of its current acquisition that
// no event has woken yet (spec: c \in Waiters).
func (s *State) waiter(c int) bool {
	if s.PC[c] != PCWait || s.woken(c) {
		return false
	}
	w := Watch{Node: zk.Parent[zk.NoKind](), Req: s.UuidOf(c)}
	for _, x := range s.Watches {
		if x == w {
			return true
		}
	}
	return false
}

// NoHerd: a change of the leases wakes at most one acquirer.
func (s *State) NoHerd() bool {
	n := 0
	for c := range s.PC {
		if s.waiter(c) {
			n++
		}
	}
	return n <= 1
}

// WaiterHoldsInternal: the acquirer a change of the leases may wake holds
// the internal mutex.
func (s *State) WaiterHoldsInternal() bool {
	for c := range s.PC {
		if s.waiter(c) && s.Mutex != s.SessOf(c) {
			return false
		}
	}
	return true
}
