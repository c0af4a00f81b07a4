package specs

import (
	"fmt"

	"github.com/zklock/zklock/internal/tlccfg"
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/tla"
)

// predLockSpecs maps each specification of the PredecessorLock modules to
// the variant whose next-state relation it uses and whether it is fair.
var predLockSpecs = map[string]struct {
	variant predlock.Variant
	fair    bool
}{
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
	specName, err := specOf(m)
	if err != nil {
		return nil, err
	}
	which, ok := predLockSpecs[specName]
	if !ok || (which.variant != predlock.Base && which.variant.Module() != module) {
		return nil, fmt.Errorf("specs: module %s has no specification %s", module, specName)
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
	if err != nil {
		return nil, err
	}
	es.Name = module + "!" + specName
	es.CheckDeadlock = m.CheckDeadlock
	return &instance[predlock.State]{spec: es, format: sp.Format}, nil
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
	es := &explore.Spec[predlock.State]{
		Name:        sp.Variant.Module(),
		Init:        func() []predlock.State { return []predlock.State{sp.Init()} },
		Next:        sp.Next,
		Step:        sp.Step,
		Encode:      func(b []byte, s *predlock.State) []byte { return s.AppendEncoding(b) },
		ActionName:  predlock.ActionName,
		LabelString: sp.LabelString,
		View:        func(s *predlock.State) []tla.Binding { return sp.TLA(s) },
	}
	invs := map[string]func(*predlock.State) bool{
		"TypeOK":                sp.TypeOK,
		"MutualExclusion":       sp.MutualExclusion,
		"NaiveExclusion":        sp.NaiveExclusion,
		"NoHerd":                sp.NoHerd,
		"NoOrphans":             (*predlock.State).NoOrphans,
		"GrantsInSequenceOrder": sp.GrantsInSequenceOrder,
		"KnownNodeExists":       sp.KnownNodeExists,
	}
	for _, name := range invariants {
		f, ok := invs[name]
		if !ok {
			return nil, fmt.Errorf("specs: %s has no invariant %s", sp.Variant.Module(), name)
		}
		es.Invariants = append(es.Invariants, explore.Invariant[predlock.State]{Name: name, Holds: f})
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
		if name == "NoOrphansEventually" {
			es.Temporal = append(es.Temporal, explore.LeadsTo[predlock.State]{
				Name: name, N: sp.N() * sp.MaxRequests, P: func(s *predlock.State, i int) bool { return s.Orphaned(sp.RequestParam(i)) },
				Q: func(s *predlock.State, i int) bool { return s.NoNodeOf(sp.RequestParam(i)) },
				Param: func(i int) string {
					u := sp.RequestParam(i)
					return fmt.Sprintf("<<%s, %d>>", sp.Clients[u.C], u.R)
				},
			})
			continue
		}
		q := map[string]func(*predlock.State, int) bool{"StarvationFree": (*predlock.State).Holds, "RequestsEnd": (*predlock.State).Ended}[name]
		if q == nil {
			return nil, fmt.Errorf("specs: %s has no property %s", sp.Variant.Module(), name)
		}
		es.Temporal = append(es.Temporal, explore.LeadsTo[predlock.State]{
			Name: name, N: sp.N(), P: (*predlock.State).Acquiring, Q: q,
			Param: func(i int) string { return sp.Clients[i] },
		})
	}
	if fair {
		if !sp.HasFairSpec() {
			return nil, fmt.Errorf("specs: %s has no fair specification", sp.Variant.Module())
		}
		es.Fairness = predLockFairness(sp)
	}
	return es, nil
}

// predLockFairness is Fairness (BlindFairSpec's for BlindRetry):
// WF_vars(Progress(c)) and WF_vars(ResumeClient(c)) for each client c, and
// WF_vars(\E s \in Sessions : Abandoned(s) /\ ExpireSession(s)).
func predLockFairness(sp *predlock.Spec) []explore.Fairness[predlock.State] {
	var fs []explore.Fairness[predlock.State]
	for c := range sp.Clients {
		fs = append(fs, explore.Fairness[predlock.State]{
			Name: "Progress(" + sp.Clients[c] + ")",
			Takes: func(_ *predlock.State, l model.Label) bool {
				return int(l.Client) == c && l.Action != recipe.ActExpireSession && sp.IsProgress(l)
			},
		})
	}
	for c := range sp.Clients {
		fs = append(fs, explore.Fairness[predlock.State]{
			Name: "ResumeClient(" + sp.Clients[c] + ")",
			Takes: func(_ *predlock.State, l model.Label) bool {
				return int(l.Client) == c && l.Action == recipe.ActResumeClient
			},
		})
	}
	fs = append(fs, explore.Fairness[predlock.State]{
		Name: `\E s \in Sessions : Abandoned(s) /\ ExpireSession(s)`,
		Takes: func(s *predlock.State, l model.Label) bool {
			return l.Action == recipe.ActExpireSession &&
				s.Abandoned(predlock.Session{C: int(l.Client), K: int(l.Arg)})
		},
	})
	if sp.Variant == predlock.BlindRetry {
		return fs // BlindFairSpec has no fairness on DeleteLands
	}
	for c := range sp.Clients {
		fs = append(fs, explore.Fairness[predlock.State]{
			Name: `\E p \in pending : p[1][1] = ` + sp.Clients[c] + ` /\ DeleteLands(p)`,
			Takes: func(_ *predlock.State, l model.Label) bool {
				return int(l.Client) == c && l.Action == recipe.ActDeleteLands
			},
		})
	}
	return fs
}
