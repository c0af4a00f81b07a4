package predadaptiveforeign

import (
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/predmarked"
)

// AFTypeOK: the marker's MTypeOK and opData a set of seqs.
func (sp *Spec) AFTypeOK(s *State) bool {
	if !sp.MTypeOK(&s.State) {
		return false
	}
	for _, m := range s.OpData {
		if m < 0 || m > sp.MaxSeq {
			return false
		}
	}
	return true
}

// OwnMarkSilent: OwnWriteSilent where no operator wrote: no client whose
// node no operator wrote has its own node's NodeDataChanged event of its
// current request queued.
func (sp *Spec) OwnMarkSilent(s *State) bool {
	for c, q := range s.Inbox {
		if s.Wrote(s.Node[c]) {
			continue
		}
		own := predlock.Watch{Node: predlock.Name{Seq: predmarked.Changed(s.Node[c])}, Req: s.UuidOf(c)}
		for _, e := range q {
			if e == own {
				return false
			}
		}
	}
	return true
}

// Invariants is the module's table of state invariants, by name: its own
// and PredecessorLockAdaptive's (but OwnWriteSilent, which an operator's
// set on a held node breaks for no fault of the protocol) on the embedded
// state.
func (sp *Spec) Invariants() map[string]func(*State) bool {
	out := map[string]func(*State) bool{"AFTypeOK": sp.AFTypeOK, "OwnMarkSilent": sp.OwnMarkSilent}
	for name, f := range sp.Spec.Invariants() {
		if name == "MTypeOK" || name == "OwnWriteSilent" || name == "OneWatcher" {
			continue
		}
		out[name] = func(s *State) bool { return f(&s.State) }
	}
	return out
}

// ActionProperties is the module's table of action properties:
// PredecessorLockAdaptive's on the embedded state.
func (sp *Spec) ActionProperties() map[string]func(s, t *State) bool {
	out := map[string]func(s, t *State) bool{}
	for name, f := range sp.Spec.ActionProperties() {
		out[name] = func(s, t *State) bool { return f(&s.State, &t.State) }
	}
	return out
}
