// Package sharedstale is the Go mirror of
// spec/tla/SharedLockStaleReads.tla: SharedLock with reads answered by a
// server that lags behind the leader. The ensemble's read view is
// model/replicas' (spec/tla/ZooKeeperReplicas.tla, shared with
// model/stalereads): every write step logs the node set it leaves under
// its zxid (Hist); each client remembers the highest zxid it has seen
// (Seen); the read steps (ListChildren, FindOwnNode, WatchPredecessor) are
// answered from any logged snapshot v with Seen[c] <= v (SessionOrder), or
// from any snapshot at all in the must-fail control.
//
// The steps that read nothing are model/sharedlock's, run on the embedded
// sharedlock.State and then logged; the stale listings run sharedlock's
// ListChildren and FindOwnNode on a copy of the state whose nodes are the
// snapshot's (the spec's Snap(v) == INSTANCE SharedLock WITH nodes <-
// hist[v]); the stale watch is written out, as in the spec.
package sharedstale

import (
	"errors"
	"fmt"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/replicas"
	"github.com/zklock/zklock/model/sharedlock"
	"github.com/zklock/zklock/model/tla"
	"github.com/zklock/zklock/model/zk"
	"github.com/zklock/zklock/traceevent"
)

// Module is the TLA+ module this package mirrors.
const Module = "SharedLockStaleReads"

// State is one state of the spec: SharedLock's variables, then the
// ensemble's read view, hist and seen (replicas.View).
type State struct {
	sharedlock.State
	replicas.View[sharedlock.Kind]
}

// ErrAssume is returned by New for constants the module's ASSUME refuses:
// pauses and background deletes are not combined with stale reads.
var ErrAssume = errors.New("WithPause and AsyncDelete must be FALSE (ASSUME)")

// Spec is the state machine with its constants.
type Spec struct {
	L *sharedlock.Spec
	// SessionOrder: a read is answered from a snapshot at or after what the
	// client has seen (FALSE: the must-fail control).
	SessionOrder bool
	// DeleteDuplicates: a listing's duplicates of the client's node are
	// deleted in the background (ZooKeeperReplicas' dupes; FALSE: the
	// control, which leaves them). New leaves it false; the config sets it.
	DeleteDuplicates bool
}

// New returns the Spec of SharedLockStaleReads with SharedLock's
// constants k and SessionOrder.
func New(k sharedlock.Constants, sessionOrder bool) (*Spec, error) {
	if k.WithPause || k.AsyncDelete {
		return nil, fmt.Errorf("%s: %w", Module, ErrAssume)
	}
	l, err := sharedlock.New(k, sharedlock.Base)
	if err != nil {
		return nil, err
	}
	return &Spec{L: l, SessionOrder: sessionOrder}, nil
}

// Init is StaleInit: SharedLock's Init, hist = (0 :> {}), seen 0.
func (sp *Spec) Init() State {
	return State{State: sp.L.Init(), View: replicas.Init[sharedlock.Kind](sp.L.N())}
}

// VarNames are the spec's variables in TLC's order: SharedLock's, then
// the read view's.
var VarNames = append(append([]string(nil), sharedlock.VarNames...), "hist", "seen", "dupes")

// ActionNames are the spec's names of the actions by index (sharedlock's
// indices): "L" before a logged step of SharedLock, "Stale" before a read.
var ActionNames = func() []traceevent.Action {
	out := make([]traceevent.Action, len(sharedlock.ActionNames), len(sharedlock.ActionNames)+1)
	for i, n := range sharedlock.ActionNames {
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
	case recipe.ActListChildren, recipe.ActFindOwnNode, recipe.ActWatchPredecessor:
		return true
	}
	return false
}

// ActionName returns the spec name of l's action.
func ActionName(l model.Label) string { return recipe.ActionName(ActionNames, l.Action) }

// LabelString renders l with its parameters: a read names its snapshot,
// LRequestLock its kind.
func (sp *Spec) LabelString(l model.Label) string {
	clients := sp.L.Clients
	switch {
	case l.Action == ActDuplicateLands:
		return fmt.Sprintf("LDuplicateLands(dupes element %d)", l.Arg)
	case isRead(l.Action):
		return recipe.LabelString(ActionNames, clients, l) + fmt.Sprintf(" from snapshot %d", l.Arg)
	case l.Action == recipe.ActRequestLock && l.Client >= 0 && int(l.Client) < len(clients) &&
		l.Arg >= 0 && int(l.Arg) < len(sharedlock.Kinds):
		return fmt.Sprintf("%s(%s, %q)", ActionName(l), clients[l.Client], sharedlock.Kinds[l.Arg].String())
	}
	return recipe.LabelString(ActionNames, clients, l)
}

// AppendEncoding appends the canonical encoding of s: sharedlock's, then
// the view's.
func (s *State) AppendEncoding(b []byte) []byte {
	return s.View.AppendEncoding(s.State.AppendEncoding(b))
}

// TLA returns the state's variables as TLA+ values in VarNames order.
func (sp *Spec) TLA(s *State) []tla.Binding {
	p := zk.Printer[sharedlock.Kind]{Clients: sp.L.Clients,
		Kind: func(k sharedlock.Kind) tla.Value { return tla.Str(k.String()) }}
	return append(sp.L.TLA(&s.State), s.Bindings(p)...)
}

// Format prints s as TLC prints a state.
func (sp *Spec) Format(s *State) string { return zk.Format(sp.TLA(s)) }

// StaleTypeOK: SharedLock's TypeOK and the view's (hist[zxid] = nodes, no
// snapshot after zxid, seen in 0..zxid).
func (sp *Spec) StaleTypeOK(s *State) bool {
	return sp.L.TypeOK(&s.State) && s.ViewTypeOK(&s.Server, sp.L.N())
}

// StaleNoOrphans is NoOrphans where a node whose duplicate delete is
// queued (replicas.View.DeleteQueued) is no orphan either.
func (s *State) StaleNoOrphans() bool { return s.NoOrphansExcept(s.DeleteQueued) }
