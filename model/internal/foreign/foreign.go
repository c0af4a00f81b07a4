// Package foreign is what the Go mirrors of the modules that add an
// outsider and a holder's own-node watch (PredecessorLockForeign,
// SharedLockForeign, SemaphoreForeign; ElectionForeign through
// model/predforeign) share, as those modules share ZooKeeper.tla's
// ForeignDelete and ForeignReplace by INSTANCE: the own watch's
// definitions (Notified, Armed), the outsider's steps (Touchable,
// ForeignDelete, ForeignReplace: Outsider), the guards of ArmOwnWatch and
// LearnNodeGone, and the skeleton of Next and Step that weaves the
// module's actions into its base spec's (skeleton.go).
//
// Each model keeps its own OwnEvent (the name of the own node has a kind
// in SharedLock only) and passes it here.
package foreign

import (
	"slices"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/zk"
)

// Notified is Notified(c): e, c's OwnEvent(c), is delivered, not taken.
func Notified[K zk.Kind](s *zk.Server[K], c int, e zk.Watch[K]) bool {
	return slices.Contains(s.Inbox[c], e)
}

// Armed is Armed(c): the own watch e is set, or has fired and its event
// waits.
func Armed[K zk.Kind](s *zk.Server[K], c int, e zk.Watch[K]) bool {
	return slices.Contains(s.Watches, e) || Notified(s, c, e)
}

// Own is how a module's holder watches its own node, in one state: the
// arguments its steps and guards take from the model.
type Own[K zk.Kind, P recipe.PCs] struct {
	WatchOwn bool                    // the constant WatchOwn
	Hold     P                       // the pc of a holder ("hold")
	Event    func(c int) zk.Watch[K] // OwnEvent(c)
	Exists   func(c int) bool        // OwnNodeExists(c) (OwnLeaseExists(c) in Semaphore)
	ExistsG  model.Guard             // Exists's definition, as a guard
	LearnG   model.Guard             // LearnNodeGone's disjunction, as a guard
}

// holding is the guard ArmOwnWatch and LearnNodeGone start with: WatchOwn,
// c not paused and holding.
func (o *Own[K, P]) holding(s *recipe.Clients[K, P], c int) model.Guard {
	switch {
	case !o.WatchOwn:
		return `WatchOwn`
	case s.Paused[c]:
		return recipe.GNotPaused
	case s.PC[c] != o.Hold:
		return `pc[c] = "hold"`
	}
	return model.Enabled
}

// ArmOwnWatch is the module's ArmOwnWatch(c): a holder whose own watch is
// not armed, on a live session, with its own node, sets the watch on
// OwnEvent(c)'s name. copyState copies s into the successor and returns
// the successor's clients; it is called once the guard holds.
func (o *Own[K, P]) ArmOwnWatch(s *recipe.Clients[K, P], c int, copyState func() *recipe.Clients[K, P]) model.Guard {
	if g := o.holding(s, c); g != model.Enabled {
		return g
	}
	switch {
	case Armed(&s.Server, c, o.Event(c)):
		return `~Armed(c)`
	case !s.LiveC(c):
		return recipe.GLive
	case !o.Exists(c):
		return o.ExistsG
	}
	t := copyState()
	s.SetWatch(&t.Server, o.Event(c).Node, s.UuidOf(c))
	return model.Enabled
}

// LearnNodeGone is the module's LearnNodeGone(c) up to the client's end,
// which each model writes: the guard, and, when the own watch's event is
// the next c takes, taking it. copyState copies s into the successor and
// returns the successor's clients; it is called once the holder's guard
// holds.
func (o *Own[K, P]) LearnNodeGone(s *recipe.Clients[K, P], c int, copyState func() *recipe.Clients[K, P]) model.Guard {
	if g := o.holding(s, c); g != model.Enabled {
		return g
	}
	t := copyState()
	switch {
	case len(s.Inbox[c]) > 0 && s.Inbox[c][0] == o.Event(c):
		s.TakeEvent(&t.Server, c)
	case !Armed(&s.Server, c, o.Event(c)) && s.LiveC(c) && !o.Exists(c):
	default:
		return o.LearnG
	}
	return model.Enabled
}

// IgnoreOther is IgnoreOtherNotification(c)'s guard on top of
// IgnoreNotification(c)'s: a holder does not ignore its own node's event.
func (o *Own[K, P]) IgnoreOther(s *recipe.Clients[K, P], c int) model.Guard {
	if s.PC[c] == o.Hold && len(s.Inbox[c]) > 0 && s.Inbox[c][0] == o.Event(c) {
		return `~(pc[c] = "hold" /\ ZK!NextEvent(c) = OwnEvent(c))`
	}
	return model.Enabled
}

// NameExists is NameExists(c), as a guard: a node of the seq c's node has.
func NameExists[K zk.Kind, P recipe.PCs](s *recipe.Clients[K, P], c int) model.Guard {
	if _, ok := s.NodeAt(s.Node[c]); !ok {
		return `NameExists(c)`
	}
	return model.Enabled
}

// ReleaseNamed is ReleaseNamed(c)'s guard on top of the base spec's
// release: NameExists(c) /\ ~Notified(c).
func (o *Own[K, P]) ReleaseNamed(s *recipe.Clients[K, P], c int) model.Guard {
	if g := NameExists(s, c); g != model.Enabled {
		return g
	}
	if Notified(&s.Server, c, o.Event(c)) {
		return `~Notified(c)`
	}
	return model.Enabled
}

// LockClientStep reports whether l is a step of ClientNext(c) in
// PredecessorLock or SharedLock (the others are EnvNext's).
func LockClientStep(l model.Label) bool {
	switch l.Action {
	case recipe.ActExpireSession, recipe.ActPauseClient, recipe.ActResumeClient, recipe.ActDeleteLands:
		return false
	}
	return true
}

// Touchable is Touchable(n): no request whose pc satisfies busy (Acquiring,
// or Semaphore's creating or finding) is doing it with n.
func Touchable[K zk.Kind, P recipe.PCs](s *recipe.Clients[K, P], n zk.Node[K], busy func(P) bool) bool {
	for c := range s.PC {
		if busy(s.PC[c]) && n.Uuid == s.UuidOf(c) && n.Owner == s.SessOf(c) {
			return false
		}
	}
	return true
}

// Outsider is a module's outsider and what its steps' guards take from
// the model.
type Outsider[K zk.Kind, P recipe.PCs] struct {
	Session zk.Session     // the session that owns a replacement node
	Busy    func(P) bool   // the pcs Touchable(n) excludes
	Fault   func(int) bool // the base spec's Fault(faults)
}

// find checks the guards ForeignDelete(q) and ForeignReplace(q) share and
// returns the node of sequence number q: it exists, is Touchable, and the
// fault budget allows one more.
func (o *Outsider[K, P]) find(s *recipe.Clients[K, P], q int) (zk.Node[K], model.Guard) {
	n, ok := s.NodeAt(q)
	switch {
	case !ok || !Touchable(s, n, o.Busy):
		return n, `\E n \in nodes : n.seq = s /\ Touchable(n)`
	case !o.Fault(s.Faults):
		return n, `faults < MaxFaults`
	}
	return n, model.Enabled
}

// ForeignDelete is ForeignDelete(q), ZooKeeper.tla's ForeignDelete on the
// node of seq q, a fault: the outsider deletes it. copyState copies s
// into the successor and returns the successor's clients; it is called
// once the guard holds.
func (o *Outsider[K, P]) ForeignDelete(s *recipe.Clients[K, P], q int, copyState func() *recipe.Clients[K, P]) model.Guard {
	n, g := o.find(s, q)
	if g != model.Enabled {
		return g
	}
	t := copyState()
	s.DeleteNodes(&t.Server, []zk.Node[K]{n})
	t.Faults = s.Faults + 1
	return model.Enabled
}

// ForeignReplace is ForeignReplace(q), ZooKeeper.tla's ForeignReplace on
// the node of seq q, a fault: the outsider deletes it and makes one of
// the same name (so the same uuid), owned by its session, of czxid
// zxid + 2. copyState is as ForeignDelete's.
func (o *Outsider[K, P]) ForeignReplace(s *recipe.Clients[K, P], q int, copyState func() *recipe.Clients[K, P]) model.Guard {
	n, g := o.find(s, q)
	if g != model.Enabled {
		return g
	}
	t := copyState()
	repl := zk.Node[K]{Seq: q, Kind: n.Kind, Owner: o.Session, Uuid: n.Uuid, Czxid: s.Zxid + 2}
	s.Txn(&t.Server, []zk.Node[K]{n}, []zk.Node[K]{repl}, s.Watches)
	t.Zxid = s.Zxid + 2
	t.Faults = s.Faults + 1
	return model.Enabled
}

// InSessions returns nodes with the outsider's nodes owned by a session of
// Sessions instead, for the base spec's TypeOK to check FTypeOK (a node's
// owner in Sessions \cup {Outsider}).
func InSessions[K zk.Kind](nodes []zk.Node[K], outsider zk.Session) []zk.Node[K] {
	u := make([]zk.Node[K], len(nodes))
	for i, n := range nodes {
		if n.Owner == outsider {
			n.Owner = zk.Session{C: 0, K: 1} // a session of Sessions, in its place
		}
		u[i] = n
	}
	return u
}
