package predlock

import (
	"github.com/zklock/zklock/model/connloss"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/zk"
)

// LossShape is what PredecessorLockConnLoss adds to connloss: Mutex always
// arms the own node's watch, and its second watch, retried after a lost
// reply and found gone, is WatchSecondLost (Lose /\ Loss!Moves(c,
// "second", "watch")).
func (sp *Spec) LossShape() connloss.Shape[State, zk.NoKind] {
	return connloss.Shape[State, zk.NoKind]{
		Clients: sp.Clients,
		Actions: len(ActionNames),
		Core:    func(s *State) *recipe.State[zk.NoKind] { return &s.State },
		Encode:  func(b []byte, s *State) []byte { return s.AppendEncoding(b) },
		Moves:   []connloss.Move{{Name: "WatchSecondLost", From: recipe.PCSecond, To: recipe.PCWatch}},
	}
}
