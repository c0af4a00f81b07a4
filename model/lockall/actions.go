package lockall

import "github.com/zklock/zklock/model"

// Action indices (model.Label.Action), in the order of ClientNext's
// disjuncts, then Terminated.
const (
	ActStart uint8 = iota
	ActEnqueue
	ActGrant
	ActAbandon
	ActPartFails
	ActLoseSession
	ActUnlock
	ActReleasePart
	ActReturn
	ActTerminated
	numActions
)

// ActionNames are the spec's names of the actions, by index.
var ActionNames = [numActions]string{"Start", "Enqueue", "Grant", "Abandon", "PartFails",
	"LoseSession", "Unlock", "ReleasePart", "Return", "Terminated"}

// with copies the per-client slices of s into t so that client c's
// entries can be written (the others stay shared).
func with(s *State, t *State) {
	*t = *s
	t.PC = append([]PC(nil), s.PC...)
	t.Reqs = append([]int(nil), s.Reqs...)
	t.Taken = append([][]int(nil), s.Taken...)
	t.Ended = append([]uint8(nil), s.Ended...)
}

// remove returns q without n (spec: Remove(q, n)).
func remove(q []Node, n Node) []Node {
	out := make([]Node, 0, len(q))
	for _, m := range q {
		if m != n {
			out = append(out, m)
		}
	}
	return out
}

// Start: the caller calls LockAll.
func (sp *Spec) Start(s *State, c int, t *State) model.Guard {
	switch {
	case s.PC[c] != Idle:
		return `pc[c] = "idle"`
	case s.Reqs[c] >= sp.MaxRequests:
		return "reqs[c] < MaxRequests"
	}
	with(s, t)
	t.PC[c] = Locking
	t.Reqs[c]++
	return model.Enabled
}

// Enqueue: Lock(part) creates our sequential node at the end of the
// pending part's queue (ZooKeeper recipes, "Locks", step 1).
func (sp *Spec) Enqueue(s *State, c int, t *State) model.Guard {
	if s.PC[c] != Locking {
		return `pc[c] = "locking"`
	}
	l := sp.Pending(s, c)
	if s.Queued(c, l) {
		return "~Queued(c, Pending(c))"
	}
	*t = *s
	t.Queue[l-1] = append(append(make([]Node, 0, len(s.Queue[l-1])+1), s.Queue[l-1]...), s.Node(c))
	return model.Enabled
}

// Grant: Lock(part) returns a lease, our node being first. After the last
// part LockAll returns the MultiLease, unless (rule Checked) a part taken
// earlier has ended: then it releases everything.
func (sp *Spec) Grant(s *State, c int, t *State) model.Guard {
	if s.PC[c] != Locking {
		return `pc[c] = "locking"`
	}
	l := sp.Pending(s, c)
	q := s.Queue[l-1]
	switch {
	case len(q) == 0:
		return "queue[Pending(c)] # <<>>"
	case q[0] != s.Node(c):
		return "Head(queue[Pending(c)]) = Node(c)"
	}
	with(s, t)
	t.Taken[c] = append(append(make([]int, 0, len(s.Taken[c])+1), s.Taken[c]...), l)
	switch {
	case len(s.Taken[c])+1 < len(sp.plans[c]):
		t.PC[c] = Locking
	case sp.LostPart == Checked && s.Ended[c] != 0:
		t.PC[c] = Releasing
	default:
		t.PC[c] = Holding
	}
	return model.Enabled
}

// failLock is the spec's FailLock(c): the pending Lock failed and its node
// is gone; LockAll releases what it took, or (ReleaseOnFailure = FALSE)
// returns the error keeping it.
func (sp *Spec) failLock(s *State, c int, t *State) {
	with(s, t)
	l := sp.Pending(s, c)
	t.Queue[l-1] = remove(s.Queue[l-1], s.Node(c))
	if sp.ReleaseOnFailure {
		t.PC[c] = Releasing
		return
	}
	t.PC[c], t.Taken[c], t.Ended[c] = Idle, nil, 0
}

// Abandon: rules Checked and Watched: a part taken earlier has ended,
// which cancels the pending Lock's context.
func (sp *Spec) Abandon(s *State, c int, t *State) model.Guard {
	switch {
	case sp.LostPart != Checked && sp.LostPart != Watched:
		return `LostPart \in {"checked", "watched"}`
	case s.PC[c] != Locking:
		return `pc[c] = "locking"`
	case s.Ended[c] == 0:
		return "ended[c] # {}"
	}
	sp.failLock(s, c, t)
	return model.Enabled
}

// PartFails: a fault: the pending Lock fails (the caller's context ends,
// or the part's session is lost).
func (sp *Spec) PartFails(s *State, c int, t *State) model.Guard {
	switch {
	case s.PC[c] != Locking:
		return `pc[c] = "locking"`
	case s.Faults >= sp.MaxFaults:
		return "faults < MaxFaults"
	}
	sp.failLock(s, c, t)
	t.Faults++
	return model.Enabled
}

// LoseSession: a fault: the session of lock l's part, which c holds, is
// lost: the lease ends and the node goes (ZooKeeper Programmer's Guide,
// "ZooKeeper Sessions": an expired session's ephemeral nodes are deleted).
func (sp *Spec) LoseSession(s *State, c, l int, t *State) model.Guard {
	switch {
	case s.PC[c] != Locking && s.PC[c] != Holding:
		return `pc[c] \in {"locking", "holding"}`
	case !s.Holds(c, l):
		return "Holds(c, l)"
	case s.Faults >= sp.MaxFaults:
		return "faults < MaxFaults"
	}
	with(s, t)
	t.Faults++
	t.Ended[c] |= 1 << (l - 1)
	t.Queue[l-1] = remove(s.Queue[l-1], s.Node(c))
	return model.Enabled
}

// Unlock: the caller calls MultiLease.Unlock.
func (sp *Spec) Unlock(s *State, c int, t *State) model.Guard {
	if s.PC[c] != Holding {
		return `pc[c] = "holding"`
	}
	with(s, t)
	t.PC[c] = Unlocking
	return model.Enabled
}

// ReleasePart: the part taken last is released: its node deleted if its
// session still has it.
func (sp *Spec) ReleasePart(s *State, c int, t *State) model.Guard {
	switch {
	case s.PC[c] != Releasing && s.PC[c] != Unlocking:
		return `pc[c] \in {"releasing", "unlocking"}`
	case len(s.Taken[c]) == 0:
		return "taken[c] # <<>>"
	}
	with(s, t)
	n := len(s.Taken[c])
	l := s.Taken[c][n-1]
	t.Queue[l-1] = remove(s.Queue[l-1], s.Node(c))
	t.Taken[c] = s.Taken[c][: n-1 : n-1]
	t.Ended[c] &^= 1 << (l - 1)
	return model.Enabled
}

// Return: every part released: LockAll returns its error, or Unlock
// returns.
func (sp *Spec) Return(s *State, c int, t *State) model.Guard {
	switch {
	case s.PC[c] != Releasing && s.PC[c] != Unlocking:
		return `pc[c] \in {"releasing", "unlocking"}`
	case len(s.Taken[c]) != 0:
		return "taken[c] = <<>>"
	}
	with(s, t)
	t.PC[c] = Idle
	return model.Enabled
}

// Terminated: every client made all its calls; the spec stutters.
func (sp *Spec) Terminated(s *State, t *State) model.Guard {
	for c := range s.PC {
		if s.PC[c] != Idle || s.Reqs[c] != sp.MaxRequests {
			return `\A c \in Clients : pc[c] = "idle" /\ reqs[c] = MaxRequests`
		}
	}
	*t = *s
	return model.Enabled
}
