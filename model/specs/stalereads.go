package specs

import (
	"fmt"

	"github.com/zklock/zklock/internal/tlccfg"
	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/sharedlock"
	"github.com/zklock/zklock/model/stalereads"
	"github.com/zklock/zklock/model/tla"
	"github.com/zklock/zklock/model/zk"
)

// PredLockStale is PredecessorLockStaleReads: PredecessorLock (sp, the
// Base variant) with its reads ListChildren, FindOwnNode, WatchSecond and
// WatchPredecessor answered from a snapshot.
func PredLockStale(sp *predlock.Spec) stalereads.Recipe[predlock.State, zk.NoKind] {
	return stalereads.Recipe[predlock.State, zk.NoKind]{
		Lock: sp, Module: "PredecessorLockStaleReads", VarNames: predlock.VarNames, ActionNames: predlock.ActionNames,
		ClientNext: sp.ClientNext(),
		Reads: map[uint8]stalereads.Read{recipe.ActListChildren: stalereads.Listing, recipe.ActFindOwnNode: stalereads.Listing,
			predlock.ActWatchSecond: stalereads.WatchSecond, recipe.ActWatchPredecessor: stalereads.WatchTarget},
		Replied: []uint8{recipe.ActCreateOk, recipe.ActRelease, recipe.ActCancel},
		Core:    func(s *predlock.State) *recipe.State[zk.NoKind] { return &s.State },
		Encode:  func(b []byte, s *predlock.State) []byte { return s.AppendEncoding(b) },
		Printer: zk.Printer[zk.NoKind]{Clients: sp.Clients},
	}
}

// SharedLockStale is SharedLockStaleReads: SharedLock (sp, the Base
// variant) with its reads ListChildren, FindOwnNode and WatchPredecessor
// answered from a snapshot; Downgrade's reply raises seen as a create's
// does, and the module defines StaleFairSpec.
func SharedLockStale(sp *sharedlock.Spec) stalereads.Recipe[sharedlock.State, sharedlock.Kind] {
	return stalereads.Recipe[sharedlock.State, sharedlock.Kind]{
		Lock: sp, Module: "SharedLockStaleReads", VarNames: sharedlock.VarNames, ActionNames: sharedlock.ActionNames,
		ClientNext: sp.ClientNext(),
		Reads: map[uint8]stalereads.Read{recipe.ActListChildren: stalereads.Listing, recipe.ActFindOwnNode: stalereads.Listing,
			recipe.ActWatchPredecessor: stalereads.WatchTarget},
		Replied: []uint8{recipe.ActCreateOk, sharedlock.ActDowngrade, recipe.ActRelease, recipe.ActCancel},
		Kinds:   int16(len(sharedlock.Kinds)),
		Fair:    true,
		Core:    func(s *sharedlock.State) *recipe.State[sharedlock.Kind] { return &s.State },
		Encode:  func(b []byte, s *sharedlock.State) []byte { return s.AppendEncoding(b) },
		Printer: zk.Printer[sharedlock.Kind]{Clients: sp.Clients,
			Kind: func(k sharedlock.Kind) tla.Value { return tla.Str(k.String()) }},
	}
}

// loadStaleReads builds the model of a config of a recipe's stale module:
// the recipe's constants, SessionOrder, DeleteDuplicates and CancelSync;
// StaleSpec, or StaleFairSpec where the module defines it.
func loadStaleReads(module string, m tlccfg.Model) (Instance, error) {
	r := newConstReader(m)
	var v staleConstants
	more := func(r *constReader) {
		v = staleConstants{r.bool("SessionOrder"), r.bool("DeleteDuplicates"), r.bool("CancelSync")}
	}
	if module == "PredecessorLockStaleReads" {
		k, err := predLockConstants(r, more)
		if err != nil {
			return nil, err
		}
		p, err := predlock.New(k, predlock.Base)
		return staleInstance(module, m, k.Constants, v, p, err, PredLockStale, PredLockSpec)
	}
	k := r.sharedLockConstants()
	more(r)
	if err := r.done(); err != nil {
		return nil, err
	}
	l, err := sharedlock.New(k, sharedlock.Base)
	return staleInstance(module, m, k.Constants, v, l, err, SharedLockStale, SharedLockSpec)
}

// staleConstants are a stale module's own constants: SessionOrder,
// DeleteDuplicates and CancelSync.
type staleConstants struct{ order, dupes, cancelSync bool }

// staleOwn are the invariants a stale module adds to its recipe's.
var staleOwn = map[string]bool{"StaleTypeOK": true, "StaleNoOrphans": true}

// recipeInvariants returns the invariants of m its recipe's model checks.
func recipeInvariants(m tlccfg.Model) []string {
	var out []string
	for _, name := range m.Invariants {
		if !staleOwn[name] {
			out = append(out, name)
		}
	}
	return out
}

// staleInstance builds the model of config m of module, the stale-read
// variant (recipeOf) of the recipe spec lock (err: the error building it)
// whose constants are k and v, with the recipe's invariants and
// properties of m (spec: the recipe's explorer spec, without fairness).
func staleInstance[L any, S any, K zk.Kind](module string, m tlccfg.Model, k recipe.Constants, v staleConstants,
	lock L, err error, recipeOf func(L) stalereads.Recipe[S, K],
	spec func(L, bool, []string, []string) (*explore.Spec[S], error)) (Instance, error) {
	if err != nil {
		return nil, err
	}
	es, err := spec(lock, false, recipeInvariants(m), m.Properties)
	if err != nil {
		return nil, err
	}
	r := recipeOf(lock)
	specName, err := specOf(m)
	if err != nil {
		return nil, err
	}
	if specName != "StaleSpec" && (specName != "StaleFairSpec" || !r.Fair) {
		return nil, fmt.Errorf("specs: module %s has no specification %s", module, specName)
	}
	sp, err := stalereads.New(k, r, v.order)
	if err != nil {
		return nil, err
	}
	sp.DeleteDuplicates, sp.CancelSync = v.dupes, v.cancelSync
	st, err := StaleSpec(sp, es, m.Invariants)
	if err != nil {
		return nil, err
	}
	if specName == "StaleFairSpec" {
		st.Fairness = sp.Fairness()
	}
	st.Name = module + "!" + specName
	st.CheckDeadlock = m.CheckDeadlock
	return &instance[stalereads.State[S, K]]{spec: st, format: sp.Format}, nil
}

// StaleSpec returns the explorer's view of sp: the named invariants in
// their order, StaleTypeOK and StaleNoOrphans the variant's, the others
// the recipe's from es (built with them), and es's properties, each on
// the recipe's part of the state.
func StaleSpec[S any, K zk.Kind](sp *stalereads.Spec[S, K], es *explore.Spec[S], invariants []string) (*explore.Spec[stalereads.State[S, K]], error) {
	type state = stalereads.State[S, K]
	st := &explore.Spec[state]{
		Name: sp.Module, Init: func() []state { return []state{sp.Init()} }, Next: sp.Next, Step: sp.Step,
		Encode: sp.AppendEncoding, ActionName: sp.ActionName, LabelString: sp.LabelString, View: sp.TLA,
	}
	own := map[string]func(*state) bool{"StaleTypeOK": sp.StaleTypeOK, "StaleNoOrphans": sp.StaleNoOrphans}
	base := map[string]func(*S) bool{}
	for _, inv := range es.Invariants {
		base[inv.Name] = inv.Holds
	}
	for _, name := range invariants {
		f := own[name]
		if g, ok := base[name]; ok {
			f = func(s *state) bool { return g(&s.Lock) }
		}
		if f == nil {
			return nil, fmt.Errorf("specs: %s has no invariant %s", sp.Module, name)
		}
		st.Invariants = append(st.Invariants, explore.Invariant[state]{Name: name, Holds: f})
	}
	for _, a := range es.Actions {
		st.Actions = append(st.Actions, explore.ActionProperty[state]{Name: a.Name,
			Holds: func(s, t *state) bool { return a.Holds(&s.Lock, &t.Lock) }})
	}
	for _, p := range es.Temporal {
		st.Temporal = append(st.Temporal, explore.LeadsTo[state]{Name: p.Name, N: p.N, Param: p.Param,
			P: func(s *state, i int) bool { return p.P(&s.Lock, i) },
			Q: func(s *state, i int) bool { return p.Q(&s.Lock, i) }})
	}
	return st, nil
}
