package sharedlock

import (
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/connloss"
	"github.com/zklock/zklock/model/recipe"
)

// LossShape is what SharedLockConnLoss adds to connloss: RWMutex arms the
// own node's watch only when the hand-off may be taken (kind.go handOff: a
// reader, or a writer whose only blocker is a read node), and it watches
// no second node.
func (sp *Spec) LossShape() connloss.Shape[State, Kind] {
	return connloss.Shape[State, Kind]{
		Clients: sp.Clients,
		Actions: len(ActionNames),
		Core:    func(s *State) *recipe.State[Kind] { return &s.State },
		Encode:  func(b []byte, s *State) []byte { return s.AppendEncoding(b) },
		HandOffArmed: func(s *State, c int) model.Guard {
			if s.Kind[c] != KindRead && s.Target[c].Kind != KindRead {
				return `kind[c] = "read" \/ target[c][2] = "read"`
			}
			return model.Enabled
		},
	}
}
