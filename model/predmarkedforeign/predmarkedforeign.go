// Package predmarkedforeign is the Go mirror of
// spec/tla/PredecessorLockMarkedForeign.tla: the marker hand-off
// (model/predmarked) with an outsider who deletes or replaces lock nodes
// and the holder's LearnNodeGone (model/predforeign).
//
// State is predmarked.State. The marker's steps are predmarked's, the
// outsider's and LearnNodeGone predforeign's on the embedded
// predlock.State, with the marker's variables unchanged (a replacement
// has the data and version the outsider read: a marked node's mark, or,
// ForeignReplaceUnmarked, none), or reset at LearnNodeGone.
// IgnoreNotification and Release are restricted as the module's
// IgnoreOtherNotification and ReleaseByName say; ReleaseGone is Unlock's
// delete finding no node. The own-node watch is
// armed by predmarked's WatchOwn (the module has no ArmOwnWatch: one name
// per step). model/trace replays a Mutex trace with marker and operator
// steps in this model. spec/tla/README.md is the contract.
package predmarkedforeign

import (
	"fmt"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/internal/cow"
	"github.com/zklock/zklock/model/predforeign"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/predmarked"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/zk"
	"github.com/zklock/zklock/traceevent"
)

// State is the module's state: PredecessorLockMarked's variables.
type State = predmarked.State

// Constants are the module's CONSTANTS: PredecessorLockMarked's and its own.
type Constants struct {
	predmarked.Constants
	OwnWatch bool   // the holder acts on its own-node watch (the code)
	Stranger string // the outsider's model value
}

// Spec is the state machine of the module with its constants.
type Spec struct {
	*predmarked.Spec
	// F is PredecessorLockForeign on the same PredecessorLock (its WatchOwn
	// is OwnWatch): the outsider's steps, LearnNodeGone, Stale.
	F        *predforeign.Spec
	OwnWatch bool
}

// New checks the constants and returns the Spec.
func New(k Constants) (*Spec, error) {
	if k.Stranger == "" {
		return nil, fmt.Errorf("predmarkedforeign: want a Stranger")
	}
	if k.WithForgery {
		return nil, fmt.Errorf("predmarkedforeign: a forged mark is PredecessorLockMarkedForged's, not this module's")
	}
	m, err := predmarked.New(k.Constants, false)
	if err != nil {
		return nil, err
	}
	m.Outsider = k.Stranger
	return &Spec{Spec: m, F: &predforeign.Spec{Spec: m.Spec, WatchOwn: k.OwnWatch}, OwnWatch: k.OwnWatch}, nil
}

// Module returns the TLA+ module the Spec mirrors.
func (sp *Spec) Module() string { return "PredecessorLockMarkedForeign" }

// Action indices of the module's own actions, after predmarked's.
// ForeignDelete's and ForeignReplace's Arg is the node's seq (Client -1).
var (
	ActLearnNodeGone  = predmarked.ActForgeMark + 1
	ActForeignDelete  = predmarked.ActForgeMark + 2
	ActForeignReplace = predmarked.ActForgeMark + 3
	ActReleaseGone    = predmarked.ActForgeMark + 4
	ownNames          = []string{string(traceevent.LearnNodeGone), string(traceevent.ForeignDelete),
		string(traceevent.ForeignReplace), "ReleaseGone"}
)

// ActionName returns the name TLC gives l's action in the module.
func (sp *Spec) ActionName(l model.Label) string {
	switch {
	case l.Action >= ActLearnNodeGone:
		return ownNames[l.Action-ActLearnNodeGone]
	case l.Action == recipe.ActIgnoreNotification:
		return "IgnoreOtherNotification"
	case l.Action == recipe.ActRelease:
		return "ReleaseByName"
	}
	return predmarked.ActionName(l)
}

// LabelString renders l with its parameters.
func (sp *Spec) LabelString(l model.Label) string {
	switch {
	case l.Action == ActForeignDelete || l.Action == ActForeignReplace:
		return fmt.Sprintf("%s(%d)", sp.ActionName(l), l.Arg)
	case l.Action == ActLearnNodeGone || l.Action == ActReleaseGone || l.Action == recipe.ActIgnoreNotification ||
		l.Action == recipe.ActRelease:
		return fmt.Sprintf("%s(%s)", sp.ActionName(l), sp.Clients[l.Client])
	}
	return sp.Spec.LabelString(l)
}

// ownEvent is PredecessorLockForeign's OwnEvent(c).
func ownEvent(s *predlock.State, c int) predlock.Watch {
	return predlock.Watch{Node: predlock.Name{Seq: s.Node[c]}, Req: s.UuidOf(c)}
}

// armingPending is PredecessorLockForeign's ArmingPending(c): the own
// watch's arming getData is out (with OwnWatch).
func (sp *Spec) armingPending(s *State, c int) bool {
	return sp.OwnWatch && s.PC[c] == recipe.PCHold && !predforeign.Armed(&s.State, c)
}

// restricted is the module's guard on top of a marker step's: none but
// for IgnoreOtherNotification and ReleaseByName.
func (sp *Spec) restricted(s *State, l model.Label) model.Guard {
	c := int(l.Client)
	switch l.Action {
	case recipe.ActIgnoreNotification:
		if sp.OwnWatch && s.PC[c] == recipe.PCHold && len(s.Inbox[c]) > 0 && s.Inbox[c][0] == ownEvent(&s.State, c) {
			return `~(pc[c] = "hold" /\ ZK!NextEvent(c) = OwnEvent(c))`
		}
	case recipe.ActRelease:
		if _, ok := s.NodeAt(s.Node[c]); !ok {
			return `NameExists(c)`
		}
		if sp.armingPending(s, c) {
			return `~ArmingPending(c)`
		}
	}
	return model.Enabled
}

// LearnNodeGone is PredecessorLockForeign's LearnNodeGone with the
// marker's per-client variables reset (ResetMarker).
func (sp *Spec) LearnNodeGone(s *State, c int, t *State) model.Guard {
	*t = *s
	if g := sp.F.LearnNodeGone(&s.State, c, &t.State); g != model.Enabled {
		return g
	}
	resetMarker(s, c, t)
	return model.Enabled
}

// resetMarker is ResetMarker(c): seen and holdStep back to "none".
func resetMarker(s *State, c int, t *State) {
	if s.Seen[c] != predmarked.SeenNone {
		t.Seen = cow.With(s.Seen, c, predmarked.SeenNone)
	}
	if s.HoldStep[c] != predmarked.HoldNone {
		t.HoldStep = cow.With(s.HoldStep, c, predmarked.HoldNone)
	}
}

// ReleaseGone: Unlock's delete finds no node (an outsider deleted it
// first): the lease ends, nothing changes on the server.
func (sp *Spec) ReleaseGone(s *State, c int, t *State) model.Guard {
	switch {
	case s.Paused[c]:
		return recipe.GNotPaused
	case s.PC[c] != recipe.PCHold:
		return `pc[c] = "hold"`
	case !s.LiveC(c):
		return recipe.GLive
	}
	if _, ok := s.NodeAt(s.Node[c]); ok {
		return `~NameExists(c)`
	}
	if sp.armingPending(s, c) {
		return `~ArmingPending(c)`
	}
	*t = *s
	t.Idle(c)
	t.Tenure = cow.With(t.Tenure, c, 0) // PredecessorLock's Idle resets tenure too
	resetMarker(s, c, t)
	return model.Enabled
}

// ForeignDelete is PredecessorLockForeign's ForeignDelete(q), the marks
// unchanged.
func (sp *Spec) ForeignDelete(s *State, q int, t *State) model.Guard {
	*t = *s
	return sp.F.ForeignDelete(&s.State, q, &t.State)
}

// ForeignReplace is PredecessorLockForeign's ForeignReplace(q), the marks
// unchanged: the replacement has the data and version the outsider read,
// a marked node's mark (ForeignReplaceUnmarked: the read came first).
func (sp *Spec) ForeignReplace(s *State, q int, t *State) model.Guard {
	*t = *s
	return sp.F.ForeignReplace(&s.State, q, &t.State)
}

// ForeignReplaceUnmarked is ForeignReplace(q) with marks' = marks \ {q}:
// the outsider read the node before its mark. TLC names it ForeignReplace
// (one disjunct of its marks'), and only a marked node's differs.
func (sp *Spec) ForeignReplaceUnmarked(s *State, q int, t *State) model.Guard {
	if !s.Marked(q) {
		return `q \in marks`
	}
	if g := sp.ForeignReplace(s, q, t); g != model.Enabled {
		return g
	}
	t.Marks = cow.Filter(s.Marks, func(m int) bool { return m != q })
	return model.Enabled
}

// Step applies the action instance l to s, writing the successor into t.
func (sp *Spec) Step(s *State, l model.Label, t *State) model.Guard {
	switch l.Action {
	case ActForeignDelete:
		return sp.ForeignDelete(s, int(l.Arg), t)
	case ActForeignReplace:
		return sp.ForeignReplace(s, int(l.Arg), t)
	case predmarked.ActForgeMark:
		return "not an action of PredecessorLockMarkedForeign"
	}
	if int(l.Client) < 0 || int(l.Client) >= sp.N() {
		return "unknown client"
	}
	switch l.Action {
	case ActLearnNodeGone:
		return sp.LearnNodeGone(s, int(l.Client), t)
	case ActReleaseGone:
		return sp.ReleaseGone(s, int(l.Client), t)
	}
	if l.Action > ActReleaseGone {
		return "unknown action"
	}
	if g := sp.restricted(s, l); g != model.Enabled {
		return g
	}
	if l.Action == recipe.ActRelease && !s.OwnNodeExists(int(l.Client)) {
		return sp.releaseReplacement(s, int(l.Client), t)
	}
	return sp.Spec.Step(s, l, t)
}

// releaseReplacement is ReleaseByName on a name an outsider's replacement
// stands at: the delete by name removes it, in the step.
func (sp *Spec) releaseReplacement(s *State, c int, t *State) model.Guard {
	switch {
	case s.Paused[c]:
		return recipe.GNotPaused
	case s.PC[c] != recipe.PCHold:
		return `pc[c] = "hold"`
	case !s.LiveC(c):
		return recipe.GLive
	}
	n, _ := s.NodeAt(s.Node[c])
	*t = *s
	s.DeleteNodes(&t.Server, []zk.Node[zk.NoKind]{n})
	t.Idle(c)
	t.Tenure = cow.With(t.Tenure, c, 0)
	resetMarker(s, c, t)
	return model.Enabled
}

// isClientStep reports whether l is a step of MFClientNext (the others
// are the environment's).
func isClientStep(l model.Label) bool {
	switch l.Action {
	case recipe.ActExpireSession, recipe.ActPauseClient, recipe.ActResumeClient, recipe.ActDeleteLands,
		predmarked.ActForgeMark, ActForeignDelete, ActForeignReplace, ActReleaseGone:
		return false
	}
	return true
}

type step struct {
	l model.Label
	t State
}

// Next calls emit with every successor of s in TLC's order: for each
// client, predmarked's client steps (MClientNext's order, restricted),
// then LearnNodeGone; then the environment's steps as predmarked's; then
// ForeignDelete(q) and ForeignReplace(q) for each node in seq order.
func (sp *Spec) Next(s *State, emit func(model.Label, *State)) {
	var base []step
	sp.Spec.Next(s, func(l model.Label, t *State) {
		if isClientStep(l) && sp.restricted(s, l) != model.Enabled {
			return
		}
		base = append(base, step{l, *t})
	})
	var t State
	i := 0
	for c := range sp.Clients {
		gone := false // ReleaseGone(c) comes after ReleaseByName(c), before MCancel(c)
		releaseGone := func() {
			if !gone && sp.ReleaseGone(s, c, &t) == model.Enabled {
				emit(model.Label{Action: ActReleaseGone, Client: int16(c)}, &t)
			}
			gone = true
		}
		for ; i < len(base) && isClientStep(base[i].l) && int(base[i].l.Client) == c; i++ {
			if a := base[i].l.Action; a == recipe.ActCancel || a == recipe.ActLearnExpiry {
				releaseGone()
			}
			emit(base[i].l, &base[i].t)
		}
		releaseGone()
		l := model.Label{Action: ActLearnNodeGone, Client: int16(c)}
		if sp.LearnNodeGone(s, c, &t) == model.Enabled {
			emit(l, &t)
		}
	}
	for ; i < len(base); i++ {
		emit(base[i].l, &base[i].t)
	}
	for _, n := range s.Nodes {
		for _, a := range []uint8{ActForeignDelete, ActForeignReplace} {
			l := model.Label{Action: a, Client: -1, Arg: int16(n.Seq)}
			if sp.Step(s, l, &t) == model.Enabled {
				emit(l, &t)
			}
			if a == ActForeignReplace && sp.ForeignReplaceUnmarked(s, n.Seq, &t) == model.Enabled {
				emit(l, &t)
			}
		}
	}
}

// The module's properties.

// MFTypeOK is MTypeOK with a node's owner in Sessions \cup {Outsider}.
func (sp *Spec) MFTypeOK(s *State) bool {
	u := *s
	u.Nodes = make([]zk.Node[zk.NoKind], len(s.Nodes))
	for i, n := range s.Nodes {
		if n.Owner == predforeign.Outsider {
			n.Owner = zk.Session{C: 0, K: 1} // a session of Sessions, in its place
		}
		u.Nodes[i] = n
	}
	return sp.MTypeOK(&u)
}

// Invariants is the module's table of state invariants, by name:
// PredecessorLockMarked's, MFTypeOK, and PredecessorLockForeign's.
func (sp *Spec) Invariants() map[string]func(*State) bool {
	in := sp.Spec.Invariants()
	in["MFTypeOK"] = sp.MFTypeOK
	in["BelievesOnlyWhileNotified"] = func(s *State) bool { return sp.F.BelievesOnlyWhileNotified(&s.State) }
	in["BeliefExclusion"] = func(s *State) bool { return sp.F.BeliefExclusion(&s.State) }
	return in
}

var _ model.Machine[State] = (*Spec)(nil)
