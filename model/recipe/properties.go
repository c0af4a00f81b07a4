package recipe

import "github.com/zklock/zklock/model/zk"

// The properties both modules state alike, as methods of State named like
// the property (an invariant takes no argument, a side of a leads-to the
// client or request it is about).

// NoHerd: a node is watched by at most one waiting client counted by
// counts (nil: every client; SharedLock counts writers only: readers may
// share a watch on the writer they wait for), for its current request.
func (s *State[K]) NoHerd(counts func(c int) bool) bool {
	for i, w := range s.Watches {
		if i > 0 && s.Watches[i-1].Node == w.Node {
			continue
		}
		waiters := 0
		for c := range s.PC {
			if s.PC[c] == PCWait && (counts == nil || counts(c)) && s.hasWatch(zk.Watch[K]{Node: w.Node, Req: s.UuidOf(c)}) {
				waiters++
			}
		}
		if waiters > 1 {
			return false
		}
	}
	return true
}

func (s *State[K]) hasWatch(w zk.Watch[K]) bool {
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
func (s *State[K]) NoOrphans() bool {
	return s.NoOrphansExcept(func(zk.Node[K]) bool { return false })
}

// NoOrphansExcept is NoOrphans where a node for which kept holds is no
// orphan either: the stale-read specs' StaleNoOrphans, kept being
// ZooKeeperReplicas' DeleteQueued (a duplicate whose delete is queued).
func (s *State[K]) NoOrphansExcept(kept func(zk.Node[K]) bool) bool {
	for _, n := range s.Nodes {
		c := n.Owner.C
		if n.Owner != s.SessOf(c) || kept(n) {
			continue
		}
		if n.Uuid == s.UuidOf(c) && s.PC[c] != PCIdle {
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
func (k *Constants) RequestParam(i int) zk.Uuid {
	return zk.Uuid{C: i / k.MaxRequests, R: i%k.MaxRequests + 1}
}

// Orphaned is Orphaned(u): request u has ended and a node carrying its
// uuid is still there (NoOrphansEventually's P).
func (s *State[K]) Orphaned(u zk.Uuid) bool {
	ended := u != s.UuidOf(u.C) || s.PC[u.C] == PCIdle
	return ended && s.HasNodeOf(u)
}

// NoNodeOf is NoOrphansEventually's Q: no node carries u's uuid.
func (s *State[K]) NoNodeOf(u zk.Uuid) bool { return !s.HasNodeOf(u) }

// Acquiring is the left side of StarvationFree for client c:
// pc[c] \in Acquiring.
func (s *State[K]) Acquiring(c int) bool { return s.PC[c].Acquiring() }

// Holds is the right side of StarvationFree for client c: pc[c] = "hold".
func (s *State[K]) Holds(c int) bool { return s.PC[c] == PCHold }

// Ended is the right side of RequestsEnd for client c: the request was
// granted or has ended, pc[c] \in {"hold", "idle"}.
func (s *State[K]) Ended(c int) bool { return s.PC[c] == PCHold || s.PC[c] == PCIdle }

// KnownNodeExists: a client that knows its node and whose session is live
// has that node (OwnNodeOf(c, kinds)).
func (s *State[K]) KnownNodeExists(kinds []K) bool {
	for c := range s.PC {
		if s.PC[c].KnowsNode() && s.LiveC(c) && !s.OwnNodeOf(c, kinds) {
			return false
		}
	}
	return true
}
