package specs

import (
	"fmt"

	"github.com/zklock/zklock/internal/tlccfg"
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/explore"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/semaphore"
	"github.com/zklock/zklock/model/tla"
	"github.com/zklock/zklock/model/zk"
)

func loadSemaphore(module string, m tlccfg.Model) (Instance, error) {
	specName, err := specOf(m)
	if err != nil {
		return nil, err
	}
	if specName != "Spec" && specName != "FairSpec" {
		return nil, fmt.Errorf("specs: module %s has no specification %s", module, specName)
	}
	r := newConstReader(m)
	k := semaphore.Constants{
		Constants: recipe.Constants{
			Clients:       r.modelValues("Clients"),
			MaxRequests:   r.nat("MaxRequests"),
			MaxSeq:        r.nat("MaxSeq"),
			MaxFaults:     r.nat("MaxFaults"),
			WithExpiry:    r.bool("WithExpiry"),
			WithReplyLoss: r.bool("WithReplyLoss"),
			WithCancel:    r.bool("WithCancel"),
			WithPause:     r.bool("WithPause"),
		},
		MaxLeases:    r.nat("MaxLeases"),
		InternalLock: r.bool("InternalLock"),
		CountFirst:   r.bool("CountFirst"),
		BlindRetry:   r.bool("BlindRetry"),
	}
	if err := r.done(); err != nil {
		return nil, err
	}
	sp, err := semaphore.New(k)
	if err != nil {
		return nil, err
	}
	es, err := SemaphoreSpec(sp, specName == "FairSpec", m.Invariants, m.Properties)
	if err != nil {
		return nil, err
	}
	es.Name = module + "!" + specName
	es.CheckDeadlock = m.CheckDeadlock
	return &instance[semaphore.State]{spec: es, format: sp.Format}, nil
}

// SemaphoreSpec returns the explorer's view of sp with the named
// invariants and properties, and with FairSpec's fairness if fair.
func SemaphoreSpec(sp *semaphore.Spec, fair bool, invariants, properties []string) (*explore.Spec[semaphore.State], error) {
	type S = semaphore.State
	es := &explore.Spec[S]{
		Name:        "Semaphore",
		Init:        func() []S { return []S{sp.Init()} },
		Next:        sp.Next,
		Step:        sp.Step,
		Encode:      func(b []byte, s *S) []byte { return s.AppendEncoding(b) },
		ActionName:  semaphore.ActionName,
		LabelString: sp.LabelString,
		View:        func(s *S) []tla.Binding { return sp.TLA(s) },
	}
	invs := map[string]func(*S) bool{
		"TypeOK":                 sp.TypeOK,
		"AtMostMaxHolders":       sp.AtMostMaxHolders,
		"AtMostMaxFencedHolders": sp.AtMostMaxFencedHolders,
		"KnownLeaseExists":       (*S).KnownLeaseExists,
		"NoLeakedLeases":         (*S).NoLeakedLeases,
		"NoHerd":                 (*S).NoHerd,
		"WaiterHoldsInternal":    (*S).WaiterHoldsInternal,
	}
	for _, name := range invariants {
		f, ok := invs[name]
		if !ok {
			return nil, fmt.Errorf("specs: Semaphore has no invariant %s", name)
		}
		es.Invariants = append(es.Invariants, explore.Invariant[S]{Name: name, Holds: f})
	}
	for _, name := range properties {
		if name != "StarvationFree" {
			return nil, fmt.Errorf("specs: Semaphore has no property %s", name)
		}
		// \A c : pc[c] \in Acquiring ~> pc[c] \notin Acquiring
		es.Temporal = append(es.Temporal, explore.LeadsTo[S]{
			Name: name, N: sp.N(),
			P:     func(s *S, c int) bool { return s.PC[c].Acquiring() },
			Q:     func(s *S, c int) bool { return !s.PC[c].Acquiring() },
			Param: func(c int) string { return sp.Clients[c] },
		})
	}
	if fair {
		es.Fairness = semaphoreFairness(sp)
	}
	return es, nil
}

// semaphoreFairness is FairSpec's: WF_vars(Progress(c)) and
// WF_vars(ResumeClient(c)) for each client c, and WF_vars(\E s \in
// Sessions : Abandoned(s) /\ ExpireSession(s)).
func semaphoreFairness(sp *semaphore.Spec) []explore.Fairness[semaphore.State] {
	var fs []explore.Fairness[semaphore.State]
	for c := range sp.Clients {
		fs = append(fs, explore.Fairness[semaphore.State]{
			Name: "Progress(" + sp.Clients[c] + ")",
			Takes: func(_ *semaphore.State, l model.Label) bool {
				return int(l.Client) == c && semaphore.IsProgress(l)
			},
		})
	}
	for c := range sp.Clients {
		fs = append(fs, explore.Fairness[semaphore.State]{
			Name: "ResumeClient(" + sp.Clients[c] + ")",
			Takes: func(_ *semaphore.State, l model.Label) bool {
				return int(l.Client) == c && l.Action == semaphore.ActResumeClient
			},
		})
	}
	return append(fs, explore.Fairness[semaphore.State]{
		Name: `\E s \in Sessions : Abandoned(s) /\ ExpireSession(s)`,
		Takes: func(s *semaphore.State, l model.Label) bool {
			return l.Action == semaphore.ActExpireSession && s.Abandoned(zk.Session{C: int(l.Client), K: int(l.Arg)})
		},
	})
}
