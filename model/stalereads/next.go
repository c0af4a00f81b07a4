package stalereads

import (
	"slices"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/internal/cow"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/replicas"
	"github.com/zklock/zklock/model/zk"
)

// inSpec reports whether a is an action of StaleNext (the recipe's table
// also holds its mutants' actions, and pauses and background deletes are
// not combined with stale reads).
func (sp *Spec[S, K]) inSpec(a uint8) bool {
	return a == recipe.ActExpireSession || a == sp.ActDuplicateLands || slices.Contains(sp.ClientNext, a)
}

// Step applies the action instance l to s, writing the successor into t.
// A read's Arg is the snapshot it is answered from, and so is an unsynced
// LCancel's whose node is unknown (its listing's, listsUnsynced); any
// other step's is the recipe's (RequestLock's kind, LExpireSession's
// session k).
func (sp *Spec[S, K]) Step(s *State[S, K], l model.Label, t *State[S, K]) model.Guard {
	c := int(l.Client)
	switch {
	case !sp.inSpec(l.Action):
		return "unknown action"
	case l.Action == sp.ActDuplicateLands:
		// The clients are unchanged; the delete lands at the leader while
		// p's session is live.
		t.Lock = s.Lock
		return s.DuplicateLands(&sp.Core(&s.Lock).Server, int(l.Arg), &sp.Core(&t.Lock).Server, &t.View)
	case sp.Reads[l.Action] != 0:
		if c < 0 || c >= sp.Lock.N() {
			return "unknown client"
		}
		if !s.Readable(c, int(l.Arg), sp.SessionOrder) {
			return `v \in Readable(c)`
		}
		return sp.read(s, l.Action, c, int(l.Arg), t)
	}
	if sp.listsUnsynced(s, l) {
		if g := sp.unsyncedCancel(s, c, int(l.Arg), t); g != model.Enabled {
			return g
		}
	} else if g := sp.Lock.Step(&s.Lock, l, &t.Lock); g != model.Enabled {
		return g
	}
	from, to := &sp.Core(&s.Lock).Server, &sp.Core(&t.Lock).Server
	s.Log(from, to, &t.View)
	t.Seen = s.Seen
	switch {
	case slices.Contains(sp.Replied, l.Action): // the reply of c's write
		s.Replied(c, from, to, &t.View)
	case l.Action == recipe.ActLearnExpiry: // a new connection: seen[c] = 0
		s.NewConnection(c, &t.View)
	case l.Action == recipe.ActExpireSession: // its queued duplicate deletes stop
		s.DropDuplicates(zk.Session{C: c, K: int(l.Arg)}, &t.View)
	}
	return model.Enabled
}

// Next calls emit with every successor of s in TLC's order: per client,
// StaleClientNext(c)'s disjuncts in order (LRequestLock once per kind; a
// read, and an unsynced LCancel of a client whose node is unknown, once
// per readable snapshot in increasing zxid order; any other LCancel of
// an unsynced spec with Arg -1, no listing); then
// StaleEnvNext: LExpireSession(x) for each live session, then
// LDuplicateLands(p) for each p in dupes (no pauses, no background deletes
// of AsyncDelete: New refuses WithPause and AsyncDelete).
func (sp *Spec[S, K]) Next(s *State[S, K], emit func(model.Label, *State[S, K])) {
	var t State[S, K]
	try := func(l model.Label) {
		if sp.Step(s, l, &t) == model.Enabled {
			emit(l, &t)
		}
	}
	for c := range sp.Lock.N() {
		for _, a := range sp.ClientNext {
			switch {
			case a == recipe.ActCancel && !sp.CancelSync:
				l := model.Label{Action: a, Client: int16(c), Arg: -1}
				if !sp.listsUnsynced(s, l) {
					try(l)
					continue
				}
				for _, v := range s.Readables(c, sp.SessionOrder) {
					try(model.Label{Action: a, Client: int16(c), Arg: int16(v)})
				}
			case sp.Reads[a] != 0:
				for _, v := range s.Readables(c, sp.SessionOrder) {
					try(model.Label{Action: a, Client: int16(c), Arg: int16(v)})
				}
			case a == recipe.ActRequestLock:
				for k := range max(sp.Kinds, 1) {
					try(model.Label{Action: a, Client: int16(c), Arg: k})
				}
			default:
				try(model.Label{Action: a, Client: int16(c)})
			}
		}
	}
	for _, x := range sp.Core(&s.Lock).Live {
		try(model.Label{Action: recipe.ActExpireSession, Client: int16(x.C), Arg: int16(x.K)})
	}
	for i := range s.Dupes {
		try(model.Label{Action: sp.ActDuplicateLands, Client: -1, Arg: int16(i)})
	}
}

// read is the read step a of c answered from snapshot v; it raises
// seen[c] to v and leaves hist alone (replicas.View.Read).
func (sp *Spec[S, K]) read(s *State[S, K], a uint8, c, v int, t *State[S, K]) model.Guard {
	snap, _ := s.At(v)
	var g model.Guard
	switch sp.Reads[a] {
	case WatchTarget:
		g = sp.watchTarget(s, c, snap, t)
	case WatchSecond:
		g = sp.watchSecond(s, c, snap, t)
	default:
		// Snap(v)!ListChildren(c), Snap(v)!FindOwnNode(c): the recipe's
		// step on the state whose nodes are hist[v]; the leader's nodes
		// stay.
		u := s.Lock
		sp.Core(&u).Nodes = snap
		if g = sp.Lock.Step(&u, model.Label{Action: a, Client: int16(c)}, &t.Lock); g == model.Enabled {
			sp.Core(&t.Lock).Nodes = sp.Core(&s.Lock).Nodes
		}
	}
	if g == model.Enabled {
		s.Read(c, v, &t.View)
		if a == recipe.ActListChildren {
			r := sp.Core(&s.Lock)
			s.QueueDuplicates(sp.DeleteDuplicates, r.SessOf(c), r.UuidOf(c), r.Node[c], snap, &t.View)
		}
	}
	return g
}

// watchAt is WatchAt(c, v, at, name, Found, Gone) on snapshot snap up to
// the client's part: c's getData(name, watch=true) in control state at,
// armed where snap has the node (replicas.ArmAt: at the leader, or its
// event queued at once when the leader already deleted it). It returns
// the recipe state of t, a copy of s, and whether the node exists there,
// for the caller's Found or Gone.
func (sp *Spec[S, K]) watchAt(s *State[S, K], c int, at recipe.PC, name zk.Name[K], snap []zk.Node[K],
	t *State[S, K]) (*recipe.State[K], bool, model.Guard) {
	r := sp.Core(&s.Lock)
	if g := r.Ready(c, at); g != model.Enabled {
		return nil, false, g
	}
	t.Lock = s.Lock
	w := sp.Core(&t.Lock)
	found := replicas.ExistsAt(snap, name)
	if found {
		replicas.ArmAt(&r.Server, name, r.UuidOf(c), &w.Server)
	}
	return w, found, model.Enabled
}

// watchTarget is StaleWatchPredecessor(c) on snapshot snap: the target
// exists there: wait; NoNode there: list again.
func (sp *Spec[S, K]) watchTarget(s *State[S, K], c int, snap []zk.Node[K], t *State[S, K]) model.Guard {
	r := sp.Core(&s.Lock)
	w, found, g := sp.watchAt(s, c, recipe.PCWatch, r.Target[c], snap, t)
	switch {
	case g != model.Enabled:
		return g
	case found:
		w.PC = cow.With(r.PC, c, recipe.PCWait)
	default:
		w.PC = cow.With(r.PC, c, recipe.PCList)
		w.Target = cow.With(r.Target, c, recipe.NoTarget[K]())
		w.SetSecond(c, zk.NoNode)
		w.SetSoleBlocker(c, false)
	}
	return model.Enabled
}

// watchSecond is StaleWatchSecond(c) on snapshot snap: armed where the
// node two ahead exists there, and on to the target either way.
func (sp *Spec[S, K]) watchSecond(s *State[S, K], c int, snap []zk.Node[K], t *State[S, K]) model.Guard {
	r := sp.Core(&s.Lock)
	w, _, g := sp.watchAt(s, c, recipe.PCSecond, zk.Name[K]{Seq: r.Second[c]}, snap, t)
	if g == model.Enabled {
		w.PC = cow.With(r.PC, c, recipe.PCWatch)
	}
	return g
}

// listsUnsynced reports whether l is LCancel(c)'s THEN branch: without
// CancelSync, a client whose own node is unknown (node[c] = NoNode: after
// a lost create reply) cancels by a listing answered from snapshot l.Arg.
func (sp *Spec[S, K]) listsUnsynced(s *State[S, K], l model.Label) bool {
	c := int(l.Client)
	return l.Action == recipe.ActCancel && !sp.CancelSync && c >= 0 && c < sp.Lock.N() &&
		sp.Core(&s.Lock).Node[c] == zk.NoNode
}

// unsyncedCancel is CancelListed(c, hist[v]) (the log and seen are the
// caller's, as for any write): the recipe's Cancel deletes the nodes of
// c's uuid the leader has and snapshot v shows. It runs on the leader's
// state without those v does not show, which are then put back: they
// stay, their watches armed, and the step's zxid counts only the deletes.
func (sp *Spec[S, K]) unsyncedCancel(s *State[S, K], c, v int, t *State[S, K]) model.Guard {
	if !s.Readable(c, v, sp.SessionOrder) {
		return `v \in Readable(c)`
	}
	snap, _ := s.At(v)
	r := sp.Core(&s.Lock)
	u := r.UuidOf(c)
	unseen := func(n zk.Node[K]) bool { return n.Uuid == u && !slices.Contains(snap, n) }
	w := s.Lock
	sp.Core(&w).Nodes = cow.Filter(r.Nodes, func(n zk.Node[K]) bool { return !unseen(n) })
	if g := sp.Lock.Step(&w, model.Label{Action: recipe.ActCancel, Client: int16(c)}, &t.Lock); g != model.Enabled {
		return g
	}
	after := sp.Core(&t.Lock)
	left := after.Nodes
	after.Nodes = cow.Filter(r.Nodes, func(n zk.Node[K]) bool { return unseen(n) || slices.Contains(left, n) })
	return model.Enabled
}
