package sessiontiming

import (
	"fmt"

	"github.com/zklock/zklock/model"
)

// Action indices (model.Label.Action), in the order of Next's disjuncts.
const (
	ActTick uint8 = iota
	ActCutLink
	ActHealLink
	ActSendRequest
	ActReceiveRequest
	ActAckReply
	ActExpireSession
	ActGrantContender
	numActions
)

// ActionNames are the spec's names of the actions, by index.
var ActionNames = [numActions]string{"Tick", "CutLink", "HealLink", "SendRequest",
	"ReceiveRequest", "AckReply", "ExpireSession", "GrantContender"}

// Tick: the clock advances; at the new tick the leader pings the follower
// if the link is up and the follower still serves (Learner: a packet
// within syncLimit), and the ping's reply carries the follower's touches,
// which restart the session's expiry clock at the leader.
func (sp *Spec) Tick(s *State, t *State) model.Guard {
	if s.Now >= sp.MaxTime {
		return "now < MaxTime"
	}
	*t = *s
	t.Now = s.Now + 1
	if s.Link && s.Now+1 <= s.Heard+sp.SyncLimit {
		t.Heard = s.Now + 1
		if s.Touched {
			t.LastTouch = s.Now + 1
		}
		t.Touched = false
	}
	return model.Enabled
}

// CutLink: a fault cuts the follower-leader link, both directions.
func (sp *Spec) CutLink(s *State, t *State) model.Guard {
	switch {
	case !s.Link:
		return "link"
	case s.Faults >= sp.MaxFaults:
		return "faults < MaxFaults"
	}
	*t = *s
	t.Link = false
	t.Faults++
	return model.Enabled
}

// HealLink: the link heals.
func (sp *Spec) HealLink(s *State, t *State) model.Guard {
	if s.Link {
		return "~link"
	}
	*t = *s
	t.Link = true
	return model.Enabled
}

// SendRequest: the holder sends a ping or a read while it believes it holds.
func (sp *Spec) SendRequest(s *State, t *State) model.Guard {
	switch {
	case !sp.HBelieves(s):
		return "HBelieves"
	case len(s.Reqs) >= sp.MaxRequests:
		return "Len(reqs) < MaxRequests"
	}
	*t = *s
	t.Reqs = append(append(make([]Req, 0, len(s.Reqs)+1), s.Reqs...), Req{Sent: s.Now, State: Sent})
	return model.Enabled
}

// withReq sets t to s with request i (0-based) replaced by r.
func withReq(s *State, i int, r Req, t *State) {
	*t = *s
	t.Reqs = append([]Req(nil), s.Reqs...)
	t.Reqs[i] = r
}

// ReceiveRequest: the follower, while serving, receives request i (1-based
// as in the spec), records a touch of the session and answers.
func (sp *Spec) ReceiveRequest(s *State, i int, t *State) model.Guard {
	switch {
	case i < 1 || i > len(s.Reqs):
		return "i <= Len(reqs)"
	case s.Reqs[i-1].State != Sent:
		return `reqs[i].state = "sent"`
	case !sp.Serving(s):
		return "Serving"
	}
	r := s.Reqs[i-1]
	r.State = Replied
	withReq(s, i-1, r, t)
	t.Touched = true
	return model.Enabled
}

// AckReply: the reply to request i arrives while the holder still believes
// it holds (a lost lease stays lost).
func (sp *Spec) AckReply(s *State, i int, t *State) model.Guard {
	switch {
	case i < 1 || i > len(s.Reqs):
		return "i <= Len(reqs)"
	case s.Reqs[i-1].State != Replied:
		return `reqs[i].state = "replied"`
	case !sp.HBelieves(s):
		return "HBelieves"
	}
	r := s.Reqs[i-1]
	r.State, r.Acked = Acked, s.Now
	withReq(s, i-1, r, t)
	return model.Enabled
}

// ExpireSession: the leader's session tracker expires the holder's session
// (closeSession deletes its ephemeral lock node).
func (sp *Spec) ExpireSession(s *State, t *State) model.Guard {
	switch {
	case s.Expired:
		return "~expired"
	case s.Now < s.LastTouch+sp.Timeout:
		return "now >= lastTouch + Timeout"
	}
	*t = *s
	t.Expired = true
	return model.Enabled
}

// GrantContender: the contender on the leader sees the node gone and holds.
func (sp *Spec) GrantContender(s *State, t *State) model.Guard {
	switch {
	case !s.Expired:
		return "expired"
	case s.Granted:
		return "~granted"
	}
	*t = *s
	t.Granted = true
	return model.Enabled
}

// Step applies the action instance l to s, writing the successor into t.
func (sp *Spec) Step(s *State, l model.Label, t *State) model.Guard {
	switch l.Action {
	case ActTick:
		return sp.Tick(s, t)
	case ActCutLink:
		return sp.CutLink(s, t)
	case ActHealLink:
		return sp.HealLink(s, t)
	case ActSendRequest:
		return sp.SendRequest(s, t)
	case ActReceiveRequest:
		return sp.ReceiveRequest(s, int(l.Arg), t)
	case ActAckReply:
		return sp.AckReply(s, int(l.Arg), t)
	case ActExpireSession:
		return sp.ExpireSession(s, t)
	case ActGrantContender:
		return sp.GrantContender(s, t)
	}
	return "unknown action"
}

// Next calls emit with every successor of s in TLC's order: Next's
// disjuncts in order, \E i \in 1..MaxRequests in increasing i (TLC splits
// the quantifier over a constant set into one action per i).
func (sp *Spec) Next(s *State, emit func(model.Label, *State)) {
	var t State
	try := func(a uint8, i int) {
		if sp.Step(s, model.Label{Action: a, Client: -1, Arg: int16(i)}, &t) == model.Enabled {
			emit(model.Label{Action: a, Client: -1, Arg: int16(i)}, &t)
		}
	}
	for _, a := range []uint8{ActTick, ActCutLink, ActHealLink, ActSendRequest} {
		try(a, 0)
	}
	for _, a := range []uint8{ActReceiveRequest, ActAckReply} {
		for i := 1; i <= len(s.Reqs); i++ {
			try(a, i)
		}
	}
	try(ActExpireSession, 0)
	try(ActGrantContender, 0)
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
	if l.Action == ActReceiveRequest || l.Action == ActAckReply {
		return fmt.Sprintf("%s(%d)", ActionName(l), l.Arg)
	}
	return ActionName(l)
}
