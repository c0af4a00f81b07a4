package sessionclock

import (
	"slices"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/timing"
)

// Action indices (model.Label.Action), in the order of Next's disjuncts.
const (
	ActTick uint8 = iota
	ActSuspend
	ActSendSync
	ActSendReattach
	ActLeaderTouch
	ActAckReply
	ActLeaderChange
	ActExpireSession
	numActions
)

// actions is Next's disjuncts in order; SendReattach over Timeouts in
// increasing order (the model tries min..max: the others are disabled).
func (sp *Spec) actions() timing.Actions[State] {
	plain := timing.Plain[State]
	as := [numActions]timing.Action[State]{
		ActTick:     {Name: "Tick", Step: plain(sp.Tick)},
		ActSuspend:  {Name: "Suspend", Step: plain(sp.Suspend)},
		ActSendSync: {Name: "SendSync", Step: plain(sp.SendSync)},
		ActSendReattach: {Name: "SendReattach", Params: func(*State) (int, int) {
			if len(sp.Timeouts) == 0 {
				return 1, 0
			}
			return sp.Timeouts[0], sp.Timeouts[len(sp.Timeouts)-1]
		}, Step: sp.SendReattach},
		ActLeaderTouch:   {Name: "LeaderTouch", Step: plain(sp.LeaderTouch)},
		ActAckReply:      {Name: "AckReply", Step: plain(sp.AckReply)},
		ActLeaderChange:  {Name: "LeaderChange", Step: plain(sp.LeaderChange)},
		ActExpireSession: {Name: "ExpireSession", Step: plain(sp.ExpireSession)},
	}
	return as[:]
}

// Tick: a tick passes while the client runs; both clocks count it.
func (sp *Spec) Tick(s *State, t *State) model.Guard {
	switch {
	case s.Now >= sp.MaxTime:
		return "now < MaxTime"
	case !sp.Paced(s):
		return "Paced"
	}
	*t = *s
	t.Now, t.CNow = s.Now+1, s.CNow+1
	return model.Enabled
}

// Suspend: a tick passes while the client's machine is suspended; its
// clock counts it only if it is CLOCK_BOOTTIME.
func (sp *Spec) Suspend(s *State, t *State) model.Guard {
	switch {
	case s.Now >= sp.MaxTime:
		return "now < MaxTime"
	case s.Suspended >= sp.MaxSuspend:
		return "suspended < MaxSuspend"
	case !sp.Paced(s):
		return "Paced"
	}
	*t = *s
	t.Now = s.Now + 1
	if sp.Clock == Boottime {
		t.CNow = s.CNow + 1
	}
	t.Suspended = s.Suspended + 1
	return model.Enabled
}

// SendSync: the client sends the heartbeat's sync while it believes.
func (sp *Spec) SendSync(s *State, t *State) model.Guard {
	switch {
	case s.Req.Kind != None:
		return `req.kind = "none"`
	case !sp.HBelieves(s):
		return "HBelieves"
	}
	*t = *s
	t.Req = Req{Kind: Sync, Sent: s.CNow}
	return model.Enabled
}

// SendReattach: the connection drops and the client reattaches to a
// server that negotiates the timeout to (a sync in flight is lost).
func (sp *Spec) SendReattach(s *State, to int, t *State) model.Guard {
	switch {
	case !slices.Contains(sp.Timeouts, to):
		return "t \\in Timeouts"
	case s.Reattaches >= sp.MaxReattaches:
		return "reattaches < MaxReattaches"
	case !sp.HBelieves(s):
		return "HBelieves"
	case !sp.Shorter && to < s.Least:
		return "Shorter \\/ t >= least"
	}
	*t = *s
	t.Reattaches = s.Reattaches + 1
	t.Req = Req{Kind: Reattach, Sent: s.CNow, T: to}
	return model.Enabled
}

// LeaderTouch: the leader touches the live session for the request in
// flight, with the timeout of the server it came through.
func (sp *Spec) LeaderTouch(s *State, t *State) model.Guard {
	switch {
	case s.Req.Kind == None:
		return `req.kind # "none"`
	case s.Req.Touched:
		return "~req.touched"
	case s.Expired:
		return "~expired"
	}
	*t = *s
	t.LastTouch = s.Now
	t.Armed = s.Cur
	if s.Req.Kind == Reattach {
		t.Armed = s.Req.T
	}
	t.Req.Touched = true
	return model.Enabled
}

// AckReply: the reply to the request in flight arrives while the client
// believes; its send time is proven, a reattach's timeout is the
// connection's now.
func (sp *Spec) AckReply(s *State, t *State) model.Guard {
	switch {
	case !s.Req.Touched:
		return "req.touched"
	case !sp.HBelieves(s):
		return "HBelieves"
	}
	*t = *s
	t.Base = max(s.Base, s.Req.Sent)
	if s.Req.Kind == Reattach {
		t.Cur, t.Least = s.Req.T, min(s.Least, s.Req.T)
	}
	t.Req = Req{}
	return model.Enabled
}

// LeaderChange: a new leader re-arms the session with createSession's
// timeout, from its start.
func (sp *Spec) LeaderChange(s *State, t *State) model.Guard {
	switch {
	case s.Elects >= sp.MaxLeaderChanges:
		return "elections < MaxLeaderChanges"
	case s.Expired:
		return "~expired"
	}
	*t = *s
	t.Elects = s.Elects + 1
	t.Armed, t.LastTouch = sp.Created, s.Now
	return model.Enabled
}

// ExpireSession: the leader's session tracker expires the session.
func (sp *Spec) ExpireSession(s *State, t *State) model.Guard {
	switch {
	case s.Expired:
		return "~expired"
	case s.Now < s.LastTouch+s.Armed:
		return "now >= lastTouch + armed"
	}
	*t = *s
	t.Expired = true
	return model.Enabled
}
