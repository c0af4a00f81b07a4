// Package tla represents TLA+ values as TLC prints them in a
// counterexample, so that a Go model's state can be compared with TLC's,
// variable by variable.
//
// A Value prints itself in TLC's syntax (String) and has a canonical form
// (Canon) in which sets are sorted and duplicate-free, record fields sorted
// by name, and functions sorted by key, a function with domain 1..n being
// the tuple of its values: two values are equal as TLA+ values iff their
// canonical forms are equal. Parse reads TLC's printed values.
package tla

import (
	"sort"
	"strconv"
	"strings"
)

// Value is a TLA+ value.
type Value interface {
	// String prints the value in TLC's syntax, in the order it was built.
	String() string
	// Canon prints the value's canonical form.
	Canon() string
}

// Int is an integer.
type Int int64

// Bool is TRUE or FALSE.
type Bool bool

// Str is a string.
type Str string

// ModelValue is a model value declared in a config, such as c1.
type ModelValue string

// Tuple is a tuple or sequence <<a, b>>.
type Tuple []Value

// Set is a finite set {a, b}.
type Set []Value

// Field is one field of a record.
type Field struct {
	Name  string
	Value Value
}

// Record is a record [a |-> 1, b |-> 2].
type Record []Field

// Pair is one key of a function with its value.
type Pair struct {
	Key, Value Value
}

// Func is a function printed as (k1 :> v1 @@ k2 :> v2).
type Func []Pair

// Binding is one variable of a state with its value.
type Binding struct {
	Name  string
	Value Value
}

// FormatState prints bindings as TLC prints a state: one
// "/\ variable = value" line per variable, in the order given.
func FormatState(bs []Binding) string {
	out := make([]byte, 0, 512)
	for i, v := range bs {
		if i > 0 {
			out = append(out, '\n')
		}
		out = append(out, `/\ `+v.Name+" = "+v.Value.String()...)
	}
	return string(out)
}

// String implements Value.
func (v Int) String() string { return strconv.FormatInt(int64(v), 10) }

// Canon implements Value.
func (v Int) Canon() string { return v.String() }

// String implements Value.
func (v Bool) String() string {
	if v {
		return "TRUE"
	}
	return "FALSE"
}

// Canon implements Value.
func (v Bool) Canon() string { return v.String() }

// String implements Value.
func (v Str) String() string { return strconv.Quote(string(v)) }

// Canon implements Value.
func (v Str) Canon() string { return v.String() }

// String implements Value.
func (v ModelValue) String() string { return string(v) }

// Canon implements Value.
func (v ModelValue) Canon() string { return string(v) }

// String implements Value.
func (v Tuple) String() string { return "<<" + join(v, Value.String) + ">>" }

// Canon implements Value.
func (v Tuple) Canon() string { return "<<" + join(v, Value.Canon) + ">>" }

// String implements Value.
func (v Set) String() string { return "{" + join(v, Value.String) + "}" }

// Canon implements Value.
func (v Set) Canon() string {
	elems := make([]string, 0, len(v))
	seen := map[string]bool{}
	for _, e := range v {
		c := e.Canon()
		if !seen[c] {
			seen[c] = true
			elems = append(elems, c)
		}
	}
	sort.Strings(elems)
	return "{" + strings.Join(elems, ", ") + "}"
}

// String implements Value.
func (v Record) String() string {
	parts := make([]string, len(v))
	for i, f := range v {
		parts[i] = f.Name + " |-> " + f.Value.String()
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// Canon implements Value.
func (v Record) Canon() string {
	parts := make([]string, len(v))
	for i, f := range v {
		parts[i] = f.Name + " |-> " + f.Value.Canon()
	}
	sort.Strings(parts)
	return "[" + strings.Join(parts, ", ") + "]"
}

// String implements Value: (k1 :> v1 @@ k2 :> v2), <<>> when empty.
func (v Func) String() string {
	if len(v) == 0 {
		return "<<>>"
	}
	parts := make([]string, len(v))
	for i, p := range v {
		parts[i] = p.Key.String() + " :> " + p.Value.String()
	}
	return "(" + strings.Join(parts, " @@ ") + ")"
}

// Canon implements Value. A function whose domain is 1..n is the tuple of
// its values (TLC prints sequences that way).
func (v Func) Canon() string {
	if t, ok := v.asTuple(); ok {
		return t.Canon()
	}
	type kv struct{ k, v string }
	parts := make([]kv, len(v))
	for i, p := range v {
		parts[i] = kv{p.Key.Canon(), p.Value.Canon()}
	}
	sort.Slice(parts, func(i, j int) bool { return parts[i].k < parts[j].k })
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = p.k + " :> " + p.v
	}
	return "(" + strings.Join(out, " @@ ") + ")"
}

func (v Func) asTuple() (Tuple, bool) {
	t := make(Tuple, len(v))
	for _, p := range v {
		k, ok := p.Key.(Int)
		if !ok || k < 1 || int(k) > len(v) || t[k-1] != nil {
			return nil, false
		}
		t[k-1] = p.Value
	}
	return t, true
}

func join(vs []Value, f func(Value) string) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = f(v)
	}
	return strings.Join(parts, ", ")
}

// Equal reports whether a and b are the same TLA+ value.
func Equal(a, b Value) bool { return a.Canon() == b.Canon() }
