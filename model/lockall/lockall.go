// Package lockall is the Go mirror of spec/tla/LockAll.tla: impl/zklock's
// LockAll over two locks, each lock abstracted to its ZooKeeper queue
// (enqueue = the sequential create, granted when first, released = its
// node deleted), with the failures LockAll must survive: a part's Lock
// that fails (its context ended, its session lost) and a taken part's
// session lost while LockAll waits for the next part.
//
// Every variable of the spec is a field of State, every action a method of
// Spec with the action's name, the properties methods with the properties'
// names. spec/tla/README.md is the contract.
package lockall

import (
	"encoding/binary"
	"fmt"

	"github.com/zklock/zklock/model/tla"
)

// NumLocks is the number of locks (the spec's Locks == {1, 2}).
const NumLocks = 2

// Order is the value of the constant Order.
type Order string

// The orders LockAll may lock its parts in.
const (
	// Path: by lock path, whatever order the caller gives (impl/zklock).
	Path Order = "path"
	// Given: the caller's order (a control: two callers deadlock).
	Given Order = "given"
)

// LostPart is the value of the constant LostPart: what LockAll does when
// a part it took ends while it waits for a later part.
type LostPart string

// The rules for a part lost while LockAll waits.
const (
	// Checked: the wait ends as soon as a taken part ends, and after the
	// last grant every part is checked (impl/zklock).
	Checked LostPart = "checked"
	// Watched: only the wait ends (a control).
	Watched LostPart = "watched"
	// Ignored: neither (impl/zklock before LockAll.tla).
	Ignored LostPart = "ignored"
)

// Constants are the CONSTANTS of LockAll.
type Constants struct {
	Pairs, Singles         int
	MaxRequests, MaxFaults int
	Order                  Order
	LostPart               LostPart
	ReleaseOnFailure       bool
}

// Spec is the state machine with its constants.
type Spec struct {
	Constants
	plans [][]int // Plans: each client's parts in the order it locks them
}

// New checks the constants (the module's ASSUME) and returns the spec.
func New(k Constants) (*Spec, error) {
	for _, n := range []int{k.Pairs, k.Singles, k.MaxRequests, k.MaxFaults} {
		if n < 0 {
			return nil, fmt.Errorf("lockall: a constant is negative: %+v", k)
		}
	}
	if k.Pairs+k.Singles < 1 {
		return nil, fmt.Errorf("lockall: no clients: Pairs + Singles = %d", k.Pairs+k.Singles)
	}
	if k.Order != Path && k.Order != Given {
		return nil, fmt.Errorf("lockall: Order = %q: want %q or %q", k.Order, Path, Given)
	}
	if k.LostPart != Checked && k.LostPart != Watched && k.LostPart != Ignored {
		return nil, fmt.Errorf("lockall: LostPart = %q: want %q, %q or %q", k.LostPart, Checked, Watched, Ignored)
	}
	sp := &Spec{Constants: k}
	for c := 0; c < sp.N(); c++ {
		plan := sp.Wants(c)
		if k.Order == Path && len(plan) == 2 && plan[0] > plan[1] {
			plan = []int{plan[1], plan[0]}
		}
		sp.plans = append(sp.plans, plan)
	}
	return sp, nil
}

// N is the number of clients (spec: Clients == 1..(Pairs + Singles)).
func (sp *Spec) N() int { return sp.Pairs + sp.Singles }

// Wants are the locks client c (0-based) passes to LockAll, in the
// caller's order: odd clients (1-based) <<1, 2>>, even ones <<2, 1>>, the
// Singles <<2>>.
func (sp *Spec) Wants(c int) []int {
	switch {
	case c >= sp.Pairs:
		return []int{2}
	case c%2 == 0: // client c+1 is odd
		return []int{1, 2}
	}
	return []int{2, 1}
}

// Plan is the order in which client c locks its parts.
func (sp *Spec) Plan(c int) []int { return sp.plans[c] }

// PC is a client's program counter (spec: pc[c]).
type PC uint8

// The program counters.
const (
	Idle      PC = iota // no LockAll call
	Locking             // LockAll is taking its parts
	Holding             // LockAll returned a MultiLease
	Releasing           // LockAll failed and releases what it took
	Unlocking           // MultiLease.Unlock
)

// String is the spec's name of the program counter.
func (p PC) String() string {
	return [...]string{"idle", "locking", "holding", "releasing", "unlocking"}[p]
}

// Node is a lock node of client C (0-based) for its request R (spec:
// <<c, r>>, the client 1-based).
type Node struct{ C, R int }

// State is a state of LockAll; fields in the VARIABLES order. The slices
// are shared between states: never written in place.
type State struct {
	// Queue[l-1] is lock l's nodes in sequence order.
	Queue [NumLocks][]Node
	PC    []PC
	Reqs  []int
	// Taken[c] are the locks client c's LockAll took, in order.
	Taken [][]int
	// Ended[c] has bit l-1 set when the lease of lock l has ended.
	Ended  []uint8
	Faults int
}

// VarNames are the spec's variables, in the order of the VARIABLES clause.
var VarNames = []string{"queue", "pc", "reqs", "taken", "ended", "faults"}

// Init is the initial state (spec: Init).
func (sp *Spec) Init() State {
	n := sp.N()
	return State{PC: make([]PC, n), Reqs: make([]int, n), Taken: make([][]int, n), Ended: make([]uint8, n)}
}

// Node is client c's node for its current call (spec: Node(c)).
func (s *State) Node(c int) Node { return Node{C: c, R: s.Reqs[c]} }

// Pending is the part client c is locking (spec: Pending(c)); only while
// it is locking.
func (sp *Spec) Pending(s *State, c int) int { return sp.plans[c][len(s.Taken[c])] }

// Queued is the spec's Queued(c, l): c's node is in lock l's queue.
func (s *State) Queued(c, l int) bool {
	n := s.Node(c)
	for _, m := range s.Queue[l-1] {
		if m == n {
			return true
		}
	}
	return false
}

// Holds is the spec's Holds(c, l): a lease of c's call that has not ended.
func (s *State) Holds(c, l int) bool {
	return s.Ended[c]&(1<<(l-1)) == 0 && contains(s.Taken[c], l)
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// AppendEncoding appends the canonical encoding of s to b: every variable
// in order, integers as varints, sequences prefixed by their lengths.
func (s *State) AppendEncoding(b []byte) []byte {
	u := func(b []byte, x int) []byte { return binary.AppendUvarint(b, uint64(x)) }
	for _, q := range s.Queue {
		b = u(b, len(q))
		for _, n := range q {
			b = u(u(b, n.C), n.R)
		}
	}
	for c := range s.PC {
		b = append(u(b, s.Reqs[c]), byte(s.PC[c]), s.Ended[c])
		b = u(b, len(s.Taken[c]))
		for _, l := range s.Taken[c] {
			b = u(b, l)
		}
	}
	return u(b, s.Faults)
}

// TLA returns the state's variables as TLA+ values, in VarNames order
// (functions with domain 1..n print as tuples, as TLC prints them).
func (sp *Spec) TLA(s *State) []tla.Binding {
	queue := tla.Tuple{}
	for _, q := range s.Queue {
		t := tla.Tuple{}
		for _, n := range q {
			t = append(t, tla.Tuple{tla.Int(n.C + 1), tla.Int(n.R)})
		}
		queue = append(queue, t)
	}
	pc, reqs, taken, ended := tla.Tuple{}, tla.Tuple{}, tla.Tuple{}, tla.Tuple{}
	for c := range s.PC {
		pc = append(pc, tla.Str(s.PC[c].String()))
		reqs = append(reqs, tla.Int(s.Reqs[c]))
		t := tla.Tuple{}
		for _, l := range s.Taken[c] {
			t = append(t, tla.Int(l))
		}
		taken = append(taken, t)
		e := tla.Set{}
		for l := 1; l <= NumLocks; l++ {
			if s.Ended[c]&(1<<(l-1)) != 0 {
				e = append(e, tla.Int(l))
			}
		}
		ended = append(ended, e)
	}
	return []tla.Binding{
		{Name: "queue", Value: queue},
		{Name: "pc", Value: pc},
		{Name: "reqs", Value: reqs},
		{Name: "taken", Value: taken},
		{Name: "ended", Value: ended},
		{Name: "faults", Value: tla.Int(s.Faults)},
	}
}

// Format prints s as TLC prints a state.
func (sp *Spec) Format(s *State) string { return tla.FormatState(sp.TLA(s)) }
