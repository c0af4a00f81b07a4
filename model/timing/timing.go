// Package timing is what the timing modules' mirrors share
// (model/sessiontiming, model/sessiontimingload, model/timedlock,
// model/timedelection): their
// actions take no client, at most one parameter, so each spec is a table
// of actions in the order of its Next's disjuncts, and Step, Next and the
// actions' names are the table's, written once here. A module that
// INSTANCEs another (TimedLock's `ST == INSTANCE SessionTiming`) takes the
// other's actions with Lift (`ST!Tick /\ UNCHANGED ...`) and Extend
// (`ST!ReceiveRequest(i) /\ hsaw' = ...`) instead of restating them.
package timing

import (
	"strconv"

	"github.com/zklock/zklock/model"
)

// Action is one action of a timing module.
type Action[S any] struct {
	// Name is the spec's name of the action.
	Name string
	// Params is the range lo..hi of the action's parameter in s, in
	// TLC's order (TLC splits \E over a constant set into one action per
	// element; the model tries only the elements that can be enabled);
	// nil: the action has no parameter (Label.Arg 0).
	Params func(s *S) (lo, hi int)
	// Param prints the parameter in a label; nil: as a number.
	Param func(arg int) string
	// Step evaluates the guard for the parameter arg and either writes
	// the successor into t or returns the false conjunct.
	Step func(s *S, arg int, t *S) model.Guard
}

// Actions is a module's action table in the order of its Next's
// disjuncts: an action's index is its Label.Action.
type Actions[S any] []Action[S]

// Plain is the step of an action without a parameter.
func Plain[S any](f func(s, t *S) model.Guard) func(*S, int, *S) model.Guard {
	return func(s *S, _ int, t *S) model.Guard { return f(s, t) }
}

// Step applies the action instance l to s, writing the successor into t.
func (as Actions[S]) Step(s *S, l model.Label, t *S) model.Guard {
	if int(l.Action) >= len(as) {
		return "unknown action"
	}
	return as[l.Action].Step(s, int(l.Arg), t)
}

// Next calls emit with every successor of s in TLC's order: the actions in
// table order, each over its parameters in increasing order.
func (as Actions[S]) Next(s *S, emit func(model.Label, *S)) {
	var t S
	for a, act := range as {
		lo, hi := 0, 0
		if act.Params != nil {
			lo, hi = act.Params(s)
		}
		for i := lo; i <= hi; i++ {
			if act.Step(s, i, &t) == model.Enabled {
				emit(model.Label{Action: uint8(a), Client: -1, Arg: int16(i)}, &t)
			}
		}
	}
}

// ActionName returns the spec name of l's action.
func (as Actions[S]) ActionName(l model.Label) string {
	if int(l.Action) < len(as) {
		return as[l.Action].Name
	}
	return "?"
}

// LabelString renders l with its parameter, e.g. "AckReply(2)",
// `SendRequest("sync")`.
func (as Actions[S]) LabelString(l model.Label) string {
	if int(l.Action) >= len(as) || as[l.Action].Params == nil {
		return as.ActionName(l)
	}
	a := as[l.Action]
	p := strconv.Itoa(int(l.Arg))
	if a.Param != nil {
		p = a.Param(int(l.Arg))
	}
	return a.Name + "(" + p + ")"
}

// Lift is a on the part of a larger state that part picks, the rest of the
// state unchanged: `ST!A /\ UNCHANGED <<the module's own variables>>`.
func Lift[S, T any](a Action[S], part func(*T) *S) Action[T] { return Extend(a, part, nil) }

// Extend is a on the part of a larger state that part picks, then the
// module's own conjuncts more on the whole state (t holds s with a's step
// applied to its part; more writes the rest or returns its false
// conjunct): `ST!A(i) /\ more(i)`.
func Extend[S, T any](a Action[S], part func(*T) *S, more func(s *T, arg int, t *T) model.Guard) Action[T] {
	out := Action[T]{Name: a.Name, Param: a.Param, Step: func(s *T, arg int, t *T) model.Guard {
		*t = *s
		if g := a.Step(part(s), arg, part(t)); g != model.Enabled || more == nil {
			return g
		}
		return more(s, arg, t)
	}}
	if a.Params != nil {
		out.Params = func(s *T) (int, int) { return a.Params(part(s)) }
	}
	return out
}

// In reports whether 0 <= x <= hi (x \in 0..hi), for the modules' TypeOK.
func In(x, hi int) bool { return 0 <= x && x <= hi }

// AppendBool appends x to a canonical encoding as one byte.
func AppendBool(b []byte, x bool) []byte {
	if x {
		return append(b, 1)
	}
	return append(b, 0)
}
