// Package stalereads is the Go mirror of
// spec/tla/PredecessorLockStaleReads.tla: PredecessorLock with reads
// answered by a server that lags behind the leader. Every write step logs
// the node set it leaves under its zxid (Hist); each client remembers the
// highest zxid it has seen (Seen); the read steps (ListChildren,
// FindOwnNode, WatchSecond, WatchPredecessor) are answered from any logged
// snapshot v with Seen[c] <= v (SessionOrder), or from any snapshot at all
// in the must-fail control.
//
// The steps that read nothing are model/predlock's, run on the embedded
// predlock.State and then logged; the stale listings run predlock's
// ListChildren and FindOwnNode on a copy of the state whose nodes are the
// snapshot's (the spec's Snap(v) == INSTANCE PredecessorLock WITH nodes <-
// hist[v]); the stale watches are written out, as in the spec.
package stalereads

import (
	"encoding/binary"
	"fmt"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/tla"
	"github.com/zklock/zklock/model/zk"
	"github.com/zklock/zklock/traceevent"
)

// Module is the TLA+ module this package mirrors.
const Module = "PredecessorLockStaleReads"

// Snapshot is one entry of hist: the node set after the write step whose
// last zxid is Zxid.
type Snapshot struct {
	Zxid  int
	Nodes []predlock.Node
}

// State is one state of the spec: PredecessorLock's variables, then hist
// (sorted by zxid) and seen (by client index).
type State struct {
	predlock.State
	Hist []Snapshot
	Seen []int
}

// Spec is the state machine with its constants.
type Spec struct {
	P *predlock.Spec
	// SessionOrder: a read is answered from a snapshot at or after what the
	// client has seen (FALSE: the must-fail control).
	SessionOrder bool
}

// New returns the Spec of PredecessorLockStaleReads with PredecessorLock's
// constants k and SessionOrder.
func New(k predlock.Constants, sessionOrder bool) (*Spec, error) {
	if k.WithPause || k.AsyncDelete {
		return nil, fmt.Errorf("PredecessorLockStaleReads: WithPause and AsyncDelete must be FALSE (ASSUME)")
	}
	p, err := predlock.New(k, predlock.Base)
	if err != nil {
		return nil, err
	}
	return &Spec{P: p, SessionOrder: sessionOrder}, nil
}

// Init is StaleInit: PredecessorLock's Init, hist = (0 :> {}), seen 0.
func (sp *Spec) Init() State {
	return State{State: sp.P.Init(), Hist: []Snapshot{{Zxid: 0}}, Seen: make([]int, sp.P.N())}
}

// VarNames are the spec's variables in TLC's order: PredecessorLock's,
// then this module's.
var VarNames = append(append([]string(nil), predlock.VarNames...), "hist", "seen")

// ActionNames are the spec's names of the actions by index (predlock's
// indices): "L" before a logged step of PredecessorLock, "Stale" before a
// read.
var ActionNames = func() []traceevent.Action {
	out := make([]traceevent.Action, len(predlock.ActionNames))
	for i, n := range predlock.ActionNames {
		prefix := "L"
		if isRead(uint8(i)) {
			prefix = "Stale"
		}
		out[i] = traceevent.Action(prefix + string(n))
	}
	return out
}()

// isRead reports whether a is one of the steps answered from a snapshot.
func isRead(a uint8) bool {
	switch a {
	case recipe.ActListChildren, recipe.ActFindOwnNode, predlock.ActWatchSecond, recipe.ActWatchPredecessor:
		return true
	}
	return false
}

// ActionName returns the spec name of l's action.
func ActionName(l model.Label) string { return recipe.ActionName(ActionNames, l.Action) }

// LabelString renders l with its parameters; a read names its snapshot.
func (sp *Spec) LabelString(l model.Label) string {
	s := recipe.LabelString(ActionNames, sp.P.Clients, l)
	if isRead(l.Action) {
		s += fmt.Sprintf(" from snapshot %d", l.Arg)
	}
	return s
}

// AppendEncoding appends the canonical encoding of s: predlock's, then
// hist and seen as zig-zag varints, lengths first.
func (s *State) AppendEncoding(b []byte) []byte {
	v := binary.AppendVarint
	b = s.State.AppendEncoding(b)
	b = v(b, int64(len(s.Hist)))
	for _, h := range s.Hist {
		b = v(v(b, int64(h.Zxid)), int64(len(h.Nodes)))
		for _, n := range h.Nodes {
			b = v(v(v(v(v(v(b, int64(n.Seq)), int64(n.Owner.C)), int64(n.Owner.K)), int64(n.Uuid.C)), int64(n.Uuid.R)), int64(n.Czxid))
		}
	}
	for _, x := range s.Seen {
		b = v(b, int64(x))
	}
	return b
}

// TLA returns the state's variables as TLA+ values in VarNames order.
func (sp *Spec) TLA(s *State) []tla.Binding {
	out := append(sp.P.TLA(&s.State), tla.Binding{Name: "hist", Value: sp.histValue(s)})
	seen := make(tla.Func, len(s.Seen))
	for c, x := range s.Seen {
		seen[c] = tla.Pair{Key: tla.ModelValue(sp.P.Clients[c]), Value: tla.Int(x)}
	}
	return append(out, tla.Binding{Name: "seen", Value: seen})
}

func (sp *Spec) histValue(s *State) tla.Value {
	p := zk.Printer[zk.NoKind]{Clients: sp.P.Clients}
	f := make(tla.Func, len(s.Hist))
	for i, h := range s.Hist {
		nodes, _ := p.Binding(&zk.Server[zk.NoKind]{Nodes: h.Nodes}, "nodes")
		f[i] = tla.Pair{Key: tla.Int(h.Zxid), Value: nodes}
	}
	return f
}

// Format prints s as TLC prints a state.
func (sp *Spec) Format(s *State) string { return zk.Format(sp.TLA(s)) }

// StaleTypeOK: PredecessorLock's TypeOK, hist[zxid] = nodes, no snapshot
// after zxid, seen in 0..zxid.
func (sp *Spec) StaleTypeOK(s *State) bool {
	if !sp.P.TypeOK(&s.State) || len(s.Hist) == 0 || len(s.Seen) != sp.P.N() {
		return false
	}
	last := s.Hist[len(s.Hist)-1]
	if last.Zxid != s.Zxid || !sameNodes(last.Nodes, s.Nodes) {
		return false
	}
	for _, x := range s.Seen {
		if x < 0 || x > s.Zxid {
			return false
		}
	}
	return true
}

func sameNodes(a, b []predlock.Node) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// snapshot returns hist[v].
func (s *State) snapshot(v int) ([]predlock.Node, bool) {
	for _, h := range s.Hist {
		if h.Zxid == v {
			return h.Nodes, true
		}
	}
	return nil, false
}

// readable reports whether v is in Readable(c).
func (sp *Spec) readable(s *State, c, v int) bool {
	_, ok := s.snapshot(v)
	return ok && (!sp.SessionOrder || s.Seen[c] <= v)
}
