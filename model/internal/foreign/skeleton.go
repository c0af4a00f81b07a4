package foreign

import (
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/zk"
)

// Module is what a module adds to its base spec, whose state is S: each
// model implements it on an unexported type of its Spec.
type Module[S any, K zk.Kind] interface {
	// NumClients is the number of clients.
	NumClients() int
	// Actions are the module's own actions.
	Actions() Actions
	// Server is s's ZooKeeper server.
	Server(s *S) *zk.Server[K]
	// BaseNext is the base spec's Next.
	BaseNext(s *S, emit func(model.Label, *S))
	// BaseStep is the base spec's Step.
	BaseStep(s *S, l model.Label, t *S) model.Guard
	// IsClientStep reports whether l is a step of the base spec's
	// ClientNext(c) (the others are its environment's).
	IsClientStep(l model.Label) bool
	// Restricted is the module's guard on top of a base client step's.
	Restricted(s *S, l model.Label) model.Guard
	// OwnStep applies the module's per-client action a of c.
	OwnStep(s *S, a uint8, c int, t *S) model.Guard
	// ForeignStep applies ForeignDelete(q) or ForeignReplace(q) (a).
	ForeignStep(s *S, a uint8, q int, t *S) model.Guard
}

// Actions are the indices (model.Label.Action) of a module's own actions:
// the per-client ones in TLC's order, then ForeignDelete and
// ForeignReplace, the last of all.
type Actions struct {
	Client                        []uint8
	ForeignDelete, ForeignReplace uint8
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
func Next[S any, K zk.Kind](m Module[S, K], s *S, emit func(model.Label, *S)) {
	var base []step[S]
	m.BaseNext(s, func(l model.Label, t *S) {
		if m.IsClientStep(l) && m.Restricted(s, l) != model.Enabled {
			return
		}
		base = append(base, step[S]{l, *t})
	})
	acts := m.Actions()
	var t S
	i := 0
	for c := range m.NumClients() {
		for ; i < len(base) && m.IsClientStep(base[i].l) && int(base[i].l.Client) == c; i++ {
			emit(base[i].l, &base[i].t)
		}
		for _, a := range acts.Client {
			l := model.Label{Action: a, Client: int16(c)}
			if Step(m, s, l, &t) == model.Enabled {
				emit(l, &t)
			}
		}
	}
	for ; i < len(base); i++ {
		emit(base[i].l, &base[i].t)
	}
	for _, n := range m.Server(s).Nodes {
		for _, a := range []uint8{acts.ForeignDelete, acts.ForeignReplace} {
			l := model.Label{Action: a, Client: -1, Arg: int16(n.Seq)}
			if Step(m, s, l, &t) == model.Enabled {
				emit(l, &t)
			}
		}
	}
}

// Step applies the action instance l to s, writing the successor into t:
// the outsider's steps, the module's per-client ones, or the base spec's
// under Restricted.
func Step[S any, K zk.Kind](m Module[S, K], s *S, l model.Label, t *S) model.Guard {
	acts := m.Actions()
	if l.Action == acts.ForeignDelete || l.Action == acts.ForeignReplace {
		return m.ForeignStep(s, l.Action, int(l.Arg), t)
	}
	if int(l.Client) < 0 || int(l.Client) >= m.NumClients() {
		return "unknown client"
	}
	c := int(l.Client)
	for _, a := range acts.Client {
		if l.Action == a {
			return m.OwnStep(s, a, c, t)
		}
	}
	if l.Action > acts.ForeignReplace {
		return "unknown action"
	}
	if m.IsClientStep(l) {
		if g := m.Restricted(s, l); g != model.Enabled {
			return g
		}
	}
	return m.BaseStep(s, l, t)
}
