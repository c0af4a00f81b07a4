package trace

import (
	"fmt"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/sharedlock"
	"github.com/zklock/zklock/model/zk"
	"github.com/zklock/zklock/traceevent"
)

// obsNode is what a listing can observe of a model node: its request
// (client, request number) and its kind.
type obsNode struct {
	seq    int
	c, r   int
	kind   string // "exclusive", "read", "write" or "lease"
	owner  int    // the owner session <<owner, ownerK>>
	ownerK int
}

// liveSession is a session the model's server has.
type liveSession struct {
	c, k      int
	current   bool // the session its client uses
	ownsNodes bool
}

// obsOf is what a listing observes of server node n, of the given kind.
func obsOf[K zk.Kind](n zk.Node[K], kind string) obsNode {
	return obsNode{seq: n.Seq, c: n.Uuid.C, r: n.Uuid.R, kind: kind, owner: n.Owner.C, ownerK: n.Owner.K}
}

// obsNodes is what a listing observes of the server's nodes, each of the
// kind kindOf names.
func obsNodes[K zk.Kind](nodes []zk.Node[K], kindOf func(zk.Node[K]) string) []obsNode {
	out := make([]obsNode, len(nodes))
	for i, n := range nodes {
		out[i] = obsOf(n, kindOf(n))
	}
	return out
}

// withoutCzxids copies nodes with their czxids zeroed: a key leaves them
// out (real and model czxids differ, and no event compares them).
func withoutCzxids[K zk.Kind](nodes []zk.Node[K]) []zk.Node[K] {
	out := make([]zk.Node[K], len(nodes))
	for i, n := range nodes {
		n.Czxid = 0
		out[i] = n
	}
	return out
}

// serverSessions are the sessions srv has; sessOf is the session each
// client uses (the model's Sess(c)).
func serverSessions[K zk.Kind](srv *zk.Server[K], sessOf func(int) zk.Session) []liveSession {
	out := make([]liveSession, 0, len(srv.Live))
	for _, x := range srv.Live {
		ls := liveSession{c: x.C, k: x.K, current: x == sessOf(x.C)}
		for _, n := range srv.Nodes {
			if n.Owner == x {
				ls.ownsNodes = true
				break
			}
		}
		out = append(out, ls)
	}
	return out
}

// adapter is the view the validator needs of one model: its actions by
// name and the variables the events observe.
type adapter[S any] interface {
	specName() string
	init() S
	// key appends the encoding of the part of s the validator's future
	// depends on: every variable but zxid and the czxids, the fault
	// count (unbounded here) and the tokens and fencing history, which no
	// event shows (Grant's token is not compared). Two states with one
	// key have the same futures for the validator.
	key(b []byte, s *S) []byte
	format(s *S) string
	// step applies the named action of client c (arg: RequestLock's kind
	// index, ExpireSession's k).
	step(s *S, action traceevent.Action, c, arg int, t *S) model.Guard
	// kindArg maps an event's kind to RequestLock's arg.
	kindArg(kind string) (int, error)
	pc(s *S, c int) string
	live(s *S, c int) bool
	ownNodeExists(s *S, c int) bool
	holding(s *S, c int) bool
	nodes(s *S) []obsNode
	// target returns the node c chose to watch, if it exists.
	target(s *S, c int) (obsNode, bool)
	// second returns the node two ahead c chose to watch too, if it
	// exists (PredecessorLock; SharedLock has none); for an election
	// observer, the first candidate its last listing showed after its
	// head (Election's Min(onext)), which it reads on the head's deletion.
	second(s *S, c int) (obsNode, bool)
	sessions(s *S) []liveSession
	// pendingDelete reports whether the delete of request <<c, r>> is
	// pending (sent, not yet landed).
	pendingDelete(s *S, c, r int) bool
	// mutexHolder returns the session <<c, k>> holding a semaphore's
	// internal mutex, if one does (the locks have none).
	mutexHolder(s *S) (c, k int, ok bool)
	// dataVersion returns the data version of the node client c last
	// wrote or read: an election candidate's own node, an observer's
	// watched head (the locks' and the semaphore's nodes have no data).
	dataVersion(s *S, c int) (int, bool)
	// reportsNewer says whether observer c's step from s to t made it
	// know a newer head than before (Election's known: what an observer
	// may send); false for a model without observers.
	reportsNewer(s, t *S, c int) bool
}

// predAdapter adapts model/predlock.
type predAdapter struct{ sp *predlock.Spec }

var predActions = map[traceevent.Action]uint8{}

func init() {
	for i, n := range predlock.ActionNames {
		predActions[n] = uint8(i)
	}
	for i, n := range sharedlock.ActionNames {
		sharedActions[n] = uint8(i)
	}
}

func (a predAdapter) specName() string     { return "PredecessorLock" }
func (a predAdapter) init() predlock.State { return a.sp.Init() }
func (a predAdapter) key(b []byte, s *predlock.State) []byte {
	t := *s
	t.Nodes = withoutCzxids(s.Nodes)
	t.Zxid, t.Faults, t.Grants, t.LastToken, t.ResHigh, t.ResTenure = 0, 0, 0, 0, 0, 0
	zero := make([]int, len(s.Token))
	t.Token, t.Tenure = zero, zero
	return t.AppendEncoding(b)
}
func (a predAdapter) format(s *predlock.State) string { return a.sp.Format(s) }

// watchPredecessorLost names the step that matches WatchPredecessor
// "lost": not an action of PredecessorLock or SharedLock, but their
// WatchPredecessorLost (PredecessorLockConnLoss!WatchPredecessorLostStep),
// which the adapters take by this name.
const watchPredecessorLost traceevent.Action = "WatchPredecessorLost"

// watchSecondLost names the step that matches WatchSecond "lost":
// PredecessorLock's WatchSecondLost without its budget
// (PredecessorLockConnLoss!WatchSecondLostStep).
const watchSecondLost traceevent.Action = "WatchSecondLost"

func (a predAdapter) step(s *predlock.State, action traceevent.Action, c, arg int, t *predlock.State) model.Guard {
	switch action {
	case watchPredecessorLost:
		return a.sp.WatchPredecessorLost(s, c, t)
	case watchSecondLost:
		return a.sp.WatchSecondLost(s, c, t)
	}
	idx, ok := predActions[action]
	if !ok {
		return model.Guard("no action " + action + " in PredecessorLock")
	}
	return a.sp.Step(s, model.Label{Action: idx, Client: int16(c), Arg: int16(arg)}, t)
}
func (a predAdapter) kindArg(kind string) (int, error) {
	if kind != "exclusive" {
		return 0, fmt.Errorf("kind %q on a Mutex lock", kind)
	}
	return 0, nil
}
func (a predAdapter) pc(s *predlock.State, c int) string          { return s.PC[c].String() }
func (a predAdapter) live(s *predlock.State, c int) bool          { return s.LiveC(c) }
func (a predAdapter) ownNodeExists(s *predlock.State, c int) bool { return s.OwnNodeExists(c) }
func (a predAdapter) holding(s *predlock.State, c int) bool       { return s.PC[c] == recipe.PCHold }
func (a predAdapter) nodes(s *predlock.State) []obsNode {
	return obsNodes(s.Nodes, func(predlock.Node) string { return "exclusive" })
}
func (a predAdapter) target(s *predlock.State, c int) (obsNode, bool) {
	n, ok := s.NodeAt(s.Target[c].Seq)
	if !ok || s.Target[c] == predlock.NoTarget {
		return obsNode{}, false
	}
	return obsOf(n, "exclusive"), true
}
func (a predAdapter) second(s *predlock.State, c int) (obsNode, bool) {
	n, ok := s.NodeAt(s.Second[c])
	if !ok || s.Second[c] == predlock.NoNode {
		return obsNode{}, false
	}
	return obsOf(n, "exclusive"), true
}
func (a predAdapter) sessions(s *predlock.State) []liveSession {
	return serverSessions(&s.Server, s.SessOf)
}

func (a predAdapter) mutexHolder(*predlock.State) (int, int, bool)  { return 0, 0, false }
func (a predAdapter) dataVersion(*predlock.State, int) (int, bool)  { return 0, false }
func (a predAdapter) reportsNewer(_, _ *predlock.State, _ int) bool { return false }

func (a predAdapter) pendingDelete(s *predlock.State, c, r int) bool {
	_, ok := s.PendingOf(predlock.Uuid{C: c, R: r})
	return ok
}

// sharedAdapter adapts model/sharedlock.
type sharedAdapter struct{ sp *sharedlock.Spec }

var sharedActions = map[traceevent.Action]uint8{}

func (a sharedAdapter) specName() string       { return "SharedLock" }
func (a sharedAdapter) init() sharedlock.State { return a.sp.Init() }
func (a sharedAdapter) key(b []byte, s *sharedlock.State) []byte {
	t := *s
	t.Nodes = withoutCzxids(s.Nodes)
	t.Zxid, t.Faults = 0, 0
	t.Token = make([]int, len(s.Token))
	return t.AppendEncoding(b)
}
func (a sharedAdapter) format(s *sharedlock.State) string { return a.sp.Format(s) }
func (a sharedAdapter) step(s *sharedlock.State, action traceevent.Action, c, arg int, t *sharedlock.State) model.Guard {
	if action == watchPredecessorLost {
		return a.sp.WatchPredecessorLost(s, c, t)
	}
	idx, ok := sharedActions[action]
	if !ok {
		return model.Guard("no action " + action + " in SharedLock")
	}
	return a.sp.Step(s, model.Label{Action: idx, Client: int16(c), Arg: int16(arg)}, t)
}
func (a sharedAdapter) kindArg(kind string) (int, error) {
	switch kind {
	case "read":
		return 0, nil
	case "write":
		return 1, nil
	}
	return 0, fmt.Errorf("kind %q on a read/write lock", kind)
}
func (a sharedAdapter) pc(s *sharedlock.State, c int) string          { return s.PC[c].String() }
func (a sharedAdapter) live(s *sharedlock.State, c int) bool          { return s.LiveC(c) }
func (a sharedAdapter) ownNodeExists(s *sharedlock.State, c int) bool { return s.OwnNodeExists(c) }
func (a sharedAdapter) holding(s *sharedlock.State, c int) bool       { return s.PC[c] == recipe.PCHold }
func (a sharedAdapter) nodes(s *sharedlock.State) []obsNode {
	return obsNodes(s.Nodes, func(n sharedlock.Node) string { return n.Kind.String() })
}
func (a sharedAdapter) target(s *sharedlock.State, c int) (obsNode, bool) {
	tg := s.Target[c]
	if tg == sharedlock.NoTarget || !s.HasName(tg) {
		return obsNode{}, false
	}
	n, _ := s.NodeAt(tg.Seq)
	return obsOf(n, n.Kind.String()), true
}
func (a sharedAdapter) second(*sharedlock.State, int) (obsNode, bool) { return obsNode{}, false }
func (a sharedAdapter) sessions(s *sharedlock.State) []liveSession {
	return serverSessions(&s.Server, s.SessOf)
}

func (a sharedAdapter) mutexHolder(*sharedlock.State) (int, int, bool)  { return 0, 0, false }
func (a sharedAdapter) dataVersion(*sharedlock.State, int) (int, bool)  { return 0, false }
func (a sharedAdapter) reportsNewer(_, _ *sharedlock.State, _ int) bool { return false }

func (a sharedAdapter) pendingDelete(s *sharedlock.State, c, r int) bool {
	_, ok := s.PendingOf(sharedlock.Uuid{C: c, R: r})
	return ok
}
