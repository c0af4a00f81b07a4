package lockall

// TypeOK is the spec's TypeOK.
func (sp *Spec) TypeOK(s *State) bool {
	for _, q := range s.Queue {
		for _, n := range q {
			if n.C < 0 || n.C >= sp.N() || n.R < 1 || n.R > sp.MaxRequests {
				return false
			}
		}
	}
	for c := range s.PC {
		if s.PC[c] > Unlocking || s.Reqs[c] < 0 || s.Reqs[c] > sp.MaxRequests || len(s.Taken[c]) > len(sp.plans[c]) {
			return false
		}
		var taken uint8
		for _, l := range s.Taken[c] {
			if l < 1 || l > NumLocks {
				return false
			}
			taken |= 1 << (l - 1)
		}
		if s.Ended[c]&^taken != 0 {
			return false
		}
	}
	return 0 <= s.Faults && s.Faults <= sp.MaxFaults
}

// MutualExclusion: no lock has two holders.
func (sp *Spec) MutualExclusion(s *State) bool {
	for l := 1; l <= NumLocks; l++ {
		holders := 0
		for c := range s.PC {
			if s.Holds(c, l) {
				holders++
			}
		}
		if holders > 1 {
			return false
		}
	}
	return true
}

// NoOrphans: every node in a queue is a part its client holds, or the part
// its LockAll is waiting for.
func (sp *Spec) NoOrphans(s *State) bool {
	for i, q := range s.Queue {
		l := i + 1
		for _, n := range q {
			c := n.C
			if n != s.Node(c) {
				return false
			}
			if !s.Holds(c, l) && !(s.PC[c] == Locking && l == sp.Pending(s, c)) {
				return false
			}
		}
	}
	return true
}

// AllOrNothing is the action property: LockAll returns a MultiLease only
// when every part holds; a failed LockAll returns holding nothing and
// leaving no node.
func (sp *Spec) AllOrNothing(s, t *State) bool {
	for c := range s.PC {
		if s.PC[c] == Locking && t.PC[c] == Holding {
			for _, l := range sp.Wants(c) {
				if !t.Holds(c, l) {
					return false
				}
			}
		}
		if (s.PC[c] == Locking || s.PC[c] == Releasing) && t.PC[c] == Idle {
			for l := 1; l <= NumLocks; l++ {
				if t.Holds(c, l) || t.Queued(c, l) {
					return false
				}
			}
		}
	}
	return true
}

// InLockAll is the spec's InLockAll(c): c's LockAll call has not
// returned.
func (s *State) InLockAll(c int) bool { return s.PC[c] == Locking || s.PC[c] == Releasing }
