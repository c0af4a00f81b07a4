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

// ActionName returns the name TLC gives l's action in the module.
func (sp *Spec) ActionName(l model.Label) string {
	if l.Action >= ActArmOwnWatch && l.Action <= ActForeignReplace {
		return ownNames[l.Action-ActArmOwnWatch]
	}
	if name, ok := restrictedNames[l.Action]; ok {
		return name
	}
	return sharedlock.ActionName(l)
}

// LabelString renders l with its parameters.
func (sp *Spec) LabelString(l model.Label) string {
	switch {
	case l.Action == ActForeignDelete || l.Action == ActForeignReplace:
		return fmt.Sprintf("%s(%d)", ownNames[l.Action-ActArmOwnWatch], l.Arg)
	case l.Action >= ActArmOwnWatch && l.Action <= ActForeignReplace,
		restrictedNames[l.Action] != "" && l.Client >= 0 && int(l.Client) < sp.N():
		return fmt.Sprintf("%s(%s)", sp.ActionName(l), sp.Clients[l.Client])
	}
	return sp.Spec.LabelString(l)
}

// isClientStep reports whether l is a step of ClientNext(c) in SharedLock
// (the others are EnvNext's).
func isClientStep(l model.Label) bool {
	switch l.Action {
	case recipe.ActExpireSession, recipe.ActPauseClient, recipe.ActResumeClient, recipe.ActDeleteLands:
		return false
	}
	return true
}

// module is Spec as foreign.Module: the base spec and the module's own
// actions, for foreign.Next and foreign.Step.
type module Spec

func (m *module) NumClients() int { return m.N() }

func (m *module) Actions() foreign.Actions {
	return foreign.Actions{Client: []uint8{ActArmOwnWatch, ActLearnNodeGone},
		ForeignDelete: ActForeignDelete, ForeignReplace: ActForeignReplace}
}

func (m *module) Server(s *sharedlock.State) *zk.Server[sharedlock.Kind] { return &s.Server }

func (m *module) BaseNext(s *sharedlock.State, emit func(model.Label, *sharedlock.State)) {
	m.Spec.Next(s, emit)
}

func (m *module) BaseStep(s *sharedlock.State, l model.Label, t *sharedlock.State) model.Guard {
	return m.Spec.Step(s, l, t)
}

func (m *module) IsClientStep(l model.Label) bool { return isClientStep(l) }

func (m *module) Restricted(s *sharedlock.State, l model.Label) model.Guard {
	return (*Spec)(m).restricted(s, l)
}

func (m *module) OwnStep(s *sharedlock.State, a uint8, c int, t *sharedlock.State) model.Guard {
	if a == ActArmOwnWatch {
		return (*Spec)(m).ArmOwnWatch(s, c, t)
	}
	return (*Spec)(m).LearnNodeGone(s, c, t)
}

func (m *module) ForeignStep(s *sharedlock.State, a uint8, q int, t *sharedlock.State) model.Guard {
	if a == ActForeignDelete {
		return (*Spec)(m).ForeignDelete(s, q, t)
	}
	return (*Spec)(m).ForeignReplace(s, q, t)
}

// Next calls emit with every successor of s in TLC's order: for each
// client, SharedLock's client steps (the restricted ones in place of
// theirs), then ArmOwnWatch and LearnNodeGone; then SharedLock's EnvNext;
// then ForeignDelete(q) and ForeignReplace(q) for each q in 0..MaxSeq.
func (sp *Spec) Next(s *sharedlock.State, emit func(model.Label, *sharedlock.State)) {
	foreign.Next((*module)(sp), s, emit)
}

// restricted is the module's guard on top of a base step's: none but for
// IgnoreOtherNotification, ReleaseNamed, DowngradeOwned and
// DowngradeReplyLostOwned.
func (sp *Spec) restricted(s *sharedlock.State, l model.Label) model.Guard {
	c := int(l.Client)
	switch l.Action {
	case recipe.ActIgnoreNotification:
		if s.PC[c] == recipe.PCHold && len(s.Inbox[c]) > 0 && s.Inbox[c][0] == ownEvent(s, c) {
			return `~(pc[c] = "hold" /\ ZK!NextEvent(c) = OwnEvent(c))`
		}
	case recipe.ActRelease:
		if _, ok := s.NodeAt(s.Node[c]); !ok {
			return `NameExists(c)`
		}
		if Notified(s, c) {
			return `~Notified(c)`
		}
	case sharedlock.ActDowngrade, sharedlock.ActDowngradeReplyLost:
		if !s.OwnNodeExists(c) {
			return `OwnNodeExists(c)`
		}
	}
	return model.Enabled
}

// Step applies the action instance l to s, writing the successor into t.
func (sp *Spec) Step(s *sharedlock.State, l model.Label, t *sharedlock.State) model.Guard {
	return foreign.Step((*module)(sp), s, l, t)
}
