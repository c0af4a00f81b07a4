// Package elforeign is the Go mirror of spec/tla/ElectionForeign.tla:
// Election with an outsider who deletes or replaces candidates' nodes
// (ForeignDelete, ForeignReplace) and the leader's one watch on its own
// node (ArmOwnWatch, LearnNodeGone), IgnoreNotification and Release
// (Resign) restricted as IgnoreOtherNotification and ReleaseNamed say.
//
// The module INSTANCEs PredecessorLockForeign on Election's candidates, so
// this package runs model/predforeign's steps on the candidates' part of
// the state (election.State embeds predlock.State), Election's own
// variables unchanged, and every other step is model/election's own. It
// adds no variable. spec/tla/README.md is the contract.
package elforeign

import (
	"fmt"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/election"
	"github.com/zklock/zklock/model/predforeign"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/traceevent"
)

// Constants are ElectionForeign's own constants, beyond Election's.
type Constants struct {
	WatchOwn bool   // a leader watches its own node (the code)
	Stranger string // the outsider's model value
}

// Spec is the state machine of the module with its constants.
type Spec struct {
	*election.Spec
	// Lock is PredecessorLockForeign on the same candidates (PLF): its
	// steps are this module's own.
	Lock *predforeign.Spec
}

// New checks the constants and returns the Spec (Election's Spec, not a
// mutant's).
func New(k predlock.Constants, e election.Constants, f Constants) (*Spec, error) {
	if f.Stranger == "" {
		return nil, fmt.Errorf("elforeign: want a Stranger")
	}
	el, err := election.New(k, e, election.Base)
	if err != nil {
		return nil, err
	}
	el.Spec.Outsider = f.Stranger
	return &Spec{Spec: el, Lock: &predforeign.Spec{Spec: el.Spec, WatchOwn: f.WatchOwn}}, nil
}

// Action indices (model.Label.Action) of the module's own actions: after
// Election's. ForeignDelete's and ForeignReplace's Arg is the seq of the
// node (their Client is -1).
var (
	ActArmOwnWatch    = uint8(election.NumActions)
	ActLearnNodeGone  = ActArmOwnWatch + 1
	ActForeignDelete  = ActArmOwnWatch + 2
	ActForeignReplace = ActArmOwnWatch + 3
	ownNames          = []string{"ArmOwnWatch", string(traceevent.LearnNodeGone),
		string(traceevent.ForeignDelete), string(traceevent.ForeignReplace)}
	// lockOwn maps the module's own candidate actions to predforeign's.
	lockOwn = map[uint8]uint8{ActArmOwnWatch: predforeign.ActArmOwnWatch, ActLearnNodeGone: predforeign.ActLearnNodeGone,
		ActForeignDelete: predforeign.ActForeignDelete, ActForeignReplace: predforeign.ActForeignReplace}
)

// ActionName returns the name TLC gives l's action in the module: the
// lock's restricted steps under PredecessorLockForeign's names.
func (sp *Spec) ActionName(l model.Label) string {
	switch {
	case l.Action >= ActArmOwnWatch:
		return ownNames[l.Action-ActArmOwnWatch]
	case l.Action < election.ActProclaim:
		return sp.Lock.ActionName(l)
	}
	return election.ActionName(l)
}

// LabelString renders l with its parameters.
func (sp *Spec) LabelString(l model.Label) string {
	switch {
	case l.Action >= ActArmOwnWatch:
		return sp.Lock.LabelString(sp.lockLabel(l))
	case l.Action < election.ActProclaim:
		return sp.Lock.LabelString(l)
	}
	return sp.Spec.LabelString(l)
}

// lockLabel is l, one of the module's own actions, as predforeign's.
func (sp *Spec) lockLabel(l model.Label) model.Label {
	l.Action = lockOwn[l.Action]
	return l
}

type step struct {
	l model.Label
	t election.State
}

// Next calls emit with every successor of s: the candidates' steps and
// EnvNext as PredecessorLockForeign's ForeignClientNext and EnvNext take
// them (each candidate's ArmOwnWatch and LearnNodeGone after its lock
// steps), Election's own steps (OwnNext, and the candidates' data-event
// steps, in Election's model's order), then ForeignDelete(q) and
// ForeignReplace(q) for each q.
func (sp *Spec) Next(s *election.State, emit func(model.Label, *election.State)) {
	var foreign []step
	var t election.State
	sp.Lock.Next(&s.State, func(l model.Label, u *predlock.State) {
		t = *s
		t.State = *u
		if l.Action == predforeign.ActForeignDelete || l.Action == predforeign.ActForeignReplace {
			foreign = append(foreign, step{sp.ownLabel(l), t})
			return
		}
		emit(sp.ownLabel(l), &t)
	})
	sp.Spec.Next(s, func(l model.Label, u *election.State) {
		if l.Action >= election.ActProclaim {
			emit(l, u)
		}
	})
	for i := range foreign {
		emit(foreign[i].l, &foreign[i].t)
	}
}

// ownLabel is l, a label of predforeign, as this module's.
func (sp *Spec) ownLabel(l model.Label) model.Label {
	for a, b := range lockOwn {
		if l.Action == b {
			l.Action = a
			return l
		}
	}
	return l
}

// Step applies the action instance l to s, writing the successor into t.
func (sp *Spec) Step(s *election.State, l model.Label, t *election.State) model.Guard {
	if l.Action >= election.ActProclaim && l.Action < ActArmOwnWatch {
		return sp.Spec.Step(s, l, t)
	}
	if l.Action > ActForeignReplace {
		return "unknown action"
	}
	if l.Action >= ActArmOwnWatch {
		l = sp.lockLabel(l)
	}
	var u predlock.State
	g := sp.Lock.Step(&s.State, l, &u)
	if g == model.Enabled {
		*t = *s
		t.State = u
	}
	return g
}

// The module's properties: PredecessorLockForeign's, on the candidates.

// FTypeOK is PLF!FTypeOK: the lock's TypeOK with a node's owner in
// Sessions \cup {Outsider}.
func (sp *Spec) FTypeOK(s *election.State) bool { return sp.Lock.FTypeOK(&s.State) }

// BelievesOnlyWhileNotified is PLF!BelievesOnlyWhileNotified.
func (sp *Spec) BelievesOnlyWhileNotified(s *election.State) bool {
	return sp.Lock.BelievesOnlyWhileNotified(&s.State)
}

// LeaderBeliefExclusion is PLF!BeliefExclusion: two candidates believe
// they lead only while one of them has the news pending.
func (sp *Spec) LeaderBeliefExclusion(s *election.State) bool {
	return sp.Lock.BeliefExclusion(&s.State)
}
