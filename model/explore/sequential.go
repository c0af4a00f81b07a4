package explore

import (
	"errors"
	"fmt"
	"time"

	"github.com/zklock/zklock/model"
)

// ErrTooManyStates is returned (wrapped) when a search exceeds Options.MaxStates.
var ErrTooManyStates = errors.New("explore: state bound exceeded")

// noParent marks an initial state in the search tree.
const noParent = ^uint32(0)

// treeNode is how the search reached a state: from which state (by id),
// with which action, at which breadth-first level (initial states: 1). An
// initial state's label holds its index in Init() in Arg.
type treeNode struct {
	parent uint32
	label  model.Label
	level  int32
}

// Check explores the state space of sp and checks its properties. Configs
// with temporal properties, and Options.TLCOrder, run TLC's algorithm with
// one worker; the rest run in parallel.
func Check[S any](sp *Spec[S], opt Options) (*Result[S], error) {
	if len(sp.Temporal) > 0 || opt.TLCOrder {
		return checkTLCOrder(sp, opt)
	}
	return checkParallel(sp, opt)
}

// checkTLCOrder is TLC's breadth-first search with one worker (see
// tlc2.tool.ModelChecker.doNext): a FIFO queue; each successor counts as
// generated; a new one is checked against the invariants, then every step
// against the action properties; the first violation stops the search.
// With temporal properties it also records the state graph and checks them
// once the search is complete.
func checkTLCOrder[S any](sp *Spec[S], opt Options) (*Result[S], error) {
	r := &tlcRun[S]{
		sp: sp, start: time.Now(),
		res: &Result[S]{TraceLoop: -1, Workers: 1, Mode: "tlc-order"},
		h:   newHasher(), ids: make(map[FP]uint32), buf: make([]byte, 0, 512),
	}
	if len(sp.Temporal) > 0 {
		var err error
		if r.g, err = newGraph(sp); err != nil {
			return nil, err
		}
	}
	if res, err := r.initialStates(); res != nil || err != nil {
		return res, err
	}
	for head := 0; head < len(r.queue); head++ {
		if opt.MaxStates > 0 && int64(len(r.tree)) > opt.MaxStates {
			return nil, fmt.Errorf("%w: %d states", ErrTooManyStates, len(r.tree))
		}
		if res, err := r.expand(head); res != nil || err != nil {
			return res, err
		}
	}
	res := r.res
	res.Distinct = int64(len(r.tree))
	if r.g != nil {
		if err := checkLiveness(r.g, sp, r.tree, res); err != nil {
			return nil, err
		}
	}
	res.Duration = time.Since(r.start)
	if res.Verdict == "" {
		res.Verdict = Pass
	}
	return res, nil
}

// tlcRun is one checkTLCOrder search: the states seen (ids, by
// fingerprint), the tree of how each was first reached, the queue, and,
// with temporal properties, the state graph.
type tlcRun[S any] struct {
	sp    *Spec[S]
	start time.Time
	res   *Result[S]
	h     hasher
	ids   map[FP]uint32
	tree  []treeNode
	queue []S // queue[id] is the state with that id until it is expanded
	g     *graph
	buf   []byte
}

// add records t, reached from parent by l, and reports its id and
// whether it is new.
func (r *tlcRun[S]) add(t *S, parent uint32, l model.Label, level int32) (uint32, bool) {
	r.buf = r.sp.Encode(r.buf[:0], t)
	fp := r.h.fp(r.buf)
	if id, ok := r.ids[fp]; ok {
		return id, false
	}
	id := uint32(len(r.tree))
	r.ids[fp] = id
	r.tree = append(r.tree, treeNode{parent: parent, label: l, level: level})
	r.queue = append(r.queue, *t)
	if r.g != nil {
		addStateOf(r.g, r.sp, t)
	}
	if level > int32(r.res.Depth) {
		r.res.Depth = int(level)
	}
	return id, true
}

// violated fills res with a safety violation ending in the state with
// id end, or, if t is not nil, in t reached from end by l.
func (r *tlcRun[S]) violated(v Verdict, prop string, end uint32, l model.Label, t *S) (*Result[S], error) {
	res := r.res
	res.Verdict, res.Property = v, prop
	res.Distinct = int64(len(r.tree))
	trace, err := replayPath(r.sp, r.tree, end)
	if err != nil {
		return nil, err
	}
	if t != nil {
		trace = append(trace, Step[S]{Label: l, Action: r.sp.ActionName(l), State: *t})
	}
	res.Trace = trace
	res.Duration = time.Since(r.start)
	return res, nil
}

// initialStates queues the initial states. A result (not nil) ends the
// search: an initial state violates an invariant.
func (r *tlcRun[S]) initialStates() (*Result[S], error) {
	inits := r.sp.Init()
	for i := range inits {
		r.res.Generated++
		id, isNew := r.add(&inits[i], noParent, model.Label{Arg: int16(i)}, 1)
		if !isNew {
			continue
		}
		if inv := failedInvariant(r.sp, &inits[i]); inv != "" {
			return r.violated(InvariantViolated, inv, id, model.Label{}, nil)
		}
	}
	return nil, nil
}

// expand generates the successors of the queued state with id head, as
// TLC's doNext does. A result (not nil) ends the search: the first
// violation among them, or a deadlock.
func (r *tlcRun[S]) expand(head int) (*Result[S], error) {
	sp, res := r.sp, r.res
	s := r.queue[head]
	var zero S
	r.queue[head] = zero // expanded: only its id is needed from now on
	sid := uint32(head)
	level := r.tree[sid].level + 1
	var (
		stop     bool
		verdict  Verdict
		prop     string
		badLabel model.Label
		badState S
		badNew   bool
		badID    uint32
		succs    int
	)
	sp.Next(&s, func(l model.Label, t *S) {
		if stop {
			return
		}
		succs++
		res.Generated++
		id, isNew := r.add(t, sid, l, level)
		if r.g != nil {
			addEdgeOf(r.g, sp, &s, sid, id, l)
		}
		if isNew {
			if inv := failedInvariant(sp, t); inv != "" {
				stop, verdict, prop, badNew, badID = true, InvariantViolated, inv, true, id
				return
			}
		}
		for _, a := range sp.Actions {
			if !a.Holds(&s, t) {
				stop, verdict, prop, badLabel, badState = true, ActionPropertyViolated, a.Name, l, *t
				return
			}
		}
	})
	switch {
	case stop && badNew:
		return r.violated(verdict, prop, badID, model.Label{}, nil)
	case stop:
		return r.violated(verdict, prop, sid, badLabel, &badState)
	case succs == 0 && sp.CheckDeadlock:
		return r.violated(Deadlock, "", sid, model.Label{}, nil)
	}
	return nil, nil
}

// failedInvariant returns the name of the first invariant s violates, or "".
func failedInvariant[S any](sp *Spec[S], s *S) string {
	for _, inv := range sp.Invariants {
		if !inv.Holds(s) {
			return inv.Name
		}
	}
	return ""
}

// pathTo returns the labels from an initial state to the state with id
// end, and the index of that initial state.
func pathTo(tree []treeNode, end uint32) (int, []model.Label) {
	var labels []model.Label
	id := end
	for tree[id].parent != noParent {
		labels = append(labels, tree[id].label)
		id = tree[id].parent
	}
	for i, j := 0, len(labels)-1; i < j; i, j = i+1, j-1 {
		labels[i], labels[j] = labels[j], labels[i]
	}
	return int(tree[id].label.Arg), labels
}

// replayPath rebuilds the states from an initial state to the state with
// id end by replaying the actions that reached it.
func replayPath[S any](sp *Spec[S], tree []treeNode, end uint32) ([]Step[S], error) {
	init, labels := pathTo(tree, end)
	return Replay(sp, init, labels)
}

// Replay applies labels to the init-th initial state and returns every
// state on the way, the initial one first.
func Replay[S any](sp *Spec[S], init int, labels []model.Label) ([]Step[S], error) {
	inits := sp.Init()
	if init < 0 || init >= len(inits) {
		return nil, fmt.Errorf("explore: no initial state %d", init)
	}
	steps := []Step[S]{{Action: "Init", State: inits[init]}}
	for _, l := range labels {
		var t S
		cur := steps[len(steps)-1].State
		if g := sp.Step(&cur, l, &t); g != model.Enabled {
			return nil, fmt.Errorf("explore: replaying %s: not enabled: %s", sp.LabelString(l), g)
		}
		steps = append(steps, Step[S]{Label: l, Action: sp.ActionName(l), State: t})
	}
	return steps, nil
}
