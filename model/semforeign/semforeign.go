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

// names are the names TLC gives the module's actions.
func names() *foreign.Names {
	return &foreign.Names{First: ActArmOwnWatch, Own: ownNames, Restricted: restrictedNames}
}

// ActionName returns the name TLC gives l's action in the module.
func (sp *Spec) ActionName(l model.Label) string { return names().ActionName(l, semaphore.ActionName) }

// LabelString renders l with its parameters.
func (sp *Spec) LabelString(l model.Label) string {
	return names().LabelString(l, sp.Clients, sp.Spec.LabelString)
}

// isClientStep reports whether l is a step of ClientNext(c) in Semaphore
// (the others are ExpireSession, PauseClient and ResumeClient).
func isClientStep(l model.Label) bool { return l.Action < semaphore.ActExpireSession }

// module is the module's own actions over its base spec's.
func (sp *Spec) module() *foreign.Module[semaphore.State, zk.NoKind] {
	return &foreign.Module[semaphore.State, zk.NoKind]{N: sp.N(), BaseNext: sp.Spec.Next, BaseStep: sp.Spec.Step,
		Server:       func(s *semaphore.State) *zk.Server[zk.NoKind] { return &s.Server },
		IsClientStep: isClientStep, Restricted: sp.restricted,
		Client: []foreign.Action[semaphore.State]{
			{Index: ActArmOwnWatch, Step: sp.ArmOwnWatch},
			{Index: ActLearnNodeGone, Step: sp.LearnNodeGone},
			{Index: ActAcquireNodeGone, Step: sp.AcquireNodeGone},
		},
		ForeignDelete:  foreign.Action[semaphore.State]{Index: ActForeignDelete, Step: sp.ForeignDelete},
		ForeignReplace: foreign.Action[semaphore.State]{Index: ActForeignReplace, Step: sp.ForeignReplace}}
}

// Next calls emit with every successor of s in TLC's order: for each
// client, Semaphore's client steps (the restricted ones in place of
// theirs), then ArmOwnWatch, LearnNodeGone and AcquireNodeGone; then ExpireSession,
// PauseClient and ResumeClient; then ForeignDelete(q) and
// ForeignReplace(q) for each q in 0..MaxSeq.
func (sp *Spec) Next(s *semaphore.State, emit func(model.Label, *semaphore.State)) {
	sp.module().Next(s, emit)
}

// restricted is the module's guard on top of a base step's: none but for
// IgnoreOtherNotification, ListLeasesNamed and ReleaseNamed.
func (sp *Spec) restricted(s *semaphore.State, l model.Label) model.Guard {
	c := int(l.Client)
	switch l.Action {
	case semaphore.ActIgnoreNotification:
		return sp.own(s).IgnoreOther(&s.Clients, c)
	case semaphore.ActListLeases:
		return foreign.NameExists(&s.Clients, c)
	case semaphore.ActReleaseLease:
		return sp.own(s).ReleaseNamed(&s.Clients, c)
	}
	return model.Enabled
}

// Step applies the action instance l to s, writing the successor into t.
func (sp *Spec) Step(s *semaphore.State, l model.Label, t *semaphore.State) model.Guard {
	return sp.module().Step(s, l, t)
}
