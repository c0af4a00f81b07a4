package checker

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/anishathalye/porcupine"
)

// ModelSemaphore names the partitions of a semaphore's lease operations.
const ModelSemaphore = "semaphore"

// semState is a counting semaphore as the ensemble sees it: the leases held,
// sorted by token, never modified once a state holds them (porcupine keeps
// old states around).
type semState struct {
	held []holder
}

// SemaphoreModel returns the porcupine model of a counting semaphore,
// partitioned by path. Inputs are *[LockInput] whose acquires carry the
// semaphore's Max.
//
// An acquire that returned ok is legal only while fewer than Max leases are
// held, and adds its lease. Releases, lost observations and unknown outcomes
// behave as in [MutexModel]: an ok or unknown release and a lost observation
// end their lease if it is held, a failed release changes nothing, a failed
// or unknown acquire need not take effect. Tokens are not ordered: a lease
// node is made before its acquirer waits, and several hold at once.
func SemaphoreModel() porcupine.Model {
	return porcupine.Model{
		Partition: partitionBy(lockPath),
		Init:      func() interface{} { return semState{} },
		Step:      semStep,
		Equal: func(a, b interface{}) bool {
			return slices.Equal(a.(semState).held, b.(semState).held)
		},
		Hash: func(state interface{}) uint64 {
			var h uint64
			for _, l := range state.(semState).held {
				h = mix(h, uint64(l.token))
			}
			return h
		},
		DescribeOperation: describeLockOp,
		DescribeState: func(state interface{}) string {
			s := state.(semState)
			if len(s.held) == 0 {
				return "no lease held"
			}
			parts := make([]string, len(s.held))
			for i, l := range s.held {
				parts[i] = fmt.Sprintf("%s #%d", l.client, l.token)
			}
			return fmt.Sprintf("%d held: %s", len(s.held), strings.Join(parts, ", "))
		},
		DescribeOperationMetadata: describeMeta,
	}
}

func semStep(state, input, _ interface{}) (bool, interface{}) {
	s := state.(semState)
	in, ok := input.(*LockInput)
	if !ok {
		return false, nil
	}
	me := holder{token: in.Token, client: in.Client}
	i, found := slices.BinarySearchFunc(s.held, in.Token, func(h holder, t int64) int {
		return cmp.Compare(h.token, t)
	})
	switch in.Kind {
	case KindAcquire:
		if in.Outcome != OutcomeOK {
			return true, s
		}
		if found || len(s.held) >= in.Max {
			return false, nil
		}
		return true, semState{held: slices.Insert(slices.Clone(s.held), i, me)}
	case KindRelease, KindLost:
		if in.Outcome == OutcomeFailed || !found || s.held[i] != me {
			return true, s
		}
		return true, semState{held: slices.Delete(slices.Clone(s.held), i, i+1)}
	}
	return false, nil
}
