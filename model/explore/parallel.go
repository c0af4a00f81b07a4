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
	start := time.Now()
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	res := &Result[S]{TraceLoop: -1, Workers: workers, Mode: "parallel"}
	h := newHasher()
	set := newFPSet()
	var tree []treeNode
	var frontier []item[S]
	buf := make([]byte, 0, 512)

	inits := sp.Init()
	for i := range inits {
		res.Generated++
		if !set.add(h.fp(sp.Encode(buf[:0], &inits[i]))) {
			continue
		}
		id := uint32(len(tree))
		tree = append(tree, treeNode{parent: noParent, label: model.Label{Arg: int16(i)}, level: 1})
		if inv := failedInvariant(sp, &inits[i]); inv != "" {
			res.Verdict, res.Property, res.Distinct, res.Depth = InvariantViolated, inv, int64(len(tree)), 1
			trace, err := replayPath(sp, tree, id)
			res.Trace, res.Duration = trace, time.Since(start)
			return res, err
		}
		frontier = append(frontier, item[S]{inits[i], id})
	}
	res.Depth = 1

	type local struct {
		found     []found[S]
		generated int64
		bad       *violation[S]
		deadlock  *violation[S]
	}
	for level := int32(2); len(frontier) > 0; level++ {
		if opt.MaxStates > 0 && int64(len(tree)) > opt.MaxStates {
			return nil, fmt.Errorf("%w: %d states", ErrTooManyStates, len(tree))
		}
		locals := make([]local, workers)
		var next atomic.Int64
		var wg sync.WaitGroup
		const chunk = 64
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func(lw *local) {
				defer wg.Done()
				enc := make([]byte, 0, 512)
				for {
					lo := int(next.Add(chunk)) - chunk
					if lo >= len(frontier) {
						return
					}
					hi := min(lo+chunk, len(frontier))
					for pos := lo; pos < hi; pos++ {
						it := &frontier[pos]
						succ := 0
						sp.Next(&it.state, func(l model.Label, t *S) {
							succ++
							lw.generated++
							if lw.bad != nil && lw.bad.pos < pos {
								return // a violation earlier in this level is reported
							}
							enc = sp.Encode(enc[:0], t)
							isNew := set.add(h.fp(enc))
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
				}
			}(&locals[w])
		}
		wg.Wait()

		var bad *violation[S]
		newStates := 0
		for i := range locals {
			res.Generated += locals[i].generated
			newStates += len(locals[i].found)
			for _, v := range []*violation[S]{locals[i].bad, locals[i].deadlock} {
				if v != nil && (bad == nil || v.before(bad)) {
					bad = v
				}
			}
		}
		if bad != nil {
			res.Verdict, res.Property = bad.verdict, bad.prop
			res.Distinct = int64(len(tree) + newStates)
			res.Depth = int(level)
			trace, err := replayPath(sp, tree, bad.from)
			if err != nil {
				return nil, err
			}
			if bad.verdict != Deadlock {
				trace = append(trace, Step[S]{Label: bad.label, Action: sp.ActionName(bad.label), State: bad.state})
			}
			res.Trace, res.Duration = trace, time.Since(start)
			return res, nil
		}
		frontier = frontier[:0:0]
		for i := range locals {
			for _, f := range locals[i].found {
				id := uint32(len(tree))
				tree = append(tree, treeNode{parent: f.parent, label: f.label, level: level})
				frontier = append(frontier, item[S]{f.state, id})
			}
		}
		if len(frontier) > 0 {
			res.Depth = int(level)
		}
		if opt.Progress != nil {
			opt.Progress(int(level), int64(len(tree)), len(frontier))
		}
	}
	res.Verdict = Pass
	res.Distinct = int64(len(tree))
	res.Duration = time.Since(start)
	return res, nil
}
