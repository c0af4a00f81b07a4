package timedlock

import (
	"fmt"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/sessiontiming"
	"github.com/zklock/zklock/model/timing"
	"github.com/zklock/zklock/model/zk"
)

// actions is Next's disjuncts in order (spec: Next). The first eight are
// SessionTiming's (ST!...), in its order: Tick, CutLink, HealLink and
// SendRequest(k) leave the nodes and the clients unchanged; ReceiveRequest(i),
// AckReply(i), LeaderReceive and ExpireSession add the conjuncts below.
func (sp *Spec) actions() timing.Actions[State] {
	st := sp.ST.Actions
	time := func(s *State) *sessiontiming.State { return &s.ST }
	plain := timing.Plain[State]
	return timing.Actions[State]{
		timing.Lift(st[sessiontiming.ActTick], time),
		timing.Lift(st[sessiontiming.ActCutLink], time),
		timing.Lift(st[sessiontiming.ActHealLink], time),
		timing.Lift(st[sessiontiming.ActSendRequest], time),
		timing.Extend(st[sessiontiming.ActReceiveRequest], time, receiveRequest),
		timing.Extend(st[sessiontiming.ActAckReply], time, ackReply),
		timing.Extend(st[sessiontiming.ActLeaderReceive], time, plain(leaderReceive)),
		timing.Extend(st[sessiontiming.ActExpireSession], time, plain(expireSession)),
		{Name: "HCreate", Step: plain(sp.HCreate)},
		{Name: "HList", Step: plain(sp.HList)},
		{Name: "HGrant", Step: plain(sp.HGrant)},
		{Name: "HBehind", Step: plain(sp.HBehind)},
		{Name: "HGone", Step: plain(sp.HGone)},
		{Name: "HRelease", Step: plain(sp.HRelease)},
		{Name: "CCreate", Step: plain(sp.CCreate)},
		{Name: "CGrant", Step: plain(sp.CGrant)},
		{Name: "CRelease", Step: plain(sp.CRelease)},
	}
}

// receiveRequest is ReceiveRequest(i) past ST!ReceiveRequest(i) (the
// follower receives H's request i): if it is H's listing, the answer is
// the children as they are now.
func receiveRequest(s *State, i int, t *State) model.Guard {
	if i == s.HReq && s.HPC == HListing {
		switch _, ok := NodeOf(s, H); {
		case !ok:
			t.HSaw = SawGone
		case First(s, H):
			t.HSaw = SawFirst
		default:
			t.HSaw = SawBehind
		}
	}
	return model.Enabled
}

// leaderReceive is LeaderReceive past ST!LeaderReceive (the leader takes
// the head of the follower's stream): H's create creates H's node if its
// session is live.
func leaderReceive(s *State, t *State) model.Guard {
	if h := s.ST.Stream[0]; h != sessiontiming.PingReply && s.ST.Reqs[h-1].Kind == sessiontiming.Create && s.ZK.IsLive(hSess) {
		if !s.ZK.CanCreate(MaxSeq) {
			return zk.GSeq
		}
		s.ZK.CreateNode(&t.ZK, zk.NoKind{}, hSess, hUuid)
	}
	return model.Enabled
}

// ackReply is AckReply(i) past ST!AckReply(i) (the reply to H's request i
// arrives): the create's moves H to its listing, the listing's to its
// grant step.
func ackReply(s *State, i int, t *State) model.Guard {
	switch {
	case i == s.HReq && s.HPC == HCreating:
		t.HPC = HList
	case i == s.HReq && s.HPC == HListing:
		t.HPC = HGranting
	}
	return model.Enabled
}

// expireSession is ExpireSession past ST!ExpireSession (the leader expires
// H's session when its clock runs out, no guard on H's belief):
// closeSession deletes H's node.
func expireSession(s *State, t *State) model.Guard {
	if !s.ZK.IsLive(hSess) {
		return `s \in live`
	}
	s.ZK.ExpireSession(&t.ZK, hSess, true)
	return model.Enabled
}

// sendLock is H sending a lock call of kind k from step from: the request
// is SessionTiming's SendRequest, and H waits for its reply in step to.
func (sp *Spec) sendLock(s *State, from, to HPC, k sessiontiming.Kind, t *State) model.Guard {
	if s.HPC != from {
		return model.Guard(fmt.Sprintf("hpc = %q", from.String()))
	}
	*t = *s
	if g := sp.ST.SendRequest(&s.ST, k, &t.ST); g != model.Enabled {
		return g
	}
	t.HPC, t.HReq = to, len(s.ST.Reqs)+1
	return model.Enabled
}

// HCreate: H sends its create.
func (sp *Spec) HCreate(s *State, t *State) model.Guard {
	return sp.sendLock(s, HIdle, HCreating, sessiontiming.Create, t)
}

// HList: H sends its listing.
func (sp *Spec) HList(s *State, t *State) model.Guard {
	if g := sp.sendLock(s, HList, HListing, sessiontiming.Read, t); g != model.Enabled {
		return g
	}
	t.HSaw = SawNone
	return model.Enabled
}

// decide is H's step from its grant step on the answer saw.
func decide(s *State, saw Saw, to HPC, t *State) model.Guard {
	switch {
	case s.HPC != HGranting:
		return `hpc = "grant"`
	case s.HSaw != saw:
		return model.Guard(fmt.Sprintf("hsaw = %q", saw.String()))
	}
	*t = *s
	t.HPC = to
	return model.Enabled
}

// HGrant: the grant, a local step; the checked rule requires H's loss
// deadline not passed.
func (sp *Spec) HGrant(s *State, t *State) model.Guard {
	believes := sp.ST.HBelieves(&s.ST)
	if sp.GrantRule == Checked && !believes {
		if s.HPC != HGranting {
			return `hpc = "grant"`
		}
		return `GrantRule = "checked" => ST!HBelieves`
	}
	if g := decide(s, SawFirst, HHeld, t); g != model.Enabled {
		return g
	}
	t.GrantLate = !believes
	return model.Enabled
}

// HBehind: the listing showed H behind C; H lists again.
func (sp *Spec) HBehind(s *State, t *State) model.Guard { return decide(s, SawBehind, HList, t) }

// HGone: the listing did not show H's node; the lock is lost.
func (sp *Spec) HGone(s *State, t *State) model.Guard { return decide(s, SawGone, HDone, t) }

// HRelease: H releases; its node (if any) is deleted at the leader.
func (sp *Spec) HRelease(s *State, t *State) model.Guard {
	if s.HPC != HHeld {
		return `hpc = "held"`
	}
	*t = *s
	t.HPC = HDone
	s.ZK.DeleteNodes(&t.ZK, nodesOf(s, H))
	return model.Enabled
}

// CCreate: C creates its node at the leader.
func (sp *Spec) CCreate(s *State, t *State) model.Guard {
	switch {
	case s.CPC != CIdle:
		return `cpc = "idle"`
	case !s.ZK.CanCreate(MaxSeq):
		return zk.GSeq
	}
	*t = *s
	t.CPC = CWait
	s.ZK.CreateNode(&t.ZK, zk.NoKind{}, cSess, cUuid)
	return model.Enabled
}

// CGrant: C lists and, first, holds.
func (sp *Spec) CGrant(s *State, t *State) model.Guard {
	switch {
	case s.CPC != CWait:
		return `cpc = "wait"`
	case !First(s, C):
		return "First(C)"
	}
	*t = *s
	t.CPC, t.ST.Granted = CHeld, true
	return model.Enabled
}

// CRelease: C releases; its node is deleted.
func (sp *Spec) CRelease(s *State, t *State) model.Guard {
	if s.CPC != CHeld {
		return `cpc = "held"`
	}
	*t = *s
	t.CPC, t.ST.Granted = CDone, false
	s.ZK.DeleteNodes(&t.ZK, nodesOf(s, C))
	return model.Enabled
}
