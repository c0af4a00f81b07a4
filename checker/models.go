package checker

import (
	"fmt"
	"strings"

	"github.com/anishathalye/porcupine"
)

// LockInput is the Input of an operation on the lock models ([MutexModel],
// [RWMutexModel]). The Output of those operations is unused: the outcome is part of
// the input because, for an operation whose outcome is unknown, the outcome is what
// tells the model to fork.
type LockInput struct {
	Kind    Kind    // KindAcquire, KindRelease or KindLost
	Mode    Mode    // of an acquire
	Outcome Outcome // what the client learned
	Token   int64   // the token an acquire returned, or the lease a release or lost ends
	Client  string  // for the visualisation
	Path    string  // the partition key
	Max     int     // a semaphore acquire's max (SemaphoreModel); 0 for a lock
	// Rewound: the acquire said its token is not above one handed out
	// before (Record.Rewound): the ensemble's history went back, and its
	// tokens start a new order.
	Rewound bool
}

// RegisterInput is the Input of an operation on [RegisterModel]. Its Output is
// unused, as for [LockInput].
type RegisterInput struct {
	Kind     Kind    // KindWrite or KindRead
	Outcome  Outcome // what the client learned
	Token    int64   // the token a write carries
	Value    string  // written, or returned by a read
	Client   string  // for the visualisation
	Register string  // the partition key
	// Restored: the partition starts at a restore, from the backup's value
	// and token, unknown: its first operation that shows them sets them.
	Restored bool
}

// opMeta is the Metadata of every operation: where it came from, for the tooltips.
type opMeta struct {
	index int
	rec   *Record
}

func describeMeta(info interface{}) string {
	m, ok := info.(*opMeta)
	if !ok || m == nil {
		return ""
	}
	r := m.rec
	parts := []string{fmt.Sprintf("record %d", m.index), fmt.Sprintf("call %s", fmtTime(r.Call))}
	if r.Outcome == OutcomeUnknown {
		parts = append(parts, fmt.Sprintf("gave up %s (checked as returning at infinity)", fmtTime(r.Return)))
	} else {
		parts = append(parts, fmt.Sprintf("return %s", fmtTime(r.Return)))
	}
	if r.Session != "" {
		parts = append(parts, "session "+r.Session)
	}
	if r.Node != "" {
		parts = append(parts, "node "+r.Node)
	}
	if r.Error != "" {
		parts = append(parts, "error: "+r.Error)
	}
	return strings.Join(parts, "\n")
}

func describeOutcome(o Outcome, failed string) string {
	switch o {
	case OutcomeOK:
		return "ok"
	case OutcomeFailed:
		return failed
	}
	return "? (unknown)"
}

func describeLockOp(input, _ interface{}) string {
	in, ok := input.(*LockInput)
	if !ok {
		return fmt.Sprintf("%v", input)
	}
	switch in.Kind {
	case KindAcquire:
		mode := ""
		if in.Mode != ModeExclusive {
			mode = string(in.Mode)
		}
		s := fmt.Sprintf("%s lock(%s) -> %s", in.Client, mode, describeOutcome(in.Outcome, "failed"))
		if in.Outcome == OutcomeOK {
			s += fmt.Sprintf(" #%d", in.Token)
		}
		return s
	case KindRelease:
		return fmt.Sprintf("%s unlock #%d -> %s", in.Client, in.Token, describeOutcome(in.Outcome, "failed"))
	case KindLost:
		return fmt.Sprintf("%s lost #%d", in.Client, in.Token)
	}
	return fmt.Sprintf("%s %s", in.Client, in.Kind)
}

func describeRegisterOp(input, _ interface{}) string {
	in, ok := input.(*RegisterInput)
	if !ok {
		return fmt.Sprintf("%v", input)
	}
	if in.Kind == KindWrite {
		return fmt.Sprintf("%s write #%d %q -> %s", in.Client, in.Token, in.Value, describeOutcome(in.Outcome, "rejected"))
	}
	if in.Outcome == OutcomeOK {
		return fmt.Sprintf("%s read -> %q", in.Client, in.Value)
	}
	return fmt.Sprintf("%s read -> %s", in.Client, describeOutcome(in.Outcome, "failed"))
}

// partitionBy builds a porcupine partition function from a key of the input, keeping
// the first-seen order of keys so results are deterministic.
func partitionBy(key func(interface{}) string) func([]porcupine.Operation) [][]porcupine.Operation {
	return func(ops []porcupine.Operation) [][]porcupine.Operation {
		index := make(map[string]int)
		var parts [][]porcupine.Operation
		for _, op := range ops {
			k := key(op.Input)
			i, ok := index[k]
			if !ok {
				i = len(parts)
				index[k] = i
				parts = append(parts, nil)
			}
			parts[i] = append(parts[i], op)
		}
		return parts
	}
}

func lockPath(input interface{}) string {
	if in, ok := input.(*LockInput); ok {
		return in.Path
	}
	return ""
}

func registerName(input interface{}) string {
	if in, ok := input.(*RegisterInput); ok {
		return in.Register
	}
	return ""
}

// mix is a cheap 64-bit mixer for the models' Hash functions.
func mix(h, v uint64) uint64 {
	h ^= v + 0x9e3779b97f4a7c15 + (h << 6) + (h >> 2)
	return h
}
