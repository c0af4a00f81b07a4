// Package semforeign is the Go mirror of spec/tla/SemaphoreForeign.tla:
// Semaphore with an outsider who deletes or replaces lease nodes
// (ForeignDelete, ForeignReplace: ZooKeeper.tla's operators of those
// names), the holder's one watch on its own lease node (ArmOwnWatch,
// LearnNodeGone) and the acquirer's end when its listing misses its node
// (AcquireNodeGone), with IgnoreNotification, ListLeases and ReleaseLease
// restricted as the module's IgnoreOtherNotification, ListLeasesNamed and
// ReleaseNamed say. It follows
// model/sharedforeign, SharedLockForeign's mirror.
//
// The module adds no variable: State is semaphore.State, every other step
// is semaphore's own (Spec embeds *semaphore.Spec). A replacement node is
// owned by the session Outsider (client index -1, printed as the
// Stranger). spec/tla/README.md is the contract.
package semforeign

import (
	"fmt"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/internal/foreign"
	"github.com/zklock/zklock/model/semaphore"
	"github.com/zklock/zklock/model/zk"
	"github.com/zklock/zklock/traceevent"
)

// Outsider is the session <<Stranger, 0>> that owns a replacement node.
var Outsider = zk.Session{C: -1, K: 0}

// Constants are the CONSTANTS of SemaphoreForeign: Semaphore's and its
// own.
type Constants struct {
	semaphore.Constants
	WatchOwn bool   // a holder watches its own lease node (the code)
	Stranger string // the outsider's model value
}

// Spec is the state machine of the module with its constants.
type Spec struct {
	*semaphore.Spec
	WatchOwn bool
}

// New checks the constants and returns the Spec.
func New(k Constants) (*Spec, error) {
	if k.Stranger == "" {
		return nil, fmt.Errorf("semforeign: want a Stranger")
	}
	inner, err := semaphore.New(k.Constants)
	if err != nil {
		return nil, err
	}
	inner.Outsider = k.Stranger
	return &Spec{Spec: inner, WatchOwn: k.WatchOwn}, nil
}

// Action indices (model.Label.Action) of the module's own actions: after
// Semaphore's. ForeignDelete's and ForeignReplace's Arg is the seq of the
// node (their Client is -1).
var (
	ActArmOwnWatch     = uint8(semaphore.NumActions)
	ActLearnNodeGone   = ActArmOwnWatch + 1
	ActAcquireNodeGone = ActArmOwnWatch + 2
	ActForeignDelete   = ActArmOwnWatch + 3
	ActForeignReplace  = ActArmOwnWatch + 4
	ownNames           = []string{"ArmOwnWatch", string(traceevent.LearnNodeGone), "AcquireNodeGone",
		string(traceevent.ForeignDelete), string(traceevent.ForeignReplace)}
)

// restrictedNames are the names TLC gives the base actions the module
// restricts.
var restrictedNames = map[uint8]string{
	semaphore.ActIgnoreNotification: "IgnoreOtherNotification",
	semaphore.ActListLeases:         "ListLeasesNamed",
	semaphore.ActReleaseLease:       "ReleaseNamed",
}

// ActionName returns the name TLC gives l's action in the module.
func (sp *Spec) ActionName(l model.Label) string {
	if l.Action >= ActArmOwnWatch && l.Action <= ActForeignReplace {
		return ownNames[l.Action-ActArmOwnWatch]
	}
	if name, ok := restrictedNames[l.Action]; ok {
		return name
	}
	return semaphore.ActionName(l)
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

// isClientStep reports whether l is a step of ClientNext(c) in Semaphore
// (the others are ExpireSession, PauseClient and ResumeClient).
func isClientStep(l model.Label) bool { return l.Action < semaphore.ActExpireSession }

// module is Spec as foreign.Module: the base spec and the module's own
// actions, for foreign.Next and foreign.Step.
type module Spec

func (m *module) NumClients() int { return m.N() }

func (m *module) Actions() foreign.Actions {
	return foreign.Actions{Client: []uint8{ActArmOwnWatch, ActLearnNodeGone, ActAcquireNodeGone},
		ForeignDelete: ActForeignDelete, ForeignReplace: ActForeignReplace}
}

func (m *module) Server(s *semaphore.State) *zk.Server[zk.NoKind] { return &s.Server }

func (m *module) BaseNext(s *semaphore.State, emit func(model.Label, *semaphore.State)) {
	m.Spec.Next(s, emit)
}

func (m *module) BaseStep(s *semaphore.State, l model.Label, t *semaphore.State) model.Guard {
	return m.Spec.Step(s, l, t)
}

func (m *module) IsClientStep(l model.Label) bool { return isClientStep(l) }

func (m *module) Restricted(s *semaphore.State, l model.Label) model.Guard {
	return (*Spec)(m).restricted(s, l)
}

func (m *module) OwnStep(s *semaphore.State, a uint8, c int, t *semaphore.State) model.Guard {
	switch a {
	case ActArmOwnWatch:
		return (*Spec)(m).ArmOwnWatch(s, c, t)
	case ActLearnNodeGone:
		return (*Spec)(m).LearnNodeGone(s, c, t)
	}
	return (*Spec)(m).AcquireNodeGone(s, c, t)
}

func (m *module) ForeignStep(s *semaphore.State, a uint8, q int, t *semaphore.State) model.Guard {
	if a == ActForeignDelete {
		return (*Spec)(m).ForeignDelete(s, q, t)
	}
	return (*Spec)(m).ForeignReplace(s, q, t)
}

// Next calls emit with every successor of s in TLC's order: for each
// client, Semaphore's client steps (the restricted ones in place of
// theirs), then ArmOwnWatch, LearnNodeGone and AcquireNodeGone; then ExpireSession,
// PauseClient and ResumeClient; then ForeignDelete(q) and
// ForeignReplace(q) for each q in 0..MaxSeq.
func (sp *Spec) Next(s *semaphore.State, emit func(model.Label, *semaphore.State)) {
	foreign.Next((*module)(sp), s, emit)
}

// restricted is the module's guard on top of a base step's: none but for
// IgnoreOtherNotification, ListLeasesNamed and ReleaseNamed.
func (sp *Spec) restricted(s *semaphore.State, l model.Label) model.Guard {
	c := int(l.Client)
	switch l.Action {
	case semaphore.ActIgnoreNotification:
		if s.PC[c] == semaphore.PCHold && len(s.Inbox[c]) > 0 && s.Inbox[c][0] == ownEvent(s, c) {
			return `~(pc[c] = "hold" /\ ZK!NextEvent(c) = OwnEvent(c))`
		}
	case semaphore.ActListLeases:
		if !nameExists(s, c) {
			return `NameExists(c)`
		}
	case semaphore.ActReleaseLease:
		if !nameExists(s, c) {
			return `NameExists(c)`
		}
		if Notified(s, c) {
			return `~Notified(c)`
		}
	}
	return model.Enabled
}

// Step applies the action instance l to s, writing the successor into t.
func (sp *Spec) Step(s *semaphore.State, l model.Label, t *semaphore.State) model.Guard {
	return foreign.Step((*module)(sp), s, l, t)
}
