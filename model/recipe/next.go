package recipe

import (
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/zk"
)

// Relation is a module's next-state relation in the form Next runs it: P
// is the module's *Spec, S its State, K the kind of its node names.
type Relation[P, S any, K zk.Kind] struct {
	// Table holds the client actions by index; nil for an action Next
	// takes through Step with Arg 0..Args-1 (SharedLock's RequestLock(c,
	// k) for k in Kinds).
	Table []func(P, *S, int, *S) model.Guard
	// Args is how many Args such an action takes.
	Args int16
	// Step applies a label (the module's Step).
	Step func(P, *S, model.Label, *S) model.Guard
	// ExpireSession and DeleteLands are the module's, called directly
	// (through Step the dispatch cost the explorer ~10%).
	ExpireSession func(P, *S, zk.Session, *S) model.Guard
	DeleteLands   func(P, *S, zk.Uuid, *S) model.Guard
}

// Next calls emit with every successor of s, whose part both lock specs
// have is in, in TLC's order: for each client c, the client actions acts
// (ClientNext(c)) in order; then ExpireSession(x) for each live x
// (Sessions == Clients \X (1..MaxFaults+1); only live ones are enabled,
// and live is sorted in the same, lexicographic, order); then
// PauseClient(c) and ResumeClient(c) for each client; then DeleteLands(p)
// for each pending p. Successors are written into t; the state passed to
// emit is only valid during the call.
func (r *Relation[P, S, K]) Next(sp P, s *S, in *State[K], t *S, acts []uint8, emit func(model.Label, *S)) {
	n := len(in.PC)
	for c := range n {
		for _, a := range acts {
			if f := r.Table[a]; f != nil {
				if f(sp, s, c, t) == model.Enabled {
					emit(model.Label{Action: a, Client: int16(c)}, t)
				}
				continue
			}
			for arg := range r.Args {
				if l := (model.Label{Action: a, Client: int16(c), Arg: arg}); r.Step(sp, s, l, t) == model.Enabled {
					emit(l, t)
				}
			}
		}
	}
	for _, x := range in.Live {
		if r.ExpireSession(sp, s, x, t) == model.Enabled {
			emit(model.Label{Action: ActExpireSession, Client: int16(x.C), Arg: int16(x.K)}, t)
		}
	}
	pause, resume := r.Table[ActPauseClient], r.Table[ActResumeClient]
	for c := range n {
		if pause(sp, s, c, t) == model.Enabled {
			emit(model.Label{Action: ActPauseClient, Client: int16(c)}, t)
		}
		if resume(sp, s, c, t) == model.Enabled {
			emit(model.Label{Action: ActResumeClient, Client: int16(c)}, t)
		}
	}
	for _, p := range in.Pending {
		if r.DeleteLands(sp, s, p.Uuid, t) == model.Enabled {
			emit(model.Label{Action: ActDeleteLands, Client: int16(p.Uuid.C), Arg: int16(p.Uuid.R)}, t)
		}
	}
}
