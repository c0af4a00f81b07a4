package stalereads

import (
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/internal/cow"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/replicas"
	"github.com/zklock/zklock/model/zk"
)

// clientNext is StaleClientNext(c): PredecessorLock's ClientNext in its
// order, the reads made stale.
var clientNext = []uint8{recipe.ActRequestLock, recipe.ActCreateOk, recipe.ActCreateReplyLost, recipe.ActFindOwnNode,
	recipe.ActListChildren, predlock.ActWatchSecond, recipe.ActWatchPredecessor, recipe.ActPredecessorGone,
	recipe.ActGrantOnHeadGone, recipe.ActIgnoreNotification, recipe.ActGrant, predlock.ActWrite,
	recipe.ActRelease, recipe.ActCancel, recipe.ActLearnExpiry}

// Step applies the action instance l to s, writing the successor into t.
// A read's Arg is the snapshot it is answered from.
func (sp *Spec) Step(s *State, l model.Label, t *State) model.Guard {
	c := int(l.Client)
	if l.Action == ActDuplicateLands {
		return sp.duplicateLands(s, int(l.Arg), t)
	}
	if isRead(l.Action) {
		if c < 0 || c >= sp.P.N() {
			return "unknown client"
		}
		if !s.Readable(c, int(l.Arg), sp.SessionOrder) {
			return `v \in Readable(c)`
		}
		return sp.read(s, l.Action, c, int(l.Arg), t)
	}
	if g := sp.P.Step(&s.State, l, &t.State); g != model.Enabled {
		return g
	}
	s.Log(&s.Server, &t.Server, &t.View)
	t.Seen = s.Seen
	switch l.Action {
	case recipe.ActCreateOk, recipe.ActRelease, recipe.ActCancel:
		s.Replied(c, &s.Server, &t.Server, &t.View)
	case recipe.ActLearnExpiry: // a new connection: seen[c] = 0
		s.NewConnection(c, &t.View)
	case recipe.ActExpireSession: // its queued duplicate deletes stop
		s.DropDuplicates(zk.Session{C: c, K: int(l.Arg)}, &t.View)
	}
	return model.Enabled
}

// duplicateLands is LDuplicateLands(p) for p = dupes[i]: the delete lands
// at the leader while p's session is live; the clients are unchanged.
func (sp *Spec) duplicateLands(s *State, i int, t *State) model.Guard {
	t.State = s.State
	return s.DuplicateLands(&s.Server, i, &t.Server, &t.View)
}

// Next calls emit with every successor of s in TLC's order: per client,
// StaleClientNext(c)'s disjuncts in order, a read once per readable
// snapshot in increasing zxid order; then StaleEnvNext: LExpireSession(x)
// for each live session, then LDuplicateLands(p) for each p in dupes
// (no pauses, no background deletes of AsyncDelete: New refuses WithPause
// and AsyncDelete).
func (sp *Spec) Next(s *State, emit func(model.Label, *State)) {
	var t State
	try := func(l model.Label) {
		if sp.Step(s, l, &t) == model.Enabled {
			emit(l, &t)
		}
	}
	for c := range sp.P.N() {
		for _, a := range clientNext {
			if !isRead(a) {
				try(model.Label{Action: a, Client: int16(c)})
				continue
			}
			for _, v := range s.Readables(c, sp.SessionOrder) {
				try(model.Label{Action: a, Client: int16(c), Arg: int16(v)})
			}
		}
	}
	for _, x := range s.Live {
		try(model.Label{Action: recipe.ActExpireSession, Client: int16(x.C), Arg: int16(x.K)})
	}
	for i := range s.Dupes {
		try(model.Label{Action: ActDuplicateLands, Client: -1, Arg: int16(i)})
	}
}

// read is a read step of c answered from snapshot v; it raises seen[c]
// to v and leaves hist alone.
func (sp *Spec) read(s *State, a uint8, c, v int, t *State) model.Guard {
	snap, _ := s.At(v)
	var g model.Guard
	switch a {
	case recipe.ActListChildren, recipe.ActFindOwnNode:
		// Snap(v)!ListChildren(c), Snap(v)!FindOwnNode(c): predlock's step
		// on the state whose nodes are hist[v]; the leader's nodes stay.
		u := s.State
		u.Nodes = snap
		if g = sp.P.Step(&u, model.Label{Action: a, Client: int16(c)}, &t.State); g == model.Enabled {
			t.Nodes = s.Nodes
		}
	case predlock.ActWatchSecond:
		g = sp.watchSecond(s, c, snap, t)
	default:
		g = sp.watchPredecessor(s, c, snap, t)
	}
	if g == model.Enabled {
		s.Read(c, v, &t.View)
		if a == recipe.ActListChildren {
			s.QueueDuplicates(sp.DeleteDuplicates, s.SessOf(c), s.UuidOf(c), s.Node[c], snap, &t.View)
		}
	}
	return g
}

// watchSecond is StaleWatchSecond(c) on snapshot snap.
func (sp *Spec) watchSecond(s *State, c int, snap []predlock.Node, t *State) model.Guard {
	if g := s.Ready(c, recipe.PCSecond); g != model.Enabled {
		return g
	}
	t.State = s.State
	if replicas.ExistsAt(snap, predlock.Name{Seq: s.Second[c]}) {
		replicas.ArmAt(&s.Server, predlock.Name{Seq: s.Second[c]}, s.UuidOf(c), &t.Server)
	}
	t.PC = cow.With(s.PC, c, recipe.PCWatch)
	return model.Enabled
}

// watchPredecessor is StaleWatchPredecessor(c) on snapshot snap: the
// target exists there: arm (armAt) and wait; NoNode there: list again.
func (sp *Spec) watchPredecessor(s *State, c int, snap []predlock.Node, t *State) model.Guard {
	if g := s.Ready(c, recipe.PCWatch); g != model.Enabled {
		return g
	}
	t.State = s.State
	if replicas.ExistsAt(snap, s.Target[c]) {
		replicas.ArmAt(&s.Server, s.Target[c], s.UuidOf(c), &t.Server)
		t.PC = cow.With(s.PC, c, recipe.PCWait)
		return model.Enabled
	}
	t.PC = cow.With(s.PC, c, recipe.PCList)
	t.Target = cow.With(s.Target, c, predlock.NoTarget)
	t.SetSecond(c, predlock.NoNode)
	t.SetSoleBlocker(c, false)
	return model.Enabled
}
