// Package predforeign is the Go mirror of
// spec/tla/PredecessorLockForeign.tla: PredecessorLock with an outsider
// who deletes or replaces lock nodes (ForeignDelete, ForeignReplace:
// ZooKeeper.tla's operators of those names) and the holder's one watch on
// its own node (ArmOwnWatch, LearnNodeGone), IgnoreNotification and
// Release restricted as the module's IgnoreOtherNotification and
// ReleaseNamed say.
//
// The module adds no variable: State is predlock.State, every other step
// is predlock's own (Spec embeds *predlock.Spec). A replacement node is
// owned by the session Outsider (client index -1, printed as the
// Stranger). model/trace replays the traces of impl/zklock in this model.
// spec/tla/README.md is the contract.
package predforeign

import (
	"fmt"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/internal/foreign"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/zk"
	"github.com/zklock/zklock/traceevent"
)

// Outsider is the session <<Stranger, 0>> that owns a replacement node.
var Outsider = zk.Session{C: -1, K: 0}

// Constants are the CONSTANTS of PredecessorLockForeign: PredecessorLock's
// and its own.
type Constants struct {
	predlock.Constants
	WatchOwn bool   // a holder watches its own node (the code)
	Stranger string // the outsider's model value
}

// Spec is the state machine of the module with its constants.
type Spec struct {
	*predlock.Spec
	WatchOwn bool
}

// New checks the constants and returns the Spec.
func New(k Constants) (*Spec, error) {
	if k.Stranger == "" {
		return nil, fmt.Errorf("predforeign: want a Stranger")
	}
	inner, err := predlock.New(k.Constants, predlock.Base)
	if err != nil {
		return nil, err
	}
	inner.Outsider = k.Stranger
	return &Spec{Spec: inner, WatchOwn: k.WatchOwn}, nil
}

// Action indices (model.Label.Action) of the module's own actions: after
// PredecessorLock's. ForeignDelete's and ForeignReplace's Arg is the seq
// of the node (their Client is -1).
var (
	ActArmOwnWatch    = uint8(len(predlock.ActionNames))
	ActLearnNodeGone  = ActArmOwnWatch + 1
	ActForeignDelete  = ActArmOwnWatch + 2
	ActForeignReplace = ActArmOwnWatch + 3
	ownNames          = []string{"ArmOwnWatch", string(traceevent.LearnNodeGone),
		string(traceevent.ForeignDelete), string(traceevent.ForeignReplace)}
)

// The names TLC gives the base actions the module restricts.
const (
	nameIgnore  = "IgnoreOtherNotification"
	nameRelease = "ReleaseNamed"
)

// ActionName returns the name TLC gives l's action in the module.
func (sp *Spec) ActionName(l model.Label) string {
	switch {
	case l.Action >= ActArmOwnWatch:
		return ownNames[l.Action-ActArmOwnWatch]
	case l.Action == recipe.ActIgnoreNotification:
		return nameIgnore
	case l.Action == recipe.ActRelease:
		return nameRelease
	}
	return predlock.ActionName(l)
}

// LabelString renders l with its parameters.
func (sp *Spec) LabelString(l model.Label) string {
	switch {
	case l.Action == ActForeignDelete || l.Action == ActForeignReplace:
		return fmt.Sprintf("%s(%d)", ownNames[l.Action-ActArmOwnWatch], l.Arg)
	case l.Action >= ActArmOwnWatch:
		return fmt.Sprintf("%s(%s)", ownNames[l.Action-ActArmOwnWatch], sp.Clients[l.Client])
	case l.Action == recipe.ActIgnoreNotification || l.Action == recipe.ActRelease:
		return fmt.Sprintf("%s(%s)", sp.ActionName(l), sp.Clients[l.Client])
	}
	return sp.Spec.LabelString(l)
}

// module is the module's own actions over its base spec's.
func (sp *Spec) module() *foreign.Module[predlock.State, zk.NoKind] {
	return &foreign.Module[predlock.State, zk.NoKind]{N: sp.N(), BaseNext: sp.Spec.Next, BaseStep: sp.Spec.Step,
		Server:       func(s *predlock.State) *zk.Server[zk.NoKind] { return &s.Server },
		IsClientStep: foreign.LockClientStep, Restricted: sp.restricted,
		Client: []foreign.Action[predlock.State]{
			{Index: ActArmOwnWatch, Step: sp.ArmOwnWatch},
			{Index: ActLearnNodeGone, Step: sp.LearnNodeGone},
		},
		ForeignDelete:  foreign.Action[predlock.State]{Index: ActForeignDelete, Step: sp.ForeignDelete},
		ForeignReplace: foreign.Action[predlock.State]{Index: ActForeignReplace, Step: sp.ForeignReplace}}
}

// Next calls emit with every successor of s in TLC's order: for each
// client, PredecessorLock's client steps (IgnoreOtherNotification and
// ReleaseNamed in place of IgnoreNotification and Release), then
// ArmOwnWatch and LearnNodeGone; then PredecessorLock's EnvNext; then
// ForeignDelete(q) and ForeignReplace(q) for each q in 0..MaxSeq.
func (sp *Spec) Next(s *predlock.State, emit func(model.Label, *predlock.State)) {
	sp.module().Next(s, emit)
}

// restricted is the module's guard on top of a base step's: none but for
// IgnoreOtherNotification and ReleaseNamed.
func (sp *Spec) restricted(s *predlock.State, l model.Label) model.Guard {
	c := int(l.Client)
	switch l.Action {
	case recipe.ActIgnoreNotification:
		return sp.own(s).IgnoreOther(&s.Clients, c)
	case recipe.ActRelease:
		return sp.own(s).ReleaseNamed(&s.Clients, c)
	}
	return model.Enabled
}

// Step applies the action instance l to s, writing the successor into t.
func (sp *Spec) Step(s *predlock.State, l model.Label, t *predlock.State) model.Guard {
	return sp.module().Step(s, l, t)
}
