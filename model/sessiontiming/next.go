package sessiontiming

import (
	"fmt"

	"github.com/zklock/zklock/model"
)

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
		return sp.SendRequest(s, Kind(l.Arg), t)
	case ActReceiveRequest:
		return sp.ReceiveRequest(s, int(l.Arg), t)
	case ActAckReply:
		return sp.AckReply(s, int(l.Arg), t)
	case ActLeaderReceive:
		return sp.LeaderReceive(s, t)
	case ActExpireSession:
		return sp.ExpireSession(s, t)
	case ActGrantContender:
		return sp.GrantContender(s, t)
	}
	return "unknown action"
}

// Next calls emit with every successor of s in TLC's order: Next's
// disjuncts in order, \E k \in Kinds in Kinds order, \E i \in
// 1..MaxRequests in increasing i (TLC splits the quantifier over a
// constant set into one action per element).
func (sp *Spec) Next(s *State, emit func(model.Label, *State)) {
	var t State
	try := func(a uint8, i int) {
		if sp.Step(s, model.Label{Action: a, Client: -1, Arg: int16(i)}, &t) == model.Enabled {
			emit(model.Label{Action: a, Client: -1, Arg: int16(i)}, &t)
		}
	}
	for _, a := range []uint8{ActTick, ActCutLink, ActHealLink} {
		try(a, 0)
	}
	for _, k := range Kinds {
		try(ActSendRequest, int(k))
	}
	for _, a := range []uint8{ActReceiveRequest, ActAckReply} {
		for i := 1; i <= len(s.Reqs); i++ {
			try(a, i)
		}
	}
	try(ActLeaderReceive, 0)
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

// LabelString renders l with its parameter, e.g. "AckReply(2)",
// `SendRequest("sync")`.
func (sp *Spec) LabelString(l model.Label) string {
	if l.Action == ActSendRequest {
		return fmt.Sprintf("%s(%q)", ActionName(l), Kind(l.Arg).String())
	}
	if l.Action == ActReceiveRequest || l.Action == ActAckReply {
		return fmt.Sprintf("%s(%d)", ActionName(l), l.Arg)
	}
	return ActionName(l)
}
