package trace

import (
	"encoding/binary"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/predmarked"
	"github.com/zklock/zklock/traceevent"
)

// isMarker: a's event is a step only a marking client takes.
func isMarker(a traceevent.Action) bool {
	_, ok := markerActions[a]
	return ok
}

// markerActions are the model's indices of the marker's traced steps.
var markerActions = map[traceevent.Action]uint8{
	traceevent.Mark: predmarked.ActMark, traceevent.MarkSeen: predmarked.ActMarkSeen,
	traceevent.Rearm: predmarked.ActRearm, traceevent.GrantOnMarkedGone: predmarked.ActGrantOnMarkedGone,
	traceevent.UnmarkedGone: predmarked.ActUnmarkedGone, traceevent.WatchOwn: predmarked.ActWatchOwn,
}

// plainOnly: a's event is a waiting step only a Plain client (one that
// waits by PredecessorLock's rule) takes.
func plainOnly(a traceevent.Action) bool {
	return a == traceevent.WatchSecond || a == traceevent.PredecessorGone || a == traceevent.GrantOnHeadGone
}

// markAdapter adapts model/predmarked: PredecessorLock's steps by their
// trace names (a marking client's ListChildren and WatchPredecessor are
// MListChildren and MWatchPredecessor), and the marker's own.
type markAdapter struct {
	sp   *predmarked.Spec
	pred predAdapter
}

func (a markAdapter) specName() string       { return "PredecessorLockMarked" }
func (a markAdapter) init() predmarked.State { return a.sp.Init() }
func (a markAdapter) key(b []byte, s *predmarked.State) []byte {
	b = binary.AppendVarint(a.pred.key(b, &s.State), int64(len(s.Marks)))
	for _, m := range s.Marks {
		b = binary.AppendVarint(b, int64(m))
	}
	for c := range s.Seen {
		b = append(b, byte(s.Seen[c]), byte(s.HoldStep[c]))
	}
	return b
}
func (a markAdapter) format(s *predmarked.State) string { return a.sp.Format(s) }

func (a markAdapter) step(s *predmarked.State, action traceevent.Action, c, arg int, t *predmarked.State) model.Guard {
	idx, ok := markerActions[action]
	switch {
	case ok:
	case action == traceevent.ListChildren && a.sp.Marking(c):
		idx = predmarked.ActMListChildren
	case action == traceevent.WatchPredecessor && a.sp.Marking(c):
		idx = predmarked.ActMWatchPredecessor
	default:
		if idx, ok = predActions[action]; !ok {
			return model.Guard("no action " + action + " in PredecessorLockMarked")
		}
	}
	return a.sp.Step(s, model.Label{Action: idx, Client: int16(c), Arg: int16(arg)}, t)
}
func (a markAdapter) kindArg(kind string) (int, error) { return a.pred.kindArg(kind) }
func (a markAdapter) pc(s *predmarked.State, c int) string {
	return a.pred.pc(&s.State, c)
}
func (a markAdapter) live(s *predmarked.State, c int) bool { return a.pred.live(&s.State, c) }
func (a markAdapter) ownNodeExists(s *predmarked.State, c int) bool {
	return a.pred.ownNodeExists(&s.State, c)
}
func (a markAdapter) holding(s *predmarked.State, c int) bool { return a.pred.holding(&s.State, c) }
func (a markAdapter) nodes(s *predmarked.State) []obsNode     { return a.pred.nodes(&s.State) }
func (a markAdapter) target(s *predmarked.State, c int) (obsNode, bool) {
	return a.pred.target(&s.State, c)
}
func (a markAdapter) second(s *predmarked.State, c int) (obsNode, bool) {
	return a.pred.second(&s.State, c)
}
func (a markAdapter) sessions(s *predmarked.State) []liveSession { return a.pred.sessions(&s.State) }
func (a markAdapter) pendingDelete(s *predmarked.State, c, r int) bool {
	return a.pred.pendingDelete(&s.State, c, r)
}
func (a markAdapter) mutexHolder(*predmarked.State) (int, int, bool)  { return 0, 0, false }
func (a markAdapter) dataVersion(*predmarked.State, int) (int, bool)  { return 0, false }
func (a markAdapter) reportsNewer(_, _ *predmarked.State, _ int) bool { return false }

// markedSpec is the marker's model of lt: PredecessorLock's unbounded
// constants, the sound rule, and as Plain the clients whose events show
// PredecessorLock's waiting rule (WatchSecond, PredecessorGone,
// GrantOnHeadGone).
func markedSpec(lt *lockTrace) (*predmarked.Spec, error) {
	k := predmarked.Constants{Constants: predlock.Constants{Constants: unbounded(lt), Fencing: true}}
	for c, evs := range lt.events {
		for _, e := range evs {
			if plainOnly(e.Action) {
				k.Plain = append(k.Plain, c)
				break
			}
		}
	}
	return predmarked.New(k, false)
}
