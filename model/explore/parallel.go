package explore

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/zklock/zklock/model"
)

// item is a state of the frontier with its id.
type item[S any] struct {
	state S
	id    uint32
}

// found is a new state a worker found, not yet numbered.
type found[S any] struct {
	state  S
	parent uint32
	label  model.Label
}

// violation is a safety violation a worker found while expanding the
// frontier state at index pos: its successor number succ.
type violation[S any] struct {
	verdict Verdict
	prop    string
	pos     int
	succ    int
	from    uint32 // id of the state expanded
	label   model.Label
	state   S
}

func (v *violation[S]) before(w *violation[S]) bool {
	return v.pos < w.pos || v.pos == w.pos && v.succ < w.succ
}

// checkParallel explores the graph level by level with a pool of workers.
// Every level is expanded completely before the next starts, so a
// violation found at level d has a shortest counterexample; among the
// violations of that level the one first in frontier and successor order
// is reported.
func checkParallel[S any](sp *Spec[S], opt Options) (*Result[S], error) {
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	p := &parallelRun[S]{
		sp: sp, opt: opt, start: time.Now(), workers: workers,
		res: &Result[S]{TraceLoop: -1, Workers: workers, Mode: "parallel"},
		h:   newHasher(), set: newFPSet(),
	}
	if res, err := p.initialStates(); res != nil || err != nil {
		return res, err
	}
	res := p.res
	for level := int32(2); len(p.frontier) > 0; level++ {
		if opt.MaxStates > 0 && int64(len(p.tree)) > opt.MaxStates {
			return nil, fmt.Errorf("%w: %d states", ErrTooManyStates, len(p.tree))
		}
		locals := p.expandLevel()
		bad, newStates := p.firstViolation(locals)
		if bad != nil {
			return p.counterexample(bad, level, newStates)
		}
		p.nextFrontier(locals, level)
		if len(p.frontier) > 0 {
			res.Depth = int(level)
		}
		if opt.Progress != nil {
			opt.Progress(int(level), int64(len(p.tree)), len(p.frontier))
		}
	}
	res.Verdict = Pass
	res.Distinct = int64(len(p.tree))
	res.Duration = time.Since(p.start)
	return res, nil
}

// parallelRun is one checkParallel exploration: the states seen (set, by
// fingerprint), the tree of how each was first reached, and the frontier,
// the states of the level being expanded.
type parallelRun[S any] struct {
	sp      *Spec[S]
	opt     Options
	start   time.Time
	workers int
	res     *Result[S]
	h       hasher
	set     *fpSet
	tree    []treeNode
	// frontier is read by every worker during a level and replaced
	// between levels only.
	frontier []item[S]
}

// initialStates makes the first level. A result (not nil) ends the run: an
// initial state violates an invariant.
func (p *parallelRun[S]) initialStates() (*Result[S], error) {
	sp, res := p.sp, p.res
	buf := make([]byte, 0, 512)
	inits := sp.Init()
	for i := range inits {
		res.Generated++
		if !p.set.add(p.h.fp(sp.Encode(buf[:0], &inits[i]))) {
			continue
		}
		id := uint32(len(p.tree))
		p.tree = append(p.tree, treeNode{parent: noParent, label: model.Label{Arg: int16(i)}, level: 1})
		if inv := failedInvariant(sp, &inits[i]); inv != "" {
			res.Verdict, res.Property, res.Distinct, res.Depth = InvariantViolated, inv, int64(len(p.tree)), 1
			trace, err := replayPath(sp, p.tree, id)
			res.Trace, res.Duration = trace, time.Since(p.start)
			return res, err
		}
		p.frontier = append(p.frontier, item[S]{inits[i], id})
	}
	res.Depth = 1
	return nil, nil
}

// levelWorker is what one worker finds while expanding its share of a
// level: new states, and the first violation it saw (in frontier and
// successor order), kept apart from the first deadlock.
type levelWorker[S any] struct {
	p         *parallelRun[S]
	found     []found[S]
	generated int64
	bad       *violation[S]
	deadlock  *violation[S]
	enc       []byte
}

// expandLevel expands every frontier state, the workers taking chunks of
// the frontier in turn, and returns what each worker found.
func (p *parallelRun[S]) expandLevel() []levelWorker[S] {
	locals := make([]levelWorker[S], p.workers)
	var next atomic.Int64
	var wg sync.WaitGroup
	const chunk = 64
	for w := 0; w < p.workers; w++ {
		wg.Add(1)
		go func(lw *levelWorker[S]) {
			defer wg.Done()
			lw.p, lw.enc = p, make([]byte, 0, 512)
			for {
				lo := int(next.Add(chunk)) - chunk
				if lo >= len(p.frontier) {
					return
				}
				hi := min(lo+chunk, len(p.frontier))
				for pos := lo; pos < hi; pos++ {
					lw.expand(pos)
				}
			}
		}(&locals[w])
	}
	wg.Wait()
	return locals
}

// expand generates the successors of the frontier state at pos: each new
// one is checked against the invariants, and every transition against the
// action properties; a state without successors is a deadlock when the
// spec checks for them.
func (lw *levelWorker[S]) expand(pos int) {
	sp := lw.p.sp
	it := &lw.p.frontier[pos]
	succ := 0
	sp.Next(&it.state, func(l model.Label, t *S) {
		succ++
		lw.generated++
		if lw.bad != nil && lw.bad.pos < pos {
			return // a violation earlier in this level is reported
		}
		lw.enc = sp.Encode(lw.enc[:0], t)
		isNew := lw.p.set.add(lw.p.h.fp(lw.enc))
		var v *violation[S]
		if isNew {
			if inv := failedInvariant(sp, t); inv != "" {
				v = &violation[S]{verdict: InvariantViolated, prop: inv}
			}
		}
		if v == nil {
			for _, a := range sp.Actions {
				if !a.Holds(&it.state, t) {
					v = &violation[S]{verdict: ActionPropertyViolated, prop: a.Name}
					break
				}
			}
		}
		if v != nil {
			v.pos, v.succ, v.from, v.label, v.state = pos, succ, it.id, l, *t
			if lw.bad == nil || v.before(lw.bad) {
				lw.bad = v
			}
			return
		}
		if isNew {
			lw.found = append(lw.found, found[S]{state: *t, parent: it.id, label: l})
		}
	})
	if succ == 0 && sp.CheckDeadlock && (lw.deadlock == nil || pos < lw.deadlock.pos) {
		lw.deadlock = &violation[S]{verdict: Deadlock, pos: pos, from: it.id}
	}
}

// firstViolation counts the level's generated states into the result and
// returns the violation first in frontier and successor order, if any, and
// how many new states the level found.
func (p *parallelRun[S]) firstViolation(locals []levelWorker[S]) (bad *violation[S], newStates int) {
	for i := range locals {
		p.res.Generated += locals[i].generated
		newStates += len(locals[i].found)
		for _, v := range []*violation[S]{locals[i].bad, locals[i].deadlock} {
			if v != nil && (bad == nil || v.before(bad)) {
				bad = v
			}
		}
	}
	return bad, newStates
}

// counterexample ends the run with bad, found at level: the path to the
// state expanded, then (unless it deadlocked) the violating step.
func (p *parallelRun[S]) counterexample(bad *violation[S], level int32, newStates int) (*Result[S], error) {
	res := p.res
	res.Verdict, res.Property = bad.verdict, bad.prop
	res.Distinct = int64(len(p.tree) + newStates)
	res.Depth = int(level)
	trace, err := replayPath(p.sp, p.tree, bad.from)
	if err != nil {
		return nil, err
	}
	if bad.verdict != Deadlock {
		trace = append(trace, Step[S]{Label: bad.label, Action: p.sp.ActionName(bad.label), State: bad.state})
	}
	res.Trace, res.Duration = trace, time.Since(p.start)
	return res, nil
}

// nextFrontier numbers the level's new states, worker by worker, and makes
// them the frontier.
func (p *parallelRun[S]) nextFrontier(locals []levelWorker[S], level int32) {
	p.frontier = p.frontier[:0:0]
	for i := range locals {
		for _, f := range locals[i].found {
			id := uint32(len(p.tree))
			p.tree = append(p.tree, treeNode{parent: f.parent, label: f.label, level: level})
			p.frontier = append(p.frontier, item[S]{f.state, id})
		}
	}
}
