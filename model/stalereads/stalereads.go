// Package stalereads is the Go mirror of spec/tla/StaleReads.tla: the
// stale-read variant of a lock recipe, written once for every recipe. A
// recipe's reads are answered by a server that lags behind the leader.
// The ensemble's read view is model/replicas' (spec/tla/ZooKeeperReplicas.tla):
// every write step logs the node set it leaves under its zxid (Hist); each
// client remembers the highest zxid it has seen (Seen); a read step is
// answered from any logged snapshot v with Seen[c] <= v (SessionOrder), or
// from any snapshot at all in the must-fail control.
//
// A recipe brings its spec (Lock) and says, in a Recipe, which of its
// steps are reads and which writes' replies raise Seen; Spec runs the
// recipe's steps that read nothing on the recipe's state and logs them,
// runs its listings on a copy of the state whose nodes are the snapshot's
// (the TLA+ modules' Snap(v) == INSTANCE <Recipe> WITH nodes <- hist[v]),
// and writes the watches at a lagging server out once, on recipe.State.
// The recipes' stale modules, PredecessorLockStaleReads and
// SharedLockStaleReads, are model/specs' PredLockStale and SharedLockStale.
package stalereads

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/replicas"
	"github.com/zklock/zklock/model/tla"
	"github.com/zklock/zklock/model/zk"
	"github.com/zklock/zklock/traceevent"
)

// Module is the TLA+ module this package mirrors.
const Module = "StaleReads"

// Lock is a recipe's spec as the variant runs it: S is its state.
type Lock[S any] interface {
	N() int
	Init() S
	Step(s *S, l model.Label, t *S) model.Guard
	TypeOK(s *S) bool
	TLA(s *S) []tla.Binding
	LabelString(l model.Label) string
}

// Read is how a recipe's read step is answered from a snapshot.
type Read uint8

// The reads a recipe may have.
const (
	// Listing is the recipe's own step run on the snapshot's nodes
	// (Snap(v)!ListChildren(c), Snap(v)!FindOwnNode(c)); after
	// ListChildren the duplicates it shows are queued.
	Listing Read = iota + 1
	// WatchTarget is getData(target, watch=true) (WatchPredecessor): the
	// target exists there: arm and wait; NoNode: list again.
	WatchTarget
	// WatchSecond is getData(second, watch=true), PredecessorLock's: armed
	// where the node exists, and on to the target either way.
	WatchSecond
)

// Recipe is what a recipe's stale module says about the recipe: K is the
// kind of its node names.
type Recipe[S any, K zk.Kind] struct {
	Lock        Lock[S]
	Module      string              // the stale module, e.g. "PredecessorLockStaleReads"
	VarNames    []string            // the recipe's variables; hist, seen, dupes follow
	ActionNames []traceevent.Action // the recipe's actions by index
	// ClientNext is StaleClientNext(c): the recipe's client steps in its
	// order (an action of the recipe not listed here is not one of the
	// variant's).
	ClientNext []uint8
	Reads      map[uint8]Read // the steps answered from a snapshot
	// Replied are the writes whose reply arrives and raises seen; every
	// other step is logged and raises nothing (a lost reply, a step that
	// writes nothing).
	Replied []uint8
	Kinds   int16 // RequestLock's instances per client (Arg 0..Kinds-1); 0 means one
	Fair    bool  // the module defines StaleFairSpec
	Core    func(*S) *recipe.State[K]
	Encode  func(b []byte, s *S) []byte
	Printer zk.Printer[K]
}

// State is one state of a stale module: the recipe's variables, then the
// ensemble's read view, hist, seen and dupes.
type State[S any, K zk.Kind] struct {
	Lock S
	replicas.View[K]
}

// Spec is the state machine with its constants.
type Spec[S any, K zk.Kind] struct {
	Recipe[S, K]
	// SessionOrder: a read is answered from a snapshot at or after what the
	// client has seen (FALSE: the must-fail control).
	SessionOrder bool
	// DeleteDuplicates: a listing's duplicates of the client's node are
	// deleted in the background (ZooKeeperReplicas' dupes; FALSE: the
	// control, which leaves them). New leaves it false; the config sets it.
	DeleteDuplicates bool
	// CancelSync: Cancel's listing after a lost create reply (the own node
	// unknown) is synced, the leader's state, as impl/zklock's
	// removeOwnNodes makes it; false (the must-fail CancelUnsynced
	// configs): it is answered from any readable snapshot
	// (unsyncedCancel). New sets it true, the code's; the config sets it.
	CancelSync bool
	// ActDuplicateLands is LDuplicateLands(p), the variant's own step: a
	// queued delete of a duplicate lands. Its Label.Arg is p's index in
	// Dupes (sorted by replicas.DupeLess, TLC's order of the set); Client
	// is -1. It follows the recipe's actions.
	ActDuplicateLands uint8
	names             []traceevent.Action
}

// ErrAssume is returned by New for constants the stale modules' ASSUME
// refuses: pauses and background deletes are not combined with stale reads.
var ErrAssume = errors.New("WithPause and AsyncDelete must be FALSE (ASSUME)")

// New returns the stale-read Spec of recipe r, whose constants are k.
func New[S any, K zk.Kind](k recipe.Constants, r Recipe[S, K], sessionOrder bool) (*Spec[S, K], error) {
	if k.WithPause || k.AsyncDelete {
		return nil, fmt.Errorf("%s: %w", r.Module, ErrAssume)
	}
	sp := &Spec[S, K]{Recipe: r, SessionOrder: sessionOrder, CancelSync: true, ActDuplicateLands: uint8(len(r.ActionNames))}
	// "L" before a logged step of the recipe, "Stale" before a read.
	for i, n := range r.ActionNames {
		prefix := "L"
		if r.Reads[uint8(i)] != 0 {
			prefix = "Stale"
		}
		sp.names = append(sp.names, traceevent.Action(prefix+string(n)))
	}
	sp.names = append(sp.names, "LDuplicateLands")
	return sp, nil
}

// Init is StaleInit: the recipe's Init, hist = (0 :> {}), seen 0, no dupes.
func (sp *Spec[S, K]) Init() State[S, K] {
	return State[S, K]{Lock: sp.Lock.Init(), View: replicas.Init[K](sp.Lock.N())}
}

// VarNames are the module's variables in TLC's order.
func (sp *Spec[S, K]) VarNames() []string {
	return append(slices.Clone(sp.Recipe.VarNames), "hist", "seen", "dupes")
}

// ActionName returns the module's name of l's action.
func (sp *Spec[S, K]) ActionName(l model.Label) string { return recipe.ActionName(sp.names, l.Action) }

// LabelString renders l with its parameters: the recipe's rendering under
// the module's name; a read names its snapshot.
func (sp *Spec[S, K]) LabelString(l model.Label) string {
	if l.Action == sp.ActDuplicateLands {
		return fmt.Sprintf("LDuplicateLands(dupes element %d)", l.Arg)
	}
	s := sp.Lock.LabelString(l)
	if int(l.Action) >= len(sp.ActionNames) {
		return s
	}
	if args, ok := strings.CutPrefix(s, string(sp.ActionNames[l.Action])); ok {
		s = sp.ActionName(l) + args
	}
	if sp.Reads[l.Action] != 0 || (l.Action == recipe.ActCancel && !sp.CancelSync && l.Arg >= 0) {
		s += fmt.Sprintf(" from snapshot %d", l.Arg)
	}
	return s
}

// AppendEncoding appends the canonical encoding of s: the recipe's, then
// the view's (replicas.View.AppendEncoding).
func (sp *Spec[S, K]) AppendEncoding(b []byte, s *State[S, K]) []byte {
	return s.View.AppendEncoding(sp.Encode(b, &s.Lock))
}

// TLA returns the state's variables as TLA+ values in VarNames order.
func (sp *Spec[S, K]) TLA(s *State[S, K]) []tla.Binding {
	return append(sp.Lock.TLA(&s.Lock), s.Bindings(sp.Printer)...)
}

// Format prints s as TLC prints a state.
func (sp *Spec[S, K]) Format(s *State[S, K]) string { return zk.Format(sp.TLA(s)) }

// StaleTypeOK: the recipe's TypeOK and the view's
// (replicas.View.ViewTypeOK: hist[zxid] = nodes, no snapshot after zxid,
// seen in 0..zxid, every queued duplicate delete a live session's).
func (sp *Spec[S, K]) StaleTypeOK(s *State[S, K]) bool {
	return sp.Lock.TypeOK(&s.Lock) && s.ViewTypeOK(&sp.Core(&s.Lock).Server, sp.Lock.N())
}

// StaleNoOrphans is NoOrphans where a node whose duplicate delete is
// queued (replicas.View.DeleteQueued) is no orphan either.
func (sp *Spec[S, K]) StaleNoOrphans(s *State[S, K]) bool {
	return sp.Core(&s.Lock).NoOrphansExcept(s.DeleteQueued)
}

// Fairness is StaleFairness: WF_allVars(LDuplicateLands) (the background
// resends a duplicate's delete while its session lives) and
// WF_allVars(\E s \in Sessions : Abandoned(s) /\ LExpireSession(s)).
func (sp *Spec[S, K]) Fairness() []explore.Fairness[State[S, K]] {
	return []explore.Fairness[State[S, K]]{
		{Name: "LDuplicateLands", Takes: func(_ *State[S, K], l model.Label) bool {
			return l.Action == sp.ActDuplicateLands
		}},
		{Name: `\E s \in Sessions : Abandoned(s) /\ LExpireSession(s)`, Takes: func(s *State[S, K], l model.Label) bool {
			return l.Action == recipe.ActExpireSession && sp.Core(&s.Lock).Abandoned(zk.Session{C: int(l.Client), K: int(l.Arg)})
		}},
	}
}
