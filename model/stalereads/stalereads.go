// Package stalereads is the Go mirror of
// spec/tla/PredecessorLockStaleReads.tla: PredecessorLock with reads
// answered by a server that lags behind the leader. The ensemble's read
// view is model/replicas' (spec/tla/ZooKeeperReplicas.tla): every write
// step logs the node set it leaves under its zxid (Hist); each client
// remembers the highest zxid it has seen (Seen); the read steps (ListChildren,
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
	"fmt"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/replicas"
	"github.com/zklock/zklock/model/tla"
	"github.com/zklock/zklock/model/zk"
	"github.com/zklock/zklock/traceevent"
)

// Module is the TLA+ module this package mirrors.
const Module = "PredecessorLockStaleReads"

// Snapshot is one entry of hist (replicas.Snapshot of PredecessorLock's
// nodes).
type Snapshot = replicas.Snapshot[zk.NoKind]

// State is one state of the spec: PredecessorLock's variables, then the
// ensemble's read view, hist and seen (replicas.View).
type State struct {
	predlock.State
	replicas.View[zk.NoKind]
}

// Spec is the state machine with its constants.
type Spec struct {
	P *predlock.Spec
	// SessionOrder: a read is answered from a snapshot at or after what the
	// client has seen (FALSE: the must-fail control).
	SessionOrder bool
	// DeleteDuplicates: a listing's duplicates of the client's node are
	// deleted in the background (ZooKeeperReplicas' dupes; FALSE: the
	// control, which leaves them). New leaves it false; the config sets it.
	DeleteDuplicates bool
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
	return State{State: sp.P.Init(), View: replicas.Init[zk.NoKind](sp.P.N())}
}

// VarNames are the spec's variables in TLC's order: PredecessorLock's,
// then this module's.
var VarNames = append(append([]string(nil), predlock.VarNames...), "hist", "seen", "dupes")

// ActionNames are the spec's names of the actions by index (predlock's
// indices): "L" before a logged step of PredecessorLock, "Stale" before a
// read.
var ActionNames = func() []traceevent.Action {
	out := make([]traceevent.Action, len(predlock.ActionNames), len(predlock.ActionNames)+1)
	for i, n := range predlock.ActionNames {
		prefix := "L"
		if isRead(uint8(i)) {
			prefix = "Stale"
		}
		out[i] = traceevent.Action(prefix + string(n))
	}
	return append(out, "LDuplicateLands")
}()

// ActDuplicateLands is LDuplicateLands(p), the module's own step: a queued
// delete of a duplicate lands. Its Label.Arg is p's index in Dupes (sorted
// by replicas.DupeLess, TLC's order of the set); Client is -1.
var ActDuplicateLands = uint8(len(ActionNames) - 1)

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
	if l.Action == ActDuplicateLands {
		return fmt.Sprintf("LDuplicateLands(dupes element %d)", l.Arg)
	}
	s := recipe.LabelString(ActionNames, sp.P.Clients, l)
	if isRead(l.Action) {
		s += fmt.Sprintf(" from snapshot %d", l.Arg)
	}
	return s
}

// AppendEncoding appends the canonical encoding of s: predlock's, then
// the view's (replicas.View.AppendEncoding).
func (s *State) AppendEncoding(b []byte) []byte {
	return s.View.AppendEncoding(s.State.AppendEncoding(b))
}

// TLA returns the state's variables as TLA+ values in VarNames order.
func (sp *Spec) TLA(s *State) []tla.Binding {
	return append(sp.P.TLA(&s.State), s.Bindings(zk.Printer[zk.NoKind]{Clients: sp.P.Clients})...)
}

// Format prints s as TLC prints a state.
func (sp *Spec) Format(s *State) string { return zk.Format(sp.TLA(s)) }

// StaleTypeOK: PredecessorLock's TypeOK and the view's
// (replicas.View.ViewTypeOK: hist[zxid] = nodes, no snapshot after zxid,
// seen in 0..zxid).
func (sp *Spec) StaleTypeOK(s *State) bool {
	return sp.P.TypeOK(&s.State) && s.ViewTypeOK(&s.Server, sp.P.N())
}

// StaleNoOrphans is NoOrphans where a node whose duplicate delete is
// queued (replicas.View.DeleteQueued) is no orphan either.
func (s *State) StaleNoOrphans() bool { return s.NoOrphansExcept(s.DeleteQueued) }
