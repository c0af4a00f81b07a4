package ownwatch

import (
	"slices"
	"strconv"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/internal/cow"
	"github.com/zklock/zklock/model/zk"
)

// Action indices (model.Label.Action): ClientNext's disjuncts in order,
// then EnvNext's.
const (
	ActRequestLock uint8 = iota
	ActListChildren
	ActArmOwnWatch
	ActPredecessorGone
	ActLearnNodeGone
	ActIgnoreNotification
	ActRelease
	ActGuardSend
	ActGuardLands
	ActGuardReply
	ActForeignDelete
	ActForeignReplace
	numActions
)

// ActionNames are the spec's names of the actions, by index.
var ActionNames = [numActions]string{"RequestLock", "ListChildren", "ArmOwnWatch", "PredecessorGone", "LearnNodeGone",
	"IgnoreNotification", "Release", "GuardSend", "GuardLands", "GuardReply", "ForeignDelete", "ForeignReplace"}

type clientAction = func(sp *Spec, s *State, c int, t *State) model.Guard

var clientActions = [ActForeignDelete]clientAction{
	(*Spec).RequestLock, (*Spec).ListChildren, (*Spec).ArmOwnWatch, (*Spec).PredecessorGone, (*Spec).LearnNodeGone,
	(*Spec).IgnoreNotification, (*Spec).Release, (*Spec).GuardSend, (*Spec).GuardLands, (*Spec).GuardReply,
}

// Next calls emit with every successor of s in TLC's order: for each
// client, its actions in ClientNext's order; then, for each sequence
// number q in 0..MaxSeq, ForeignDelete(q) and ForeignReplace(q).
func (sp *Spec) Next(s *State, emit func(model.Label, *State)) {
	var t State
	for c := range sp.N() {
		for a, act := range clientActions {
			if act(sp, s, c, &t) == model.Enabled {
				emit(model.Label{Action: uint8(a), Client: int16(c)}, &t)
			}
		}
	}
	for q := 0; q <= sp.MaxSeq; q++ {
		if sp.ForeignDelete(s, q, &t) == model.Enabled {
			emit(model.Label{Action: ActForeignDelete, Client: -1, Arg: int16(q)}, &t)
		}
		if sp.ForeignReplace(s, q, &t) == model.Enabled {
			emit(model.Label{Action: ActForeignReplace, Client: -1, Arg: int16(q)}, &t)
		}
	}
}

// Step applies the action instance l to s, writing the successor into t.
func (sp *Spec) Step(s *State, l model.Label, t *State) model.Guard {
	switch {
	case l.Action == ActForeignDelete:
		return sp.ForeignDelete(s, int(l.Arg), t)
	case l.Action == ActForeignReplace:
		return sp.ForeignReplace(s, int(l.Arg), t)
	case l.Action >= numActions:
		return "unknown action"
	case l.Client < 0 || int(l.Client) >= sp.N():
		return "unknown client"
	}
	return clientActions[l.Action](sp, s, int(l.Client), t)
}

// ActionName returns the spec name of l's action.
func (sp *Spec) ActionName(l model.Label) string {
	if l.Action < numActions {
		return ActionNames[l.Action]
	}
	return "?"
}

// LabelString renders l with its parameter, e.g. "GuardSend(c1)",
// "ForeignDelete(0)".
func (sp *Spec) LabelString(l model.Label) string {
	name := sp.ActionName(l)
	if l.Action == ActForeignDelete || l.Action == ActForeignReplace {
		return name + "(" + strconv.Itoa(int(l.Arg)) + ")"
	}
	if l.Client >= 0 && int(l.Client) < sp.N() {
		return name + "(" + sp.Clients[l.Client] + ")"
	}
	return name
}

// RequestLock is RequestLock(c).
func (sp *Spec) RequestLock(s *State, c int, t *State) model.Guard {
	switch {
	case s.PC[c] != Idle:
		return `pc[c] = "idle"`
	case s.ReqNo[c] >= sp.MaxRequests:
		return `reqNo[c] < MaxRequests`
	case s.GW[c] != None:
		return `gw[c] = "none"`
	case !s.ZK.CanCreate(sp.MaxSeq):
		return zk.GSeq
	}
	*t = *s
	s.ZK.CreateNode(&t.ZK, zk.NoKind{}, sess(c), zk.Uuid{C: c, R: s.ReqNo[c] + 1})
	t.ReqNo = cow.With(s.ReqNo, c, s.ReqNo[c]+1)
	t.Node = cow.With(s.Node, c, s.ZK.NextSeq)
	t.PC = cow.With(s.PC, c, List)
	return model.Enabled
}

// ListChildren is ListChildren(c).
func (sp *Spec) ListChildren(s *State, c int, t *State) model.Guard {
	if s.PC[c] != List {
		return `pc[c] = "list"`
	}
	*t = *s
	switch {
	case !OwnNodeExists(s, c):
		idle(t, c)
	case s.ZK.Nodes[0].Seq == s.Node[c]: // nodes are sorted by seq
		t.PC = cow.With(s.PC, c, Hold)
	default:
		pred := zk.NoNode
		for _, n := range s.ZK.Nodes {
			if n.Seq < s.Node[c] {
				pred = n.Seq
			}
		}
		s.ZK.SetWatch(&t.ZK, zk.Name[zk.NoKind]{Seq: pred}, uuid(s, c))
		t.PC = cow.With(s.PC, c, Wait)
	}
	return model.Enabled
}

// ArmOwnWatch is ArmOwnWatch(c).
func (sp *Spec) ArmOwnWatch(s *State, c int, t *State) model.Guard {
	switch {
	case !sp.WatchOwn:
		return `WatchOwn`
	case s.PC[c] != Hold:
		return `pc[c] = "hold"`
	case s.Armed[c]:
		return `~armed[c]`
	}
	*t = *s
	if OwnNodeExists(s, c) {
		s.ZK.SetWatch(&t.ZK, zk.Name[zk.NoKind]{Seq: s.Node[c]}, uuid(s, c))
		t.Armed = cow.With(s.Armed, c, true)
	} else {
		idle(t, c)
	}
	return model.Enabled
}

// PredecessorGone is PredecessorGone(c).
func (sp *Spec) PredecessorGone(s *State, c int, t *State) model.Guard {
	switch {
	case s.PC[c] != Wait:
		return `pc[c] = "wait"`
	case !s.ZK.HasEvent(c):
		return `ZK!HasEvent(c)`
	case s.ZK.NextEvent(c).Req != uuid(s, c):
		return `ZK!NextEvent(c).req = Uuid(c)`
	}
	*t = *s
	s.ZK.TakeEvent(&t.ZK, c)
	t.PC = cow.With(s.PC, c, List)
	return model.Enabled
}

// LearnNodeGone is LearnNodeGone(c).
func (sp *Spec) LearnNodeGone(s *State, c int, t *State) model.Guard {
	switch {
	case s.PC[c] != Hold:
		return `pc[c] = "hold"`
	case !s.ZK.HasEvent(c):
		return `ZK!HasEvent(c)`
	case s.ZK.NextEvent(c) != ownEvent(s, c):
		return `ZK!NextEvent(c) = OwnEvent(c)`
	}
	*t = *s
	s.ZK.TakeEvent(&t.ZK, c)
	idle(t, c)
	return model.Enabled
}

// IgnoreNotification is IgnoreNotification(c).
func (sp *Spec) IgnoreNotification(s *State, c int, t *State) model.Guard {
	switch {
	case !s.ZK.HasEvent(c):
		return `ZK!HasEvent(c)`
	case s.PC[c] == Wait && s.ZK.NextEvent(c).Req == uuid(s, c):
		return `~(pc[c] = "wait" /\ ZK!NextEvent(c).req = Uuid(c))`
	case s.PC[c] == Hold && s.ZK.NextEvent(c) == ownEvent(s, c):
		return `~(pc[c] = "hold" /\ ZK!NextEvent(c) = OwnEvent(c))`
	}
	*t = *s
	s.ZK.TakeEvent(&t.ZK, c)
	return model.Enabled
}

// Release is Release(c).
func (sp *Spec) Release(s *State, c int, t *State) model.Guard {
	switch {
	case s.PC[c] != Hold:
		return `pc[c] = "hold"`
	case s.GW[c] != None:
		return `gw[c] = "none"`
	}
	*t = *s
	s.ZK.DeleteNodes(&t.ZK, named(s, s.Node[c]))
	idle(t, c)
	return model.Enabled
}

// GuardSend is GuardSend(c).
func (sp *Spec) GuardSend(s *State, c int, t *State) model.Guard {
	switch {
	case s.PC[c] != Hold:
		return `pc[c] = "hold"`
	case s.GW[c] != None:
		return `gw[c] = "none"`
	case sp.WatchOwn && !s.Armed[c]:
		return `WatchOwn => armed[c]`
	}
	*t = *s
	t.GW = cow.With(s.GW, c, Sent)
	t.GSeq = cow.With(s.GSeq, c, s.Node[c])
	return model.Enabled
}

// GuardLands is GuardLands(c).
func (sp *Spec) GuardLands(s *State, c int, t *State) model.Guard {
	if s.GW[c] != Sent {
		return `gw[c] = "sent"`
	}
	*t = *s
	g := Failed
	if m := named(s, s.GSeq[c]); len(m) > 0 {
		g = Theirs
		if slices.ContainsFunc(m, func(n zk.Node[zk.NoKind]) bool { return n.Owner == sess(c) }) {
			g = Ours
		}
	}
	t.GW = cow.With(s.GW, c, g)
	return model.Enabled
}

// GuardReply is GuardReply(c).
func (sp *Spec) GuardReply(s *State, c int, t *State) model.Guard {
	if s.GW[c] != Ours && s.GW[c] != Theirs && s.GW[c] != Failed {
		return `gw[c] \in {"ours", "theirs", "failed"}`
	}
	*t = *s
	held := s.PC[c] == Hold && s.Node[c] == s.GSeq[c]
	ok := s.GW[c] != Failed && held && !Notified(s, c)
	t.FalseOk = s.FalseOk || (ok && s.GW[c] == Theirs)
	if s.GW[c] == Failed && held {
		idle(t, c)
	}
	t.GW = cow.With(s.GW, c, None)
	t.GSeq = cow.With(s.GSeq, c, zk.NoNode)
	return model.Enabled
}

// foreign checks the guards the outsider's steps share and returns the
// node of sequence number q.
func (sp *Spec) foreign(s *State, q int) (zk.Node[zk.NoKind], model.Guard) {
	if s.Foreign >= sp.MaxForeign {
		return zk.Node[zk.NoKind]{}, `foreign < MaxForeign`
	}
	m := named(s, q)
	if len(m) == 0 {
		return zk.Node[zk.NoKind]{}, `Named(s) # {}`
	}
	return m[0], model.Enabled
}

// ForeignDelete is ForeignDelete(q): ZooKeeper.tla's ForeignDelete.
func (sp *Spec) ForeignDelete(s *State, q int, t *State) model.Guard {
	n, g := sp.foreign(s, q)
	if g != model.Enabled {
		return g
	}
	*t = *s
	s.ZK.DeleteNodes(&t.ZK, []zk.Node[zk.NoKind]{n})
	t.Foreign = s.Foreign + 1
	return model.Enabled
}

// ForeignReplace is ForeignReplace(q): ZooKeeper.tla's ForeignReplace,
// the replacement the outsider's node of czxid zxid + 2.
func (sp *Spec) ForeignReplace(s *State, q int, t *State) model.Guard {
	n, g := sp.foreign(s, q)
	if g != model.Enabled {
		return g
	}
	*t = *s
	repl := zk.Node[zk.NoKind]{Seq: q, Owner: Outsider, Uuid: OutsiderUuid, Czxid: s.ZK.Zxid + 2}
	s.ZK.Txn(&t.ZK, []zk.Node[zk.NoKind]{n}, []zk.Node[zk.NoKind]{repl}, s.ZK.Watches)
	t.ZK.Zxid = s.ZK.Zxid + 2
	t.Foreign = s.Foreign + 1
	return model.Enabled
}
