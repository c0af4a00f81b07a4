package stalereads

import (
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/internal/cow"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/recipe"
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
	if isRead(l.Action) {
		if c < 0 || c >= sp.P.N() {
			return "unknown client"
		}
		if !sp.readable(s, c, int(l.Arg)) {
			return `v \in Readable(c)`
		}
		return sp.read(s, l.Action, c, int(l.Arg), t)
	}
	if g := sp.P.Step(&s.State, l, &t.State); g != model.Enabled {
		return g
	}
	t.Hist, t.Seen = s.Hist, s.Seen
	sp.log(s, t)
	switch l.Action {
	case recipe.ActCreateOk, recipe.ActRelease, recipe.ActCancel: // Replied(c)
		if t.Zxid != s.Zxid {
			t.Seen = cow.With(s.Seen, c, t.Zxid)
		}
	case recipe.ActLearnExpiry: // a new connection: seen[c] = 0
		t.Seen = cow.With(s.Seen, c, 0)
	}
	return model.Enabled
}

// log is Log: a step that advanced zxid logs the nodes it leaves under
// its last zxid.
func (sp *Spec) log(s, t *State) {
	if t.Zxid != s.Zxid {
		t.Hist = cow.Append(s.Hist, Snapshot{Zxid: t.Zxid, Nodes: t.Nodes})
	}
}

// Next calls emit with every successor of s in TLC's order: per client,
// StaleClientNext(c)'s disjuncts in order, a read once per readable
// snapshot in increasing zxid order; then StaleEnvNext: LExpireSession(x)
// for each live session (no pauses, no background deletes: New refuses
// WithPause and AsyncDelete).
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
			for _, h := range s.Hist {
				if !sp.SessionOrder || s.Seen[c] <= h.Zxid {
					try(model.Label{Action: a, Client: int16(c), Arg: int16(h.Zxid)})
				}
			}
		}
	}
	for _, x := range s.Live {
		try(model.Label{Action: recipe.ActExpireSession, Client: int16(x.C), Arg: int16(x.K)})
	}
}

// read is a read step of c answered from snapshot v; it raises seen[c]
// to v and leaves hist alone.
func (sp *Spec) read(s *State, a uint8, c, v int, t *State) model.Guard {
	snap, _ := s.snapshot(v)
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
		t.Hist = s.Hist
		t.Seen = s.Seen
		if s.Seen[c] != v {
			t.Seen = cow.With(s.Seen, c, v)
		}
	}
	return g
}

// existsAt is ExistsAt(v, seq): the snapshot has a node of that seq.
func existsAt(snap []predlock.Node, seq int) bool {
	for _, n := range snap {
		if n.Seq == seq {
			return true
		}
	}
	return false
}

// armAt is ArmAt(v, name, c) on t (a copy of s): getData with a watch on
// a server whose snapshot has the node. The leader still has it: the
// watch is armed (it fires when the delete commits). The leader deleted
// it: the server will apply the delete, and the event is delivered at
// once (the inbox is the FIFO of delivered, unconsumed events), unless
// the same event is already queued.
func armAt(s *State, c, seq int, t *State) {
	w := predlock.Watch{Node: predlock.Name{Seq: seq}, Req: s.UuidOf(c)}
	if s.HasSeq(seq) {
		s.SetWatch(&t.Server, w.Node, w.Req)
		return
	}
	for _, e := range s.Inbox[c] {
		if e == w { // Queued(c, w): one watch per path, fired once
			return
		}
	}
	t.Inbox = cow.With(s.Inbox, c, cow.Append(s.Inbox[c], w))
}

// watchSecond is StaleWatchSecond(c) on snapshot snap.
func (sp *Spec) watchSecond(s *State, c int, snap []predlock.Node, t *State) model.Guard {
	if g := s.Ready(c, recipe.PCSecond); g != model.Enabled {
		return g
	}
	t.State = s.State
	if existsAt(snap, s.Second[c]) {
		armAt(s, c, s.Second[c], t)
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
	if existsAt(snap, s.Target[c].Seq) {
		armAt(s, c, s.Target[c].Seq, t)
		t.PC = cow.With(s.PC, c, recipe.PCWait)
		return model.Enabled
	}
	t.PC = cow.With(s.PC, c, recipe.PCList)
	t.Target = cow.With(s.Target, c, predlock.NoTarget)
	t.SetSecond(c, predlock.NoNode)
	t.SetSoleBlocker(c, false)
	return model.Enabled
}
