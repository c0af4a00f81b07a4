package election

import "github.com/zklock/zklock/model/zk"

// TypeOK is Election's TypeOK: PredecessorLock's, and the module's own
// variables in their ranges.
func (sp *Spec) TypeOK(s *State) bool {
	if !sp.Spec.TypeOK(&s.State) || len(s.Value) != sp.MaxSeq {
		return false
	}
	for _, v := range s.Value {
		if v < 0 || v > sp.MaxProclaims {
			return false
		}
	}
	for _, r := range s.Proclaimed {
		if r.Epoch < 0 || r.Version < 1 || r.Version > sp.MaxProclaims {
			return false
		}
	}
	inRange := func(r Report) bool { return r.Epoch >= 0 && r.Version >= 0 && r.Version <= sp.MaxProclaims }
	for o := range sp.Observers {
		if int(s.OPC[o]) >= len(opcNames) || s.OHead[o] < zk.NoNode || s.OHead[o] > sp.MaxSeq || !seqsIn(s.ONext[o], sp.MaxSeq) ||
			s.OMark[o] < NoWatch || !inRange(s.Report[o]) || !inRange(s.Known[o]) {
			return false
		}
	}
	return true
}

// AtMostOneLeader is PredecessorLock's MutualExclusion: no two candidates
// lead while both their nodes stand.
func (sp *Spec) AtMostOneLeader(s *State) bool { return sp.MutualExclusion(&s.State) }

// ObservedIsHead: the last candidate each observer reported (its epoch
// is its node's czxid) is gone, or its node is the head of the queue.
func (sp *Spec) ObservedIsHead(s *State) bool {
	for _, k := range s.Known {
		if k == Vacancy {
			continue
		}
		for i, n := range s.Nodes { // sorted by seq: the head first
			if n.Czxid == k.Epoch && i > 0 {
				return false
			}
		}
	}
	return true
}

// ObservedEpochsIncrease (an action property): each new leader report of
// an observer is Newer than the last leader it reported.
func (sp *Spec) ObservedEpochsIncrease(s, t *State) bool {
	for o := range s.Report {
		if r := t.Report[o]; r != s.Report[o] && r != Vacancy && !newer(r, s.Known[o]) {
			return false
		}
	}
	return true
}

// Lost is Lost(o): observer o's session is lost.
func (s *State) Lost(o int) bool { return s.OPC[o] == OLost }

// Misreports is the left side of ObserversLearn for observer o: it is
// live and its last report is not who leads now.
func (sp *Spec) Misreports(s *State, o int) bool { return s.Report[o] != sp.Truth(s) && !s.Lost(o) }

// Learned is the right side of ObserversLearn: its report is who leads,
// or its session is lost.
func (sp *Spec) Learned(s *State, o int) bool { return s.Report[o] == sp.Truth(s) || s.Lost(o) }

// MisreportsEvenLost and LearnedEvenLost are ObserversLearnEvenLost's
// sides: ObserversLearn's without the guard, for every observer.
func (sp *Spec) MisreportsEvenLost(s *State, o int) bool { return s.Report[o] != sp.Truth(s) }

// LearnedEvenLost: see MisreportsEvenLost.
func (sp *Spec) LearnedEvenLost(s *State, o int) bool { return s.Report[o] == sp.Truth(s) }

// seqsIn: every seq of qs is in 0..max.
func seqsIn(qs []int, max int) bool {
	for _, q := range qs {
		if q < 0 || q > max {
			return false
		}
	}
	return true
}
