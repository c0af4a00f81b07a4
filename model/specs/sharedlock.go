package specs

import (
	"fmt"

	"github.com/zklock/zklock/internal/tlccfg"
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/sharedlock"
	"github.com/zklock/zklock/model/tla"
)

// sharedLockSpecs maps each specification of the SharedLock modules to the
// variant whose next-state relation it uses and whether it is fair.
var sharedLockSpecs = map[string]struct {
	variant sharedlock.Variant
	fair    bool
}{
	"Spec":     {sharedlock.Base, false},
	"FairSpec": {sharedlock.Base, true},
	"RASpec":   {sharedlock.DowngradeReleaseAcquire, false},
	"RWPSpec":  {sharedlock.ReaderWatchesPredecessor, false},
	"WSSpec":   {sharedlock.WriterShortcut, false},
	"DLSpec":   {sharedlock.DowngradeLost, false},
}

func loadSharedLock(module string, m tlccfg.Model) (Instance, error) {
	specName, err := specOf(m)
	if err != nil {
		return nil, err
	}
	which, ok := sharedLockSpecs[specName]
	if !ok || (which.variant != sharedlock.Base && which.variant.Module() != module) {
		return nil, fmt.Errorf("specs: module %s has no specification %s", module, specName)
	}
	switch module {
	case "SharedLock", "SharedLockDowngradeReleaseAcquire", "SharedLockReaderWatchesPredecessor",
		"SharedLockWriterShortcut", "SharedLockDowngradeLost":
	default:
		return nil, fmt.Errorf("specs: no model of module %s", module)
	}
	r := newConstReader(m)
	k := sharedlock.Constants{Constants: r.lockConstants(), WithDowngrade: r.bool("WithDowngrade")}
	if err := r.done(); err != nil {
		return nil, err
	}
	sp, err := sharedlock.New(k, which.variant)
	if err != nil {
		return nil, err
	}
	es, err := SharedLockSpec(sp, which.fair, m.Invariants, m.Properties)
	if err != nil {
		return nil, err
	}
	es.Name = module + "!" + specName
	es.CheckDeadlock = m.CheckDeadlock
	return &instance[sharedlock.State]{spec: es, format: sp.Format}, nil
}

// SharedLockSpec returns the explorer's view of sp with the named
// invariants and properties, and with FairSpec's fairness if fair.
func SharedLockSpec(sp *sharedlock.Spec, fair bool, invariants, properties []string) (*explore.Spec[sharedlock.State], error) {
	es := &explore.Spec[sharedlock.State]{
		Name:        sp.Variant.Module(),
		Init:        func() []sharedlock.State { return []sharedlock.State{sp.Init()} },
		Next:        sp.Next,
		Step:        sp.Step,
		Encode:      func(b []byte, s *sharedlock.State) []byte { return s.AppendEncoding(b) },
		ActionName:  sharedlock.ActionName,
		LabelString: sp.LabelString,
		View:        func(s *sharedlock.State) []tla.Binding { return sp.TLA(s) },
	}
	invs := map[string]func(*sharedlock.State) bool{
		"TypeOK":                     sp.TypeOK,
		"WriterExclusion":            sp.WriterExclusion,
		"MutualExclusion":            sp.MutualExclusion,
		"ReadersShare":               sp.ReadersShare,
		"NoHerd":                     sp.NoHerd,
		"NoOrphans":                  (*sharedlock.State).NoOrphans,
		"GrantsInSequenceOrder":      sp.GrantsInSequenceOrder,
		"KnownNodeExists":            sp.KnownNodeExists,
		"ReadersNotBlockedByReaders": sp.ReadersNotBlockedByReaders,
	}
	for _, name := range invariants {
		f, ok := invs[name]
		if !ok {
			return nil, fmt.Errorf("specs: %s has no invariant %s", sp.Variant.Module(), name)
		}
		es.Invariants = append(es.Invariants, explore.Invariant[sharedlock.State]{Name: name, Holds: f})
	}
	param := func(i int) string { return sp.Clients[i] }
	for _, name := range properties {
		switch name {
		case "NoWriterStarvation":
			es.Temporal = append(es.Temporal, explore.LeadsTo[sharedlock.State]{
				Name: name, N: sp.N(), P: sp.WantsWrite, Q: sp.HoldsWrite, Param: param})
		case "StarvationFree":
			es.Temporal = append(es.Temporal, explore.LeadsTo[sharedlock.State]{
				Name: name, N: sp.N(), P: (*sharedlock.State).Acquiring, Q: (*sharedlock.State).Holds, Param: param})
		case "RequestsEnd":
			es.Temporal = append(es.Temporal, explore.LeadsTo[sharedlock.State]{
				Name: name, N: sp.N(), P: (*sharedlock.State).Acquiring, Q: (*sharedlock.State).Ended, Param: param})
		case "NoOrphansEventually":
			es.Temporal = append(es.Temporal, explore.LeadsTo[sharedlock.State]{
				Name: name, N: sp.N() * sp.MaxRequests, P: func(s *sharedlock.State, i int) bool { return s.Orphaned(sp.RequestParam(i)) },
				Q: func(s *sharedlock.State, i int) bool { return s.NoNodeOf(sp.RequestParam(i)) },
				Param: func(i int) string {
					u := sp.RequestParam(i)
					return fmt.Sprintf("<<%s, %d>>", sp.Clients[u.C], u.R)
				}})
		default:
			return nil, fmt.Errorf("specs: %s has no property %s", sp.Variant.Module(), name)
		}
	}
	if fair {
		if !sp.HasFairSpec() {
			return nil, fmt.Errorf("specs: %s has no fair specification", sp.Variant.Module())
		}
		es.Fairness = sharedLockFairness(sp)
	}
	return es, nil
}

// sharedLockFairness is SharedLock!Fairness: WF_vars(Progress(c)) and
// WF_vars(ResumeClient(c)) for each client c, and WF_vars(\E s \in
// Sessions : Abandoned(s) /\ ExpireSession(s)).
func sharedLockFairness(sp *sharedlock.Spec) []explore.Fairness[sharedlock.State] {
	var fs []explore.Fairness[sharedlock.State]
	for c := range sp.Clients {
		fs = append(fs, explore.Fairness[sharedlock.State]{
			Name: "Progress(" + sp.Clients[c] + ")",
			Takes: func(_ *sharedlock.State, l model.Label) bool {
				return int(l.Client) == c && l.Action != recipe.ActExpireSession && sp.IsProgress(l)
			},
		})
	}
	for c := range sp.Clients {
		fs = append(fs, explore.Fairness[sharedlock.State]{
			Name: "ResumeClient(" + sp.Clients[c] + ")",
			Takes: func(_ *sharedlock.State, l model.Label) bool {
				return int(l.Client) == c && l.Action == recipe.ActResumeClient
			},
		})
	}
	fs = append(fs, explore.Fairness[sharedlock.State]{
		Name: `\E s \in Sessions : Abandoned(s) /\ ExpireSession(s)`,
		Takes: func(s *sharedlock.State, l model.Label) bool {
			return l.Action == recipe.ActExpireSession &&
				s.Abandoned(sharedlock.Session{C: int(l.Client), K: int(l.Arg)})
		},
	})
	for c := range sp.Clients {
		fs = append(fs, explore.Fairness[sharedlock.State]{
			Name: `\E p \in pending : p[1][1] = ` + sp.Clients[c] + ` /\ DeleteLands(p)`,
			Takes: func(_ *sharedlock.State, l model.Label) bool {
				return int(l.Client) == c && l.Action == recipe.ActDeleteLands
			},
		})
	}
	return fs
}
