package timedlock

import (
	"fmt"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/sessiontiming"
	"github.com/zklock/zklock/model/zk"
)

// Action indices (model.Label.Action), in the order of Next's disjuncts.
const (
	ActTick uint8 = iota
	ActCutLink
	ActHealLink
	ActSendRequest
	ActReceiveRequest
	ActAckReply
	ActLeaderReceive
	ActExpireSession
	ActHCreate
	ActHList
	ActHGrant
	ActHBehind
	ActHGone
	ActHRelease
	ActCCreate
	ActCGrant
	ActCRelease
	numActions
)

// ActionNames are the spec's names of the actions, by index.
var ActionNames = [numActions]string{"Tick", "CutLink", "HealLink", "SendRequest", "ReceiveRequest", "AckReply",
	"LeaderReceive", "ExpireSession", "HCreate", "HList", "HGrant", "HBehind", "HGone", "HRelease",
	"CCreate", "CGrant", "CRelease"}

// timing applies SessionTiming's action f to s's time, the rest of s
// unchanged (Tick, CutLink, HealLink, SendRequest: UNCHANGED the nodes and
// the clients).
func timing(s, t *State, f func(*sessiontiming.State, *sessiontiming.State) model.Guard) model.Guard {
	*t = *s
	return f(&s.ST, &t.ST)
}

// ReceiveRequest: the follower receives H's request i (SessionTiming's);
// if it is H's listing, the answer is the children as they are now.
func (sp *Spec) ReceiveRequest(s *State, i int, t *State) model.Guard {
	*t = *s
	if g := sp.ST.ReceiveRequest(&s.ST, i, &t.ST); g != model.Enabled {
		return g
	}
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

// LeaderReceive: the leader takes the head of the follower's stream
// (SessionTiming's); H's create creates H's node if its session is live.
func (sp *Spec) LeaderReceive(s *State, t *State) model.Guard {
	*t = *s
	if g := sp.ST.LeaderReceive(&s.ST, &t.ST); g != model.Enabled {
		return g
	}
	if h := s.ST.Stream[0]; h != sessiontiming.PingReply && s.ST.Reqs[h-1].Kind == sessiontiming.Create && s.ZK.IsLive(hSess) {
		if !s.ZK.CanCreate(MaxSeq) {
			return zk.GSeq
		}
		s.ZK.CreateNode(&t.ZK, zk.NoKind{}, hSess, hUuid)
	}
	return model.Enabled
}

// AckReply: the reply to H's request i arrives (SessionTiming's); the
// create's moves H to its listing, the listing's to its grant step.
func (sp *Spec) AckReply(s *State, i int, t *State) model.Guard {
	*t = *s
	if g := sp.ST.AckReply(&s.ST, i, &t.ST); g != model.Enabled {
		return g
	}
	switch {
	case i == s.HReq && s.HPC == HCreating:
		t.HPC = HList
	case i == s.HReq && s.HPC == HListing:
		t.HPC = HGranting
	}
	return model.Enabled
}

// ExpireSession: the leader expires H's session when its clock runs out
// (SessionTiming's, no guard on H's belief); closeSession deletes H's node.
func (sp *Spec) ExpireSession(s *State, t *State) model.Guard {
	*t = *s
	if g := sp.ST.ExpireSession(&s.ST, &t.ST); g != model.Enabled {
		return g
	}
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

// Step applies the action instance l to s, writing the successor into t.
func (sp *Spec) Step(s *State, l model.Label, t *State) model.Guard {
	switch l.Action {
	case ActTick:
		return timing(s, t, sp.ST.Tick)
	case ActCutLink:
		return timing(s, t, sp.ST.CutLink)
	case ActHealLink:
		return timing(s, t, sp.ST.HealLink)
	case ActSendRequest:
		return timing(s, t, func(a, b *sessiontiming.State) model.Guard {
			return sp.ST.SendRequest(a, sessiontiming.Kind(l.Arg), b)
		})
	case ActReceiveRequest:
		return sp.ReceiveRequest(s, int(l.Arg), t)
	case ActAckReply:
		return sp.AckReply(s, int(l.Arg), t)
	case ActLeaderReceive:
		return sp.LeaderReceive(s, t)
	case ActExpireSession:
		return sp.ExpireSession(s, t)
	}
	return sp.lockStep(s, l, t)
}

// lockStep applies the clients' lock steps.
func (sp *Spec) lockStep(s *State, l model.Label, t *State) model.Guard {
	switch l.Action {
	case ActHCreate:
		return sp.HCreate(s, t)
	case ActHList:
		return sp.HList(s, t)
	case ActHGrant:
		return sp.HGrant(s, t)
	case ActHBehind:
		return sp.HBehind(s, t)
	case ActHGone:
		return sp.HGone(s, t)
	case ActHRelease:
		return sp.HRelease(s, t)
	case ActCCreate:
		return sp.CCreate(s, t)
	case ActCGrant:
		return sp.CGrant(s, t)
	case ActCRelease:
		return sp.CRelease(s, t)
	}
	return "unknown action"
}

// Next calls emit with every successor of s in TLC's order: Next's
// disjuncts in order, SendRequest's kinds in Kinds order, the requests'
// indices increasing.
func (sp *Spec) Next(s *State, emit func(model.Label, *State)) {
	var t State
	try := func(a uint8, i int) {
		l := model.Label{Action: a, Client: -1, Arg: int16(i)}
		if sp.Step(s, l, &t) == model.Enabled {
			emit(l, &t)
		}
	}
	for _, a := range []uint8{ActTick, ActCutLink, ActHealLink} {
		try(a, 0)
	}
	for _, k := range sessiontiming.Kinds {
		try(ActSendRequest, int(k))
	}
	for _, a := range []uint8{ActReceiveRequest, ActAckReply} {
		for i := 1; i <= len(s.ST.Reqs); i++ {
			try(a, i)
		}
	}
	for a := ActLeaderReceive; a < numActions; a++ {
		try(a, 0)
	}
}

// ActionName returns the spec name of l's action.
func ActionName(l model.Label) string {
	if int(l.Action) < len(ActionNames) {
		return ActionNames[l.Action]
	}
	return "?"
}

// LabelString renders l with its parameter, e.g. "AckReply(2)".
func (sp *Spec) LabelString(l model.Label) string {
	switch l.Action {
	case ActSendRequest:
		return fmt.Sprintf("%s(%q)", ActionName(l), sessiontiming.Kind(l.Arg).String())
	case ActReceiveRequest, ActAckReply:
		return fmt.Sprintf("%s(%d)", ActionName(l), l.Arg)
	}
	return ActionName(l)
}
