package sessiontiming

import (
	"strconv"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/timing"
)

// actions is Next's disjuncts in order (spec: Next), by their indices:
// SendRequest over Kinds in Kinds order, ReceiveRequest and AckReply over
// 1..MaxRequests (the model tries 1..Len(reqs): the others are disabled).
func (sp *Spec) actions() timing.Actions[State] {
	plain := timing.Plain[State]
	reqs := func(s *State) (int, int) { return 1, len(s.Reqs) }
	as := [numActions]timing.Action[State]{
		ActTick:     {Name: "Tick", Step: plain(sp.Tick)},
		ActCutLink:  {Name: "CutLink", Step: plain(sp.CutLink)},
		ActHealLink: {Name: "HealLink", Step: plain(sp.HealLink)},
		ActSendRequest: {Name: "SendRequest",
			Params: func(*State) (int, int) { return int(Kinds[0]), int(Kinds[len(Kinds)-1]) },
			Param:  func(k int) string { return strconv.Quote(Kind(k).String()) },
			Step:   func(s *State, k int, t *State) model.Guard { return sp.SendRequest(s, Kind(k), t) }},
		ActReceiveRequest: {Name: "ReceiveRequest", Params: reqs, Step: sp.ReceiveRequest},
		ActAckReply:       {Name: "AckReply", Params: reqs, Step: sp.AckReply},
		ActLeaderReceive:  {Name: "LeaderReceive", Step: plain(sp.LeaderReceive)},
		ActExpireSession:  {Name: "ExpireSession", Step: plain(sp.ExpireSession)},
		ActGrantContender: {Name: "GrantContender", Step: plain(sp.GrantContender)},
	}
	return as[:]
}
