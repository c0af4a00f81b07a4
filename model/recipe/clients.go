package recipe

import (
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/internal/cow"
	"github.com/zklock/zklock/model/tla"
	"github.com/zklock/zklock/model/zk"
)

// PCs are a recipe's control states; "idle" is the zero value.
type PCs interface {
	~uint8
	String() string
	// Acquiring reports whether the state is in Acquiring.
	Acquiring() bool
}

// Clients is the server and the variables every recipe's clients have:
// PredecessorLock's and SharedLock's (State embeds it) and Semaphore's.
// P is the recipe's control state. Per-client functions are slices
// indexed by client.
type Clients[K zk.Kind, P PCs] struct {
	// ---- ZooKeeper server: nodes, nextSeq, zxid, live, watches, inbox, pending ----
	zk.Server[K]
	// ---- clients ----
	PC     []P    // control state
	Sess   []int  // k of the current session <<c, k>>
	ReqNo  []int  // number of the current (or last) request
	Node   []int  // seq of the own node, NoNode while unknown
	Paused []bool // process paused
	// ---- fault budget ----
	Faults int // fault steps taken so far
}

// NewClients is the initial server and clients (spec: Init): n idle
// clients on their first sessions, no node known.
func NewClients[K zk.Kind, P PCs](n int) Clients[K, P] {
	s := Clients[K, P]{Server: zk.Init[K](n), PC: make([]P, n), Sess: make([]int, n), ReqNo: make([]int, n),
		Node: make([]int, n), Paused: make([]bool, n)}
	for c := range n {
		s.Sess[c] = 1
		s.Node[c] = zk.NoNode
	}
	return s
}

// SessOf is the session client c currently uses (spec: Sess(c)).
func (s *Clients[K, P]) SessOf(c int) zk.Session { return zk.Session{C: c, K: s.Sess[c]} }

// UuidOf is the uuid of client c's current (or last) request (spec: Uuid(c)).
func (s *Clients[K, P]) UuidOf(c int) zk.Uuid { return zk.Uuid{C: c, R: s.ReqNo[c]} }

// LiveC reports whether a ZooKeeper call by c can succeed (spec: Live(c)).
func (s *Clients[K, P]) LiveC(c int) bool { return s.IsLive(s.SessOf(c)) }

// Abandoned: the server still has session x but its client has moved on to
// a newer session (spec: Abandoned(s)).
func (s *Clients[K, P]) Abandoned(x zk.Session) bool { return s.IsLive(x) && x != s.SessOf(x.C) }

// Binding returns the variable name of s as a TLA+ value, if it is one of
// the server's or these clients' variables.
func (s *Clients[K, P]) Binding(p zk.Printer[K], name string) (tla.Value, bool) {
	switch name {
	case "pc":
		return p.PerClient(func(c int) tla.Value { return tla.Str(s.PC[c].String()) }), true
	case "sess":
		return p.Ints(s.Sess), true
	case "reqNo":
		return p.Ints(s.ReqNo), true
	case "node":
		return p.Ints(s.Node), true
	case "paused":
		return p.Bools(s.Paused), true
	case "faults":
		return tla.Int(s.Faults), true
	}
	return p.Binding(&s.Server, name)
}

// Cancellable is the guard every recipe's Cancel(c) starts with
// (WithCancel, ~paused[c], pc[c] \in Acquiring, Live(c)): the request's
// context may end while it acquires.
func (s *Clients[K, P]) Cancellable(k *Constants, c int) model.Guard {
	switch {
	case !k.WithCancel:
		return `WithCancel`
	case s.Paused[c]:
		return GNotPaused
	case !s.PC[c].Acquiring():
		return `pc[c] \in Acquiring`
	case !s.LiveC(c):
		return GLive
	}
	return model.Enabled
}

// The steps every recipe writes alike on its clients. Each takes the
// recipe's whole states s and t (at picks the clients in one) so that a
// disabled step leaves t alone and an enabled one copies the recipe's own
// variables unchanged.

// LearnExpiry: the client learns its session is lost (the server expired
// it, or its own loss timer fired while the server may still have it: a
// fault) and moves to <<c, k+1>> (ZK!NewSession); the abandoned session
// stays live with its nodes until ExpireSession. idle is the recipe's
// Idle(c) on t.
func LearnExpiry[S any, K zk.Kind, P PCs](k *Constants, s *S, c int, t *S, at func(*S) *Clients[K, P], idle func(*S, int)) model.Guard {
	cs := at(s)
	if cs.Paused[c] {
		return GNotPaused
	}
	live := cs.LiveC(c)
	if live {
		switch {
		case !k.WithExpiry:
			return `Live(c) => WithExpiry`
		case cs.PC[c] == 0:
			return `Live(c) => pc[c] # "idle"`
		case !k.Fault(cs.Faults):
			return `Live(c) => Fault`
		}
	}
	*t = *s
	ct := at(t)
	if live {
		ct.Faults = cs.Faults + 1
	}
	ct.Sess = cow.With(cs.Sess, c, cs.Sess[c]+1)
	cs.NewSession(&ct.Server, zk.Session{C: c, K: cs.Sess[c] + 1})
	idle(t, c)
	return model.Enabled
}

// PauseClient: a process pause (GC, VM stall, SIGSTOP); a fault. where is
// the recipe's guard on c's control state (Enabled where c may pause).
func PauseClient[S any, K zk.Kind, P PCs](k *Constants, s *S, c int, where model.Guard, t *S, at func(*S) *Clients[K, P]) model.Guard {
	cs := at(s)
	switch {
	case !k.WithPause:
		return `WithPause`
	case cs.Paused[c]:
		return GNotPaused
	case where != model.Enabled:
		return where
	case !k.Fault(cs.Faults):
		return GFault
	}
	*t = *s
	ct := at(t)
	ct.Faults = cs.Faults + 1
	ct.Paused = cow.With(cs.Paused, c, true)
	return model.Enabled
}

// ResumeClient: the pause ends; the client still believes whatever it
// believed.
func ResumeClient[S any, K zk.Kind, P PCs](s *S, c int, t *S, at func(*S) *Clients[K, P]) model.Guard {
	if !at(s).Paused[c] {
		return `paused[c]`
	}
	*t = *s
	at(t).Paused = cow.With(at(s).Paused, c, false)
	return model.Enabled
}
