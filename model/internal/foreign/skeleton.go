package foreign

import (
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/zk"
)

// Action is one of a module's own actions: its index (model.Label.Action)
// and its step, of a client c or, for ForeignDelete and ForeignReplace,
// of a node's seq q.
type Action[S any] struct {
	Index uint8
	Step  func(s *S, x int, t *S) model.Guard
}

// Module is what a module adds to its base spec, whose state is S, and
// what it takes from it.
type Module[S any, K zk.Kind] struct {
	N        int                                         // the number of clients
	Server   func(s *S) *zk.Server[K]                    // s's ZooKeeper server
	BaseNext func(s *S, emit func(model.Label, *S))      // the base spec's Next
	BaseStep func(s *S, l model.Label, t *S) model.Guard // the base spec's Step
	// IsClientStep reports whether l is a step of the base spec's
	// ClientNext(c) (the others are its environment's).
	IsClientStep func(l model.Label) bool
	// Restricted is the module's guard on top of a base client step's.
	Restricted func(s *S, l model.Label) model.Guard
	// Client are the module's per-client actions, in TLC's order.
	Client []Action[S]
	// ForeignDelete and ForeignReplace are the outsider's steps, the
	// module's last actions.
	ForeignDelete, ForeignReplace Action[S]
}

type step[S any] struct {
	l model.Label
	t S
}

// Next calls emit with every successor of s in TLC's order: for each
// client, the base spec's client steps (those Restricted allows), then the
// module's per-client actions; then the base spec's other steps; then
// ForeignDelete(q) and ForeignReplace(q) for each node's seq q (only
// existing nodes are enabled).
func (m *Module[S, K]) Next(s *S, emit func(model.Label, *S)) {
	var base []step[S]
	m.BaseNext(s, func(l model.Label, t *S) {
		if m.IsClientStep(l) && m.Restricted(s, l) != model.Enabled {
			return
		}
		base = append(base, step[S]{l, *t})
	})
	var t S
	i := 0
	for c := range m.N {
		for ; i < len(base) && m.IsClientStep(base[i].l) && int(base[i].l.Client) == c; i++ {
			emit(base[i].l, &base[i].t)
		}
		for _, a := range m.Client {
			l := model.Label{Action: a.Index, Client: int16(c)}
			if m.Step(s, l, &t) == model.Enabled {
				emit(l, &t)
			}
		}
	}
	for ; i < len(base); i++ {
		emit(base[i].l, &base[i].t)
	}
	for _, n := range m.Server(s).Nodes {
		for _, a := range []uint8{m.ForeignDelete.Index, m.ForeignReplace.Index} {
			l := model.Label{Action: a, Client: -1, Arg: int16(n.Seq)}
			if m.Step(s, l, &t) == model.Enabled {
				emit(l, &t)
			}
		}
	}
}

// Step applies the action instance l to s, writing the successor into t:
// the outsider's steps, the module's per-client ones, or the base spec's
// under Restricted.
func (m *Module[S, K]) Step(s *S, l model.Label, t *S) model.Guard {
	switch l.Action {
	case m.ForeignDelete.Index:
		return m.ForeignDelete.Step(s, int(l.Arg), t)
	case m.ForeignReplace.Index:
		return m.ForeignReplace.Step(s, int(l.Arg), t)
	}
	if int(l.Client) < 0 || int(l.Client) >= m.N {
		return "unknown client"
	}
	for _, a := range m.Client {
		if l.Action == a.Index {
			return a.Step(s, int(l.Client), t)
		}
	}
	if l.Action > m.ForeignReplace.Index {
		return "unknown action"
	}
	if m.IsClientStep(l) {
		if g := m.Restricted(s, l); g != model.Enabled {
			return g
		}
	}
	return m.BaseStep(s, l, t)
}
