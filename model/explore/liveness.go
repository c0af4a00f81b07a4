package explore

import (
	"fmt"

	"github.com/zklock/zklock/model"
)

// graph is the state graph recorded for liveness checking: the steps out
// of every state in generation order, the fairness conditions each step
// satisfies, and the truth of every leads-to's P(i) and Q(i) in every state.
type graph struct {
	edges [][]edge
	// enabled[s] has bit k set iff fairness condition k is enabled in s
	// (some step out of s, to another state, is an A_k step).
	enabled []uint64
	// p[j][s] and q[j][s] have bit i set iff P(i), Q(i) of the j-th
	// temporal property hold in s.
	p, q [][]uint64
}

type edge struct {
	to    uint32
	label model.Label
	fair  uint64 // bit k: an A_k step to another state
}

func newGraph[S any](sp *Spec[S]) (*graph, error) {
	if len(sp.Fairness) > 64 {
		return nil, fmt.Errorf("explore: %d fairness conditions: at most 64", len(sp.Fairness))
	}
	for _, lt := range sp.Temporal {
		if lt.N > 64 {
			return nil, fmt.Errorf("explore: %s has %d parameters: at most 64", lt.Name, lt.N)
		}
	}
	return &graph{p: make([][]uint64, len(sp.Temporal)), q: make([][]uint64, len(sp.Temporal))}, nil
}

// addStateOf records the predicates of a new state.
func addStateOf[S any](g *graph, sp *Spec[S], s *S) {
	g.edges = append(g.edges, nil)
	g.enabled = append(g.enabled, 0)
	for j, lt := range sp.Temporal {
		var p, q uint64
		for i := 0; i < lt.N; i++ {
			if lt.P(s, i) {
				p |= 1 << i
			}
			if lt.Q(s, i) {
				q |= 1 << i
			}
		}
		g.p[j] = append(g.p[j], p)
		g.q[j] = append(g.q[j], q)
	}
}

// addEdgeOf records the step from s (id from) to the state with id to.
func addEdgeOf[S any](g *graph, sp *Spec[S], s *S, from, to uint32, l model.Label) {
	var fair uint64
	if from != to {
		for k, f := range sp.Fairness {
			if f.Takes(s, l) {
				fair |= 1 << k
			}
		}
	}
	g.edges[from] = append(g.edges[from], edge{to: to, label: l, fair: fair})
	g.enabled[from] |= fair
}

// checkLiveness checks the temporal properties on the complete graph, in
// order and for each parameter in order, and fills res with the first
// violation (see the package documentation for the method).
func checkLiveness[S any](g *graph, sp *Spec[S], tree []treeNode, res *Result[S]) error {
	all := uint64(1)<<len(sp.Fairness) - 1
	if len(sp.Fairness) == 64 {
		all = ^uint64(0)
	}
	for j, lt := range sp.Temporal {
		for i := 0; i < lt.N; i++ {
			bit := uint64(1) << i
			notQ := func(s uint32) bool { return g.q[j][s]&bit == 0 }
			start := func(s uint32) bool { return g.p[j][s]&bit != 0 && notQ(s) }
			comp := g.fairComponents(notQ, start, all)
			entry, labels, init, ok := g.shortestEntry(tree, notQ, start, comp)
			if !ok {
				continue
			}
			cycle, stutters := g.cycle(entry, comp, all)
			steps, err := Replay(sp, init, append(labels, cycle...))
			if err != nil {
				return err
			}
			res.Verdict, res.Property = TemporalViolated, lt.Name
			if lt.Param != nil {
				res.Param = lt.Param(i)
			}
			res.TraceLoop, res.TraceStutters = len(labels), stutters
			if stutters {
				res.TraceLoop = -1
				res.Trace = steps
			} else {
				// The last step closes the cycle: it leads back to the
				// state at TraceLoop and is not repeated.
				res.Trace = steps[:len(steps)-1]
			}
			return nil
		}
	}
	return nil
}

// fairComponents returns, for every state, the index of its strongly
// connected component in the subgraph of ~Q states reachable through ~Q
// states from a state satisfying start, if that component is fair; -1
// otherwise.
func (g *graph) fairComponents(notQ, start func(uint32) bool, all uint64) []int32 {
	n := uint32(len(g.edges))
	// The states reachable from a start state through ~Q states.
	in := make([]bool, n)
	var stack []uint32
	for s := uint32(0); s < n; s++ {
		if start(s) {
			in[s] = true
			stack = append(stack, s)
		}
	}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, e := range g.edges[s] {
			if !in[e.to] && notQ(e.to) {
				in[e.to] = true
				stack = append(stack, e.to)
			}
		}
	}
	comp := tarjan(g, in)
	// Fairness of each component: the conditions it satisfies.
	sat := map[int32]uint64{}
	for s := uint32(0); s < n; s++ {
		c := comp[s]
		if c < 0 {
			continue
		}
		sat[c] |= all &^ g.enabled[s] // disabled somewhere in the component
		for _, e := range g.edges[s] {
			if e.to != s && comp[e.to] == c {
				sat[c] |= e.fair // taken inside the component
			}
		}
	}
	for s := uint32(0); s < n; s++ {
		if c := comp[s]; c >= 0 && sat[c] != all {
			comp[s] = -1
		}
	}
	return comp
}

// tarjan numbers the strongly connected components of the subgraph
// induced by in (iteratively); states outside it get -1.
func tarjan(g *graph, in []bool) []int32 {
	n := len(g.edges)
	index := make([]int32, n)
	low := make([]int32, n)
	onStack := make([]bool, n)
	comp := make([]int32, n)
	for i := range index {
		index[i], comp[i] = -1, -1
	}
	var stack []uint32
	type frame struct {
		s    uint32
		next int
	}
	var calls []frame
	var counter, comps int32
	for root := 0; root < n; root++ {
		if !in[root] || index[root] >= 0 {
			continue
		}
		calls = append(calls, frame{s: uint32(root)})
		index[root], low[root] = counter, counter
		counter++
		stack = append(stack, uint32(root))
		onStack[root] = true
		for len(calls) > 0 {
			f := &calls[len(calls)-1]
			if f.next < len(g.edges[f.s]) {
				e := g.edges[f.s][f.next]
				f.next++
				t := e.to
				if !in[t] {
					continue
				}
				if index[t] < 0 {
					index[t], low[t] = counter, counter
					counter++
					stack = append(stack, t)
					onStack[t] = true
					calls = append(calls, frame{s: t})
				} else if onStack[t] && index[t] < low[f.s] {
					low[f.s] = index[t]
				}
				continue
			}
			s := f.s
			calls = calls[:len(calls)-1]
			if len(calls) > 0 {
				p := calls[len(calls)-1].s
				if low[s] < low[p] {
					low[p] = low[s]
				}
			}
			if low[s] == index[s] {
				for {
					t := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[t] = false
					comp[t] = comps
					if t == s {
						break
					}
				}
				comps++
			}
		}
	}
	return comp
}

// shortestEntry finds a shortest path from an initial state to a state of
// a fair component that, from some start state on, stays in ~Q: a
// breadth-first search over pairs (state, committed), where committed
// means a start state has been passed and Q has not held since. It returns
// the entry state, the labels of the path and the initial state's index.
func (g *graph) shortestEntry(tree []treeNode, notQ, start func(uint32) bool, comp []int32) (uint32, []model.Label, int, bool) {
	type pnode = uint32 // state*2 + committed
	n := uint32(len(g.edges))
	prev := make([]uint32, 2*n)
	via := make([]model.Label, 2*n)
	seen := make([]bool, 2*n)
	var queue []pnode
	push := func(x, from pnode, l model.Label) {
		if !seen[x] {
			seen[x] = true
			prev[x], via[x] = from, l
			queue = append(queue, x)
		}
	}
	for s := uint32(0); s < n; s++ {
		if tree[s].parent == noParent {
			push(2*s, noParent, model.Label{})
			if start(s) {
				push(2*s+1, noParent, model.Label{})
			}
		}
	}
	for head := 0; head < len(queue); head++ {
		x := queue[head]
		s, committed := x/2, x%2 == 1
		if committed && comp[s] >= 0 {
			var labels []model.Label
			for y := x; prev[y] != noParent; y = prev[y] {
				labels = append(labels, via[y])
			}
			for i, j := 0, len(labels)-1; i < j; i, j = i+1, j-1 {
				labels[i], labels[j] = labels[j], labels[i]
			}
			root := x
			for prev[root] != noParent {
				root = prev[root]
			}
			return s, labels, int(tree[root/2].label.Arg), true
		}
		for _, e := range g.edges[s] {
			if committed {
				if notQ(e.to) {
					push(2*e.to+1, x, e.label)
				}
				continue
			}
			push(2*e.to, x, e.label)
			if start(e.to) {
				push(2*e.to+1, x, e.label)
			}
		}
	}
	return 0, nil, 0, false
}

// cycle returns the labels of a cycle through entry inside its component
// that, for every fairness condition, takes a step of it or visits a state
// where it is disabled; or stutters = true when every condition is
// disabled at entry.
func (g *graph) cycle(entry uint32, comp []int32, all uint64) ([]model.Label, bool) {
	c := comp[entry]
	pending := g.enabled[entry] & all
	if pending == 0 {
		return nil, true
	}
	var labels []model.Label
	cur := entry
	// bfs walks inside the component from cur to the nearest state where
	// done says to stop, returning the path's labels and the last state.
	bfs := func(from uint32, done func(s uint32, first bool) (stop bool, l *edge)) ([]model.Label, uint32) {
		prev := map[uint32]uint32{from: from}
		via := map[uint32]model.Label{}
		queue := []uint32{from}
		for head := 0; head < len(queue); head++ {
			s := queue[head]
			stop, last := done(s, s == from)
			if stop {
				var path []model.Label
				end := s
				if last != nil {
					end = last.to
				}
				for y := s; y != from; y = prev[y] {
					path = append(path, via[y])
				}
				for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
					path[i], path[j] = path[j], path[i]
				}
				if last != nil {
					path = append(path, last.label)
				}
				return path, end
			}
			for _, e := range g.edges[s] {
				if comp[e.to] != c || e.to == s {
					continue
				}
				if _, ok := prev[e.to]; !ok {
					prev[e.to], via[e.to] = s, e.label
					queue = append(queue, e.to)
				}
			}
		}
		return nil, from
	}
	for pending != 0 {
		path, end := bfs(cur, func(s uint32, first bool) (bool, *edge) {
			if !first && pending&^g.enabled[s] != 0 {
				return true, nil
			}
			for i := range g.edges[s] {
				e := &g.edges[s][i]
				if e.to != s && comp[e.to] == c && e.fair&pending != 0 {
					return true, e
				}
			}
			return false, nil
		})
		if path == nil {
			break // cannot happen in a fair component
		}
		// Everything the path passes witnesses its conditions.
		s := cur
		for _, l := range path {
			for _, e := range g.edges[s] {
				if e.label == l {
					pending &^= e.fair
					s = e.to
					break
				}
			}
			pending &^= all &^ g.enabled[s]
		}
		labels = append(labels, path...)
		cur = end
	}
	if cur != entry || len(labels) == 0 {
		back, _ := bfs(cur, func(s uint32, first bool) (bool, *edge) {
			if len(labels) == 0 && first {
				return false, nil
			}
			for i := range g.edges[s] {
				e := &g.edges[s][i]
				if e.to == entry && e.to != s {
					return true, e
				}
			}
			return false, nil
		})
		labels = append(labels, back...)
	}
	return labels, false
}
