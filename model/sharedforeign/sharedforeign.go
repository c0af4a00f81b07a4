// Package sharedforeign is the Go mirror of spec/tla/SharedLockForeign.tla:
// SharedLock (RWMutex) with an outsider who deletes or replaces lock nodes
// (ForeignDelete, ForeignReplace: ZooKeeper.tla's operators of those
// names) and the holder's one watch on its own node (ArmOwnWatch,
// LearnNodeGone), with IgnoreNotification, Release, Downgrade and
// DowngradeReplyLost restricted as the module's IgnoreOtherNotification,
// ReleaseNamed, DowngradeOwned and DowngradeReplyLostOwned say. It
// follows model/predforeign, PredecessorLockForeign's mirror.
//
// The module adds no variable: State is sharedlock.State, every other step
// is sharedlock's own (Spec embeds *sharedlock.Spec). A replacement node
// is owned by the session Outsider (client index -1, printed as the
// Stranger). spec/tla/README.md is the contract.
package sharedforeign

import (
	"fmt"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/internal/foreign"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/sharedlock"
	"github.com/zklock/zklock/model/zk"
	"github.com/zklock/zklock/traceevent"
)

// Outsider is the session <<Stranger, 0>> that owns a replacement node.
var Outsider = zk.Session{C: -1, K: 0}

// Constants are the CONSTANTS of SharedLockForeign: SharedLock's and its
// own.
type Constants struct {
	sharedlock.Constants
	WatchOwn bool   // a holder watches its own node (the code)
	Stranger string // the outsider's model value
}

// Spec is the state machine of the module with its constants.
type Spec struct {
	*sharedlock.Spec
	WatchOwn bool
}

// New checks the constants and returns the Spec.
func New(k Constants) (*Spec, error) {
	if k.Stranger == "" {
		return nil, fmt.Errorf("sharedforeign: want a Stranger")
	}
	inner, err := sharedlock.New(k.Constants, sharedlock.Base)
	if err != nil {
		return nil, err
	}
	inner.Outsider = k.Stranger
	return &Spec{Spec: inner, WatchOwn: k.WatchOwn}, nil
}

// Action indices (model.Label.Action) of the module's own actions: after
// SharedLock's. ForeignDelete's and ForeignReplace's Arg is the seq of
// the node (their Client is -1).
var (
	ActArmOwnWatch    = uint8(len(sharedlock.ActionNames))
	ActLearnNodeGone  = ActArmOwnWatch + 1
	ActForeignDelete  = ActArmOwnWatch + 2
	ActForeignReplace = ActArmOwnWatch + 3
	ownNames          = []string{"ArmOwnWatch", string(traceevent.LearnNodeGone),
		string(traceevent.ForeignDelete), string(traceevent.ForeignReplace)}
)

// restrictedNames are the names TLC gives the base actions the module
// restricts.
var restrictedNames = map[uint8]string{
	recipe.ActIgnoreNotification:     "IgnoreOtherNotification",
	recipe.ActRelease:                "ReleaseNamed",
	sharedlock.ActDowngrade:          "DowngradeOwned",
	sharedlock.ActDowngradeReplyLost: "DowngradeReplyLostOwned",
}

// names are the names TLC gives the module's actions.
func names() *foreign.Names {
	return &foreign.Names{First: ActArmOwnWatch, Own: ownNames, Restricted: restrictedNames}
}

// ActionName returns the name TLC gives l's action in the module.
func (sp *Spec) ActionName(l model.Label) string { return names().ActionName(l, sharedlock.ActionName) }

// LabelString renders l with its parameters.
func (sp *Spec) LabelString(l model.Label) string {
	return names().LabelString(l, sp.Clients, sp.Spec.LabelString)
}

// module is the module's own actions over its base spec's.
func (sp *Spec) module() *foreign.Module[sharedlock.State, sharedlock.Kind] {
	return &foreign.Module[sharedlock.State, sharedlock.Kind]{N: sp.N(), BaseNext: sp.Spec.Next, BaseStep: sp.Spec.Step,
		Server:       func(s *sharedlock.State) *zk.Server[sharedlock.Kind] { return &s.Server },
		IsClientStep: foreign.LockClientStep, Restricted: sp.restricted,
		Client: []foreign.Action[sharedlock.State]{
			{Index: ActArmOwnWatch, Step: sp.ArmOwnWatch},
			{Index: ActLearnNodeGone, Step: sp.LearnNodeGone},
		},
		ForeignDelete:  foreign.Action[sharedlock.State]{Index: ActForeignDelete, Step: sp.ForeignDelete},
		ForeignReplace: foreign.Action[sharedlock.State]{Index: ActForeignReplace, Step: sp.ForeignReplace}}
}

// Next calls emit with every successor of s in TLC's order: for each
// client, SharedLock's client steps (the restricted ones in place of
// theirs), then ArmOwnWatch and LearnNodeGone; then SharedLock's EnvNext;
// then ForeignDelete(q) and ForeignReplace(q) for each q in 0..MaxSeq.
func (sp *Spec) Next(s *sharedlock.State, emit func(model.Label, *sharedlock.State)) {
	sp.module().Next(s, emit)
}

// restricted is the module's guard on top of a base step's: none but for
// IgnoreOtherNotification, ReleaseNamed, DowngradeOwned and
// DowngradeReplyLostOwned.
func (sp *Spec) restricted(s *sharedlock.State, l model.Label) model.Guard {
	c := int(l.Client)
	switch l.Action {
	case recipe.ActIgnoreNotification:
		return sp.own(s).IgnoreOther(&s.Clients, c)
	case recipe.ActRelease:
		return sp.own(s).ReleaseNamed(&s.Clients, c)
	case sharedlock.ActDowngrade, sharedlock.ActDowngradeReplyLost:
		if !s.OwnNodeExists(c) {
			return `OwnNodeExists(c)`
		}
	}
	return model.Enabled
}

// Step applies the action instance l to s, writing the successor into t.
func (sp *Spec) Step(s *sharedlock.State, l model.Label, t *sharedlock.State) model.Guard {
	return sp.module().Step(s, l, t)
}
