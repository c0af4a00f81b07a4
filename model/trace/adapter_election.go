package trace

import (
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/election"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/traceevent"
)

// elecAdapter adapts model/election (Election.tla). The trace's clients
// are the candidates (one per session, their steps the lock's) followed by
// the observers (one per Observe call, see splitObservers): trace client c
// is candidate c below candidates, observer c - candidates from there on.
// The candidates' view is predAdapter's on the embedded predlock.State.
type elecAdapter struct {
	sp         *election.Spec
	pred       predAdapter
	candidates int
}

var elecActions = map[traceevent.Action]uint8{}

func init() {
	names := []traceevent.Action{traceevent.Proclaim, "ResignKeepNode", traceevent.ObserveList,
		traceevent.ObserveWatch, traceevent.ObserveNotified, dataChanged, ignoreDataChange}
	for i, n := range names {
		elecActions[n] = election.ActProclaim + uint8(i)
	}
	elecActions[traceevent.ObserveNext] = election.ActObserveNext
	elecActions[traceevent.ObserveRefresh] = election.ActObserveRefresh
}

// dataChanged and ignoreDataChange name Election's steps for a candidate's
// NodeDataChanged event: no client reports them by these names (the impl's
// contender reports the wake-up as PredecessorGone, and drops a stale event
// silently).
const (
	dataChanged      traceevent.Action = "DataChanged"
	ignoreDataChange traceevent.Action = "IgnoreDataChange"
)

func (a elecAdapter) specName() string     { return "Election" }
func (a elecAdapter) init() election.State { return a.sp.Init() }

// observer returns c's observer index, if trace client c is an observer.
func (a elecAdapter) observer(c int) (int, bool) { return c - a.candidates, c >= a.candidates }

// key: predlock's key of the candidates' part (no tokens, czxids, zxid,
// history), then the module's variables but proclaimed, a history no event
// observes.
func (a elecAdapter) key(b []byte, s *election.State) []byte {
	b = a.pred.key(b, &s.State)
	t := *s
	t.State, t.Proclaimed = predlock.State{}, nil
	return t.AppendEncoding(b)
}
func (a elecAdapter) format(s *election.State) string { return a.sp.Format(s) }

// step: the lock's steps are predAdapter's on the candidates (Election's
// are the lock's, its own variables unchanged); an observer takes none.
// IgnoreNotification, which the search applies wherever enabled, drops a
// stale NodeDataChanged event too (IgnoreDataChange).
func (a elecAdapter) step(s *election.State, action traceevent.Action, c, arg int, t *election.State) model.Guard {
	if idx, own := elecActions[action]; own {
		if o, ok := a.observer(c); ok {
			c = o
		} else if election.IsObserverAction(idx) {
			return "an observer step of a candidate"
		}
		return a.sp.Step(s, model.Label{Action: idx, Client: int16(c), Arg: int16(arg)}, t)
	}
	if _, ok := a.observer(c); ok {
		return model.Guard("an observer takes no step " + action)
	}
	if action == "IgnoreNotification" {
		if g := a.step(s, ignoreDataChange, c, 0, t); g == model.Enabled {
			return g
		}
	}
	*t = *s
	return a.pred.step(&s.State, action, c, arg, &t.State)
}
func (a elecAdapter) kindArg(kind string) (int, error) { return a.pred.kindArg(kind) }

// pc: an observer's is its opc, prefixed so that no candidate's test of a
// pc matches it.
func (a elecAdapter) pc(s *election.State, c int) string {
	if o, ok := a.observer(c); ok {
		return "observer " + s.OPC[o].String()
	}
	return a.pred.pc(&s.State, c)
}

// live: an observer's session stays live in the spec.
func (a elecAdapter) live(s *election.State, c int) bool {
	if _, ok := a.observer(c); ok {
		return true
	}
	return a.pred.live(&s.State, c)
}
func (a elecAdapter) ownNodeExists(s *election.State, c int) bool {
	_, obs := a.observer(c)
	return !obs && a.pred.ownNodeExists(&s.State, c)
}
func (a elecAdapter) holding(s *election.State, c int) bool {
	_, obs := a.observer(c)
	return !obs && a.pred.holding(&s.State, c)
}
func (a elecAdapter) nodes(s *election.State) []obsNode { return a.pred.nodes(&s.State) }

// target: a candidate's is the lock's; an observer's, the head it reads
// or watches (ohead), if it exists.
func (a elecAdapter) target(s *election.State, c int) (obsNode, bool) {
	if o, ok := a.observer(c); ok {
		if n, ok := s.NodeAt(s.OHead[o]); ok && s.OHead[o] != predlock.NoNode {
			return obsOf(n, "exclusive"), true
		}
		return obsNode{}, false
	}
	return a.pred.target(&s.State, c)
}
func (a elecAdapter) second(s *election.State, c int) (obsNode, bool) {
	if o, ok := a.observer(c); ok {
		if len(s.ONext[o]) == 0 {
			return obsNode{}, false
		}
		n, ok := s.NodeAt(s.ONext[o][0])
		return obsOf(n, "exclusive"), ok
	}
	return a.pred.second(&s.State, c)
}
func (a elecAdapter) sessions(s *election.State) []liveSession { return a.pred.sessions(&s.State) }
func (a elecAdapter) pendingDelete(s *election.State, c, r int) bool {
	return a.pred.pendingDelete(&s.State, c, r)
}
func (a elecAdapter) mutexHolder(*election.State) (int, int, bool) { return 0, 0, false }

// reportsNewer: observer c's last head reported (known) is newer in t
// than in s.
func (a elecAdapter) reportsNewer(s, t *election.State, c int) bool {
	o, ok := a.observer(c)
	return ok && t.Known[o].NewerThan(s.Known[o])
}

// dataVersion: a candidate's own node's value, an observer's omark while
// it watches (the version it read).
func (a elecAdapter) dataVersion(s *election.State, c int) (int, bool) {
	if o, ok := a.observer(c); ok {
		return s.OMark[o], s.OPC[o] == election.OWatching
	}
	if !s.OwnNodeExists(c) {
		return 0, false
	}
	return s.Value[s.Node[c]], true
}
