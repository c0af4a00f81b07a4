package timedelection

import (
	"slices"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/sessiontiming"
	"github.com/zklock/zklock/model/timedlock"
	"github.com/zklock/zklock/model/timing"
)

// actions is Next's disjuncts in order (spec: Next). The first sixteen
// are TimedLock's (TL!...) but SendRequest (H sends no heartbeat here), in
// its order: each leaves the election's variables unchanged (timing.Lift),
// except HCreate and HList, which add LockBudget, and LeaderReceive, which
// adds H's epoch and the landing of H's proclaim (timing.Extend). Then
// HProclaim and CProclaim.
func (sp *Spec) actions() timing.Actions[State] {
	lock := func(s *State) *timedlock.State { return &s.TL }
	more := map[string]func(s *State, arg int, t *State) model.Guard{
		"HCreate":       sp.lockBudget,
		"HList":         sp.lockBudget,
		"LeaderReceive": leaderReceive,
	}
	as := make(timing.Actions[State], 0, len(sp.TL.Actions)+2)
	for _, a := range sp.TL.Actions {
		if a.Name == "SendRequest" {
			continue
		}
		as = append(as, timing.Extend(a, lock, more[a.Name]))
	}
	plain := timing.Plain[State]
	return append(as,
		timing.Action[State]{Name: "HProclaim", Step: plain(sp.HProclaim)},
		timing.Action[State]{Name: "CProclaim", Step: plain(sp.CProclaim)})
}

// lockBudget is LockBudget, the conjunct HCreate and HList add to
// TimedLock's: H's last request is its proclaim's.
func (sp *Spec) lockBudget(s *State, _ int, _ *State) model.Guard {
	if len(s.TL.ST.Reqs) >= sp.MaxRequests-1 {
		return "LockBudget"
	}
	return model.Enabled
}

// leaderReceive is LeaderReceive past TL!LeaderReceive (the leader takes
// the head of the follower's stream): once H's create landed, H's epoch is
// its node's czxid; H's proclaim lands if H's node still exists (the
// multi's check), recorded with the head's epoch.
func leaderReceive(s *State, _ int, t *State) model.Guard {
	if e, ok := epochOf(t, timedlock.H); ok {
		t.HEpoch = e
	}
	if h := s.TL.ST.Stream[0]; h != sessiontiming.PingReply && s.TL.ST.Reqs[h-1].Kind == sessiontiming.Proclaim {
		if _, ok := epochOf(s, timedlock.H); ok {
			t.Proclaimed = withProclaimed(s.Proclaimed, Proclaimed{Epoch: s.HEpoch, Head: headEpoch(s)})
		}
	}
	return model.Enabled
}

// HProclaim: H, leading as it believes, sends its proclaim once (ST's
// SendRequest of kind Proclaim: the follower forwards it to the leader).
func (sp *Spec) HProclaim(s *State, t *State) model.Guard {
	switch {
	case s.TL.HPC != timedlock.HHeld:
		return `hpc = "held"`
	case hProclaimed(s):
		return "~HProclaimed"
	}
	*t = *s
	return sp.TL.ST.SendRequest(&s.TL.ST, sessiontiming.Proclaim, &t.TL.ST)
}

// CProclaim: C, leading, proclaims once, one step on the leader where its
// node exists: the check passes and the setData lands.
func (sp *Spec) CProclaim(s *State, t *State) model.Guard {
	if s.TL.CPC != timedlock.CHeld {
		return `cpc = "held"`
	}
	e, ok := epochOf(s, timedlock.C)
	switch {
	case !ok:
		return "TL!NodeOf(C) # {}"
	case slices.ContainsFunc(s.Proclaimed, func(p Proclaimed) bool { return p.Epoch == e }):
		return `\A p \in proclaimed : p.epoch # EpochOf(C)`
	}
	*t = *s
	t.Proclaimed = withProclaimed(s.Proclaimed, Proclaimed{Epoch: e, Head: headEpoch(s)})
	return model.Enabled
}
