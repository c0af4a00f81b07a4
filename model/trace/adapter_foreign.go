package trace

import (
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/predforeign"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/traceevent"
)

// foreignAdapter adapts model/predforeign (PredecessorLockForeign): a
// Mutex's lock with an outsider, whose steps are the events of the trace
// client traceevent.EnvClient (the last client, none of the model's), and
// the holder's LearnNodeGone. A Grant is matched with the arming of the
// lease's own-node watch that follows it (ArmOwnWatch): the code sends it
// with the grant, and a node gone before the watch is set ends the lease
// by LearnNodeGone all the same. A Release whose node no longer stands
// (the outsider deleted it before Unlock's delete) is LearnNodeGone too.
type foreignAdapter struct {
	predAdapter
	fs *predforeign.Spec
}

func newForeignAdapter(fs *predforeign.Spec) foreignAdapter {
	return foreignAdapter{predAdapter: predAdapter{fs.Spec}, fs: fs}
}

func (a foreignAdapter) specName() string { return "PredecessorLockForeign" }

// client reports whether c is a client of the model (not the outsider).
func (a foreignAdapter) client(c int) bool { return c >= 0 && c < a.fs.N() }

func (a foreignAdapter) step(s *predlock.State, action traceevent.Action, c, arg int, t *predlock.State) model.Guard {
	switch action {
	case traceevent.ForeignDelete:
		return a.fs.Step(s, model.Label{Action: predforeign.ActForeignDelete, Client: -1, Arg: int16(arg)}, t)
	case traceevent.ForeignReplace:
		return a.fs.Step(s, model.Label{Action: predforeign.ActForeignReplace, Client: -1, Arg: int16(arg)}, t)
	}
	if !a.client(c) {
		return model.Guard("the outsider takes no step " + action)
	}
	switch action {
	case traceevent.LearnNodeGone:
		return a.fs.LearnNodeGone(s, c, t)
	case watchPredecessorLost, watchSecondLost:
		return a.predAdapter.step(s, action, c, arg, t)
	}
	idx, ok := predActions[action]
	if !ok {
		return model.Guard("no action " + action + " in PredecessorLockForeign")
	}
	g := a.fs.Step(s, model.Label{Action: idx, Client: int16(c), Arg: int16(arg)}, t)
	if g != model.Enabled && idx == recipe.ActRelease {
		// Unlock does not wait for its own watch, nor for the watcher to
		// act on an event: its delete may find no node, the outsider's
		// delete having come first. That ends the lease with nothing
		// deleted, which is LearnNodeGone's step.
		if _, named := s.NodeAt(s.Node[c]); !named && a.fs.LearnNodeGone(s, c, t) == model.Enabled {
			return model.Enabled
		}
	}
	if g == model.Enabled && idx == recipe.ActGrant {
		var u predlock.State
		if a.fs.ArmOwnWatch(t, c, &u) == model.Enabled {
			*t = u
		}
	}
	return g
}

func (a foreignAdapter) pc(s *predlock.State, c int) string {
	if !a.client(c) {
		return "outsider"
	}
	return a.predAdapter.pc(s, c)
}
func (a foreignAdapter) live(s *predlock.State, c int) bool {
	return a.client(c) && a.predAdapter.live(s, c)
}
func (a foreignAdapter) ownNodeExists(s *predlock.State, c int) bool {
	return a.client(c) && a.predAdapter.ownNodeExists(s, c)
}
func (a foreignAdapter) holding(s *predlock.State, c int) bool {
	return a.client(c) && a.predAdapter.holding(s, c)
}
func (a foreignAdapter) target(s *predlock.State, c int) (obsNode, bool) {
	if !a.client(c) {
		return obsNode{}, false
	}
	return a.predAdapter.target(s, c)
}
func (a foreignAdapter) second(s *predlock.State, c int) (obsNode, bool) {
	if !a.client(c) {
		return obsNode{}, false
	}
	return a.predAdapter.second(s, c)
}

// Foreign: the outsider deletes (or replaces) the node the event names,
// which must be a node of the model's server (ForeignDelete(seq),
// ForeignReplace(seq)), unless the delete is unconfirmed: then no node of
// that name may stand, and nothing happens.
func (m *eventMatch[S]) Foreign() ([]succ[S], string) {
	for _, n := range m.se.a.nodes(m.s) {
		if !m.se.lt.sameNode(m.ev.Node, n) {
			continue
		}
		t, why := m.do(m.ev.Action, n.seq)
		if why != "" {
			return nil, why
		}
		out, _ := m.one(t, m.nd.maxSeq, string(m.ev.Action)+"("+m.ev.Node+")")
		if m.ev.Action == traceevent.ForeignReplace {
			// A model whose replacement may or may not carry a mark
			// (PredecessorLockMarkedForeign) has both successors.
			if u, why := m.do(foreignReplaceUnmarked, n.seq); why == "" {
				more, _ := m.one(u, m.nd.maxSeq, string(m.ev.Action)+"("+m.ev.Node+", unmarked)")
				out = append(out, more...)
			}
		}
		return out, ""
	}
	if m.ev.Action == traceevent.ForeignDelete && !confirmed(m.ev) {
		// An unconfirmed delete (the operator's session closing, which
		// deletes its replacement if it still stands) of a node already
		// gone changes nothing.
		return m.one(*m.s, m.nd.maxSeq, "nothing: no "+m.ev.Node+" stands")
	}
	return nil, "the outsider " + string(m.ev.Action) + "s " + m.ev.Node + "; in the model no such node stands"
}

// splitEnv moves the outsider's events (client traceevent.EnvClient) to
// a trace client after the candidates: it is no client of the model.
func (lt *lockTrace) splitEnv() {
	for c, name := range lt.clients {
		if name != traceevent.EnvClient {
			continue
		}
		evs := lt.events[c]
		lt.clients = append(append(lt.clients[:c:c], lt.clients[c+1:]...), name)
		lt.events = append(append(lt.events[:c:c], lt.events[c+1:]...), evs)
		lt.candidates = len(lt.clients) - 1
		lt.outsider = true
		return
	}
}
