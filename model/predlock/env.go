package predlock

import (
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/internal/cow"
	"github.com/zklock/zklock/model/recipe"
)

// DropDelete: a connection loss drops the pending delete of request u for
// good; a fault. Spec: PredecessorLockDropDelete!DropDelete (a mutant).
func (sp *Spec) DropDelete(s *State, u Uuid, t *State) model.Guard {
	p, ok := s.PendingOf(u)
	switch {
	case !ok:
		return `p \in pending`
	case !sp.fault(s):
		return recipe.GFault
	}
	*t = *s
	t.Faults = s.Faults + 1
	t.Pending = cow.Filter(s.Pending, func(q Pending) bool { return q != p })
	return model.Enabled
}
