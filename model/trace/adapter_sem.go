package trace

import (
	"fmt"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/semaphore"
	"github.com/zklock/zklock/traceevent"
)

// semAdapter adapts model/semaphore (Semaphore.tla): a lock path's events
// whose actions are the semaphore's (traceevent.SemaphoreActions) are its
// leases' steps, replayed with the internal mutex as the spec abstracts
// it (the internal mutex's own events, on P/locks, are a Mutex's trace).
type semAdapter struct{ sp *semaphore.Spec }

var semActions = map[traceevent.Action]uint8{}

func init() {
	for i, n := range semaphore.ActionNames {
		semActions[traceevent.Action(n)] = uint8(i)
	}
	// The search inserts an unreported lost create by the lock's name
	// (environment); the semaphore's step of that name is its own.
	semActions[traceevent.CreateReplyLost] = semaphore.ActCreateLeaseReplyLost
}

func (a semAdapter) specName() string      { return "Semaphore" }
func (a semAdapter) init() semaphore.State { return a.sp.Init() }

// key leaves out zxid, the czxids and the fault count, as the locks' keys
// do: no event observes them.
func (a semAdapter) key(b []byte, s *semaphore.State) []byte {
	t := *s
	t.Nodes = withoutCzxids(s.Nodes)
	t.Zxid, t.Faults = 0, 0
	return t.AppendEncoding(b)
}
func (a semAdapter) format(s *semaphore.State) string { return a.sp.Format(s) }
func (a semAdapter) step(s *semaphore.State, action traceevent.Action, c, arg int, t *semaphore.State) model.Guard {
	idx, ok := semActions[action]
	if !ok {
		return model.Guard("no action " + action + " in Semaphore")
	}
	return a.sp.Step(s, model.Label{Action: idx, Client: int16(c), Arg: int16(arg)}, t)
}

// kindArg: a semaphore's events carry no kind (its lease nodes have one).
func (a semAdapter) kindArg(kind string) (int, error) {
	if kind != "" {
		return 0, fmt.Errorf("kind %q on a semaphore", kind)
	}
	return 0, nil
}
func (a semAdapter) pc(s *semaphore.State, c int) string          { return s.PC[c].String() }
func (a semAdapter) live(s *semaphore.State, c int) bool          { return s.LiveC(c) }
func (a semAdapter) ownNodeExists(s *semaphore.State, c int) bool { return s.OwnLeaseExists(c) }
func (a semAdapter) holding(s *semaphore.State, c int) bool       { return s.PC[c] == semaphore.PCHold }
func (a semAdapter) nodes(s *semaphore.State) []obsNode {
	return obsNodes(s.Nodes, func(semaphore.Node) string { return "lease" })
}

// target and second: an acquirer waits on the leases' parent, no node.
func (a semAdapter) target(*semaphore.State, int) (obsNode, bool) { return obsNode{}, false }
func (a semAdapter) second(*semaphore.State, int) (obsNode, bool) { return obsNode{}, false }
func (a semAdapter) sessions(s *semaphore.State) []liveSession {
	return serverSessions(&s.Server, s.SessOf)
}

// pendingDelete: Semaphore's deletes land in the step that sends them.
func (a semAdapter) pendingDelete(*semaphore.State, int, int) bool { return false }

func (a semAdapter) dataVersion(*semaphore.State, int) (int, bool)  { return 0, false }
func (a semAdapter) reportsNewer(_, _ *semaphore.State, _ int) bool { return false }

func (a semAdapter) mutexHolder(s *semaphore.State) (int, int, bool) {
	return s.Mutex.C, s.Mutex.K, s.Mutex != semaphore.NoSession
}
