package specs

import (
	"fmt"

	"github.com/zklock/zklock/internal/tlccfg"
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/zk"
)

// predLockSpecs maps each specification of the PredecessorLock modules to
// the variant whose next-state relation it uses and whether it is fair.
var predLockSpecs = map[string]variant[predlock.Variant]{
	"Spec":           {predlock.Base, false},
	"FairSpec":       {predlock.Base, true},
	"HerdSpec":       {predlock.HerdParent, false},
	"NotifySpec":     {predlock.NotifyIsGrant, false},
	"BlindSpec":      {predlock.BlindRetry, false},
	"BlindFairSpec":  {predlock.BlindRetry, true},
	"DropSpec":       {predlock.DropDelete, false},
	"DropFairSpec":   {predlock.DropDelete, true},
	"ResetSpec":      {predlock.ParentReset, false},
	"SeqSpec":        {predlock.SeqToken, false},
	"SeqNoResetSpec": {predlock.SeqTokenNoReset, false},
	"StaleSpec":      {predlock.StaleEvent, false},
}

func loadPredLock(module string, m tlccfg.Model) (Instance, error) {
	specName, which, err := specIn(module, m, predLockSpecs, func(_ string, which variant[predlock.Variant]) bool {
		return which.variant == predlock.Base || which.variant.Module() == module
	})
	if err != nil {
		return nil, err
	}
	switch module {
	case "PredecessorLock", "PredecessorLockHerdParent", "PredecessorLockNotifyIsGrant", "PredecessorLockBlindRetry",
		"PredecessorLockDropDelete", "PredecessorLockParentReset", "PredecessorLockSeqToken", "PredecessorLockStaleEvent":
	default:
		return nil, fmt.Errorf("specs: no model of module %s", module)
	}
	k, err := predLockConstants(newConstReader(m), nil)
	if err != nil {
		return nil, err
	}
	sp, err := predlock.New(k, which.variant)
	if err != nil {
		return nil, err
	}
	es, err := PredLockSpec(sp, which.fair, m.Invariants, m.Properties)
	return newInstance(module, specName, m, es, err, sp.Format)
}

// predLockConstants reads PredecessorLock's constants from r, then, with
// more (if not nil), the constants a module extending it adds, and checks
// that nothing is left over.
func predLockConstants(r *constReader, more func(*constReader)) (predlock.Constants, error) {
	k := predlock.Constants{Constants: r.lockConstants(), Fencing: r.bool("Fencing")}
	rule := r.str("GrantRule")
	if more != nil {
		more(r)
	}
	if err := r.done(); err != nil {
		return k, err
	}
	var err error
	k.GrantRule, err = predlock.ParseGrantRule(rule)
	return k, err
}

// PredLockSpec returns the explorer's view of sp with the named invariants
// and properties, and with FairSpec's fairness if fair.
func PredLockSpec(sp *predlock.Spec, fair bool, invariants, properties []string) (*explore.Spec[predlock.State], error) {
	es := view[predlock.State](sp.Variant.Module(), sp, predlock.ActionName)
	invs := map[string]func(*predlock.State) bool{
		"TypeOK":                sp.TypeOK,
		"MutualExclusion":       sp.MutualExclusion,
		"NaiveExclusion":        sp.NaiveExclusion,
		"NoHerd":                sp.NoHerd,
		"NoOrphans":             (*predlock.State).NoOrphans,
		"GrantsInSequenceOrder": sp.GrantsInSequenceOrder,
		"KnownNodeExists":       sp.KnownNodeExists,
	}
	var err error
	if es.Invariants, err = invariantsNamed(sp.Variant.Module(), invs, invariants); err != nil {
		return nil, err
	}
	acts := map[string]func(s, t *predlock.State) bool{
		"TokensIncrease": sp.TokensIncrease,
		"FencedSafety":   sp.FencedSafety,
	}
	for _, name := range properties {
		if f, ok := acts[name]; ok {
			es.Actions = append(es.Actions, explore.ActionProperty[predlock.State]{Name: name, Holds: f})
			continue
		}
		lt, ok := lockLeadsTo(name, &sp.Constants.Constants, func(s *predlock.State) *recipe.State[zk.NoKind] { return &s.State })
		if !ok {
			return nil, fmt.Errorf("specs: %s has no property %s", sp.Variant.Module(), name)
		}
		es.Temporal = append(es.Temporal, lt)
	}
	if fair {
		if !sp.HasFairSpec() {
			return nil, fmt.Errorf("specs: %s has no fair specification", sp.Variant.Module())
		}
		es.Fairness = predLockFairness(sp)
	}
	return es, nil
}

// lockLeadsTo is the leads-to property name as both lock specs state it on
// model/recipe's part of their state (at): StarvationFree and RequestsEnd
// for each client, NoOrphansEventually for each request; false for any
// other name.
func lockLeadsTo[S any, K zk.Kind](name string, k *recipe.Constants, at func(*S) *recipe.State[K]) (explore.LeadsTo[S], bool) {
	acquiring := func(s *S, c int) bool { return at(s).Acquiring(c) }
	client := func(c int) string { return k.Clients[c] }
	switch name {
	case "StarvationFree":
		return explore.LeadsTo[S]{Name: name, N: k.N(), P: acquiring, Param: client,
			Q: func(s *S, c int) bool { return at(s).Holds(c) }}, true
	case "RequestsEnd":
		return explore.LeadsTo[S]{Name: name, N: k.N(), P: acquiring, Param: client,
			Q: func(s *S, c int) bool { return at(s).Ended(c) }}, true
	case "NoOrphansEventually":
		return explore.LeadsTo[S]{Name: name, N: k.N() * k.MaxRequests,
			P: func(s *S, i int) bool { return at(s).Orphaned(k.RequestParam(i)) },
			Q: func(s *S, i int) bool { return at(s).NoNodeOf(k.RequestParam(i)) },
			Param: func(i int) string {
				u := k.RequestParam(i)
				return fmt.Sprintf("<<%s, %d>>", k.Clients[u.C], u.R)
			}}, true
	}
	return explore.LeadsTo[S]{}, false
}

// lockFairness is what a lock recipe's fairness is made of (SharedLock's
// and PredecessorLock's Fairness, Semaphore's FairSpec).
type lockFairness[S any] struct {
	clients []string
	// progress reports whether l is a step of Progress(l.Client).
	progress func(l model.Label) bool
	// resume and expire are ResumeClient's and ExpireSession's indices.
	resume, expire uint8
	abandoned      func(s *S, x zk.Session) bool
	// deleteLands adds a condition per client for its pending deletes
	// (recipe.ActDeleteLands).
	deleteLands bool
}

// conditions are WF_vars(Progress(c)) and WF_vars(ResumeClient(c)) for
// each client c, WF_vars(\E s \in Sessions : Abandoned(s) /\
// ExpireSession(s)), and with deleteLands WF_vars(\E p \in pending :
// p[1][1] = c /\ DeleteLands(p)) for each c, in that order.
func (lf lockFairness[S]) conditions() []explore.Fairness[S] {
	var fs []explore.Fairness[S]
	for c := range lf.clients {
		fs = append(fs, explore.Fairness[S]{
			Name:  "Progress(" + lf.clients[c] + ")",
			Takes: func(_ *S, l model.Label) bool { return int(l.Client) == c && lf.progress(l) },
		})
	}
	for c := range lf.clients {
		fs = append(fs, explore.Fairness[S]{
			Name:  "ResumeClient(" + lf.clients[c] + ")",
			Takes: func(_ *S, l model.Label) bool { return int(l.Client) == c && l.Action == lf.resume },
		})
	}
	fs = append(fs, explore.Fairness[S]{
		Name: `\E s \in Sessions : Abandoned(s) /\ ExpireSession(s)`,
		Takes: func(s *S, l model.Label) bool {
			return l.Action == lf.expire && lf.abandoned(s, zk.Session{C: int(l.Client), K: int(l.Arg)})
		},
	})
	if !lf.deleteLands {
		return fs
	}
	for c := range lf.clients {
		fs = append(fs, explore.Fairness[S]{
			Name:  `\E p \in pending : p[1][1] = ` + lf.clients[c] + ` /\ DeleteLands(p)`,
			Takes: func(_ *S, l model.Label) bool { return int(l.Client) == c && l.Action == recipe.ActDeleteLands },
		})
	}
	return fs
}

// recipeFairness is the Fairness of a lock spec on model/recipe (isProgress
// its Progress(c)); BlindFairSpec has no fairness on DeleteLands.
func recipeFairness[S any](clients []string, isProgress func(model.Label) bool, abandoned func(*S, zk.Session) bool, deleteLands bool) []explore.Fairness[S] {
	return lockFairness[S]{
		clients:  clients,
		progress: func(l model.Label) bool { return l.Action != recipe.ActExpireSession && isProgress(l) },
		resume:   recipe.ActResumeClient, expire: recipe.ActExpireSession,
		abandoned: abandoned, deleteLands: deleteLands,
	}.conditions()
}

// predLockFairness is Fairness (BlindFairSpec's for BlindRetry).
func predLockFairness(sp *predlock.Spec) []explore.Fairness[predlock.State] {
	return recipeFairness(sp.Clients, sp.IsProgress, (*predlock.State).Abandoned, sp.Variant != predlock.BlindRetry)
}
