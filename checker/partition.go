package checker

import (
	"sort"

	"github.com/anishathalye/porcupine"
)

// Model names, as they appear in [Partition] and [ModelResult].
const (
	ModelMutex    = "mutex"
	ModelRWMutex  = "rwmutex"
	ModelRegister = "register"
	// ModelSemaphore (models_semaphore.go) judges a semaphore's leases.
)

// A Partition is the part of a history one porcupine model checks on its own: the
// operations on one lock path, or on one register.
type Partition struct {
	Model string // ModelMutex, ModelRWMutex or ModelRegister
	Key   string // the lock path or the register
	// Operations carry *LockInput or *RegisterInput. Operations with an unknown
	// outcome return at the history's horizon, after everything else.
	Operations []porcupine.Operation
	// Unknown counts the operations with an unknown outcome.
	Unknown int
	// Clients maps porcupine's ClientId (the row in the visualisation) to names.
	Clients []string
}

// PorcupineModel returns the model that checks the partition, without a partition
// function (the operations are one partition already).
func (p *Partition) PorcupineModel() porcupine.Model {
	var m porcupine.Model
	switch p.Model {
	case ModelRWMutex:
		m = RWMutexModel()
	case ModelRegister:
		m = RegisterModel()
	case ModelSemaphore:
		m = SemaphoreModel()
	default:
		m = MutexModel()
	}
	m.Partition = nil
	return m
}

// Partitions validates h and splits its operations into the partitions the models
// check, in a deterministic order (locks, then registers, each sorted by key).
func Partitions(h History) ([]Partition, error) {
	if err := h.Validate(); err != nil {
		return nil, err
	}
	ls := buildLeases(h)
	return partitions(h, ls, buildPauses(h, 0), horizonOf(h)), nil
}

// horizonOf returns a time after every time in h: where unknown outcomes return.
func horizonOf(h History) int64 {
	var t int64
	for i := range h {
		t = max(t, h[i].Call, h[i].Return)
	}
	return t + 1
}

func partitions(h History, ls *leases, ps pauses, horizon int64) []Partition {
	ws := findWipes(h)
	type part struct {
		p       Partition
		clients map[string]int
	}
	locks := make(map[string]*part)
	regs := make(map[string]*part)
	rw := make(map[string]bool)
	sem := make(map[string]bool)
	for i := range h {
		if h[i].Kind == KindAcquire && h[i].Mode != ModeExclusive {
			rw[h[i].Path] = true
		}
		if h[i].Kind == KindAcquire && h[i].Max > 0 {
			sem[h[i].Path] = true
		}
	}
	get := func(m map[string]*part, model, key string) *part {
		p, ok := m[key]
		if !ok {
			p = &part{p: Partition{Model: model, Key: key}, clients: make(map[string]int)}
			m[key] = p
		}
		return p
	}

	for i := range h {
		r := &h[i]
		var p *part
		var input interface{}
		call := r.Call
		switch r.Kind {
		case KindAcquire, KindRelease, KindLost:
			model := ModelMutex
			if rw[r.Path] {
				model = ModelRWMutex
			}
			if sem[r.Path] {
				model = ModelSemaphore
			}
			p = get(locks, model, r.Path)
			input = &LockInput{Kind: r.Kind, Mode: r.Mode, Outcome: r.outcome(), Token: r.Token, Client: r.Client, Path: r.Path, Max: r.Max, Rewound: r.Rewound}
			if r.Kind == KindLost {
				call = lostCall(r, ls, ps)
			}
		case KindWrite, KindRead:
			if ws.acrossRestore(r.registerKey(), r.Call, r.Return) {
				continue // served before the restore or after it: in neither history alone
			}
			key, restored := ws.registerKey(r.registerKey(), r.Call)
			p = get(regs, ModelRegister, key)
			input = &RegisterInput{Kind: r.Kind, Outcome: r.Outcome, Token: r.Token, Value: r.Value, Client: r.Client,
				Register: r.registerKey(), Restored: restored}
		default:
			continue
		}
		ret := r.Return
		if r.outcome() == OutcomeUnknown {
			ret = horizon
			p.p.Unknown++
		}
		id, ok := p.clients[r.Client]
		if !ok {
			id = len(p.clients)
			p.clients[r.Client] = id
		}
		p.p.Operations = append(p.p.Operations, porcupine.Operation{
			ClientId: id, Input: input, Call: call, Return: ret, Metadata: &opMeta{index: i, rec: r},
		})
	}

	var out []Partition
	for _, m := range []map[string]*part{locks, regs} {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := m[k]
			p.p.Clients = make([]string, len(p.clients))
			for name, id := range p.clients {
				p.p.Clients[id] = name
			}
			out = append(out, p.p)
		}
	}
	return out
}

// lostCall is where a lost observation may take effect from. Normally that is the
// record's call: the last moment the client knew it held. A process pause between
// the acquire and that moment voids the knowledge (the acquire may return, after
// the pause, a lease whose node expired during it), so the window then opens at
// the acquire's call: the lease may have ended at any moment after it was granted.
func lostCall(r *Record, ls *leases, ps pauses) int64 {
	l := ls.find(r.Path, r.Client, r.Token, r.Call)
	if l == nil || l.call >= r.Call {
		return r.Call
	}
	if ps.overlapping(l.client, l.session, l.call, r.Call) >= 0 {
		return l.call
	}
	return r.Call
}
