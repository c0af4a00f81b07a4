package checker

import (
	"fmt"

	"github.com/anishathalye/porcupine"
)

// registerState is a fenced register: the highest token it accepted and its value.
// settled: an operation has shown them (a partition that starts at a restore
// starts from values no operation showed yet).
type registerState struct {
	token   int64
	value   string
	settled bool
}

// RegisterModel returns the porcupine model of a fenced register, partitioned by
// register. Inputs are *[RegisterInput].
//
// A write that returned ok needs a token at least the highest accepted so far (the
// holder of a lease writes many times with one token) and sets the value. A read
// that returned ok must see the current value. A rejected write changes nothing and
// is legal whatever its token: a ZooKeeper write guarded by the lock node fails once
// the node is gone even if no newer holder has written yet. A write whose outcome is
// unknown returns at infinity and forks like an unknown release: it takes effect
// where its token is high enough, or is placed at the end, where nothing observes
// it. Reads that did not return a value change nothing.
func RegisterModel() porcupine.Model {
	return porcupine.Model{
		Partition: partitionBy(registerName),
		Init:      func() interface{} { return registerState{} },
		Step:      registerStep,
		Hash: func(state interface{}) uint64 {
			s := state.(registerState)
			h := mix(0, uint64(s.token))
			if s.settled {
				h = mix(h, 1)
			}
			for i := 0; i < len(s.value); i++ {
				h = mix(h, uint64(s.value[i]))
			}
			return h
		},
		DescribeOperation: describeRegisterOp,
		DescribeState: func(state interface{}) string {
			s := state.(registerState)
			return fmt.Sprintf("%q (token %d)", s.value, s.token)
		},
		DescribeOperationMetadata: describeMeta,
	}
}

func registerStep(state, input, _ interface{}) (bool, interface{}) {
	s := state.(registerState)
	in, ok := input.(*RegisterInput)
	if !ok {
		return false, nil
	}
	if in.Restored && !s.settled {
		return restoredStep(s, in)
	}
	switch in.Kind {
	case KindWrite:
		switch in.Outcome {
		case OutcomeOK:
			if in.Token < s.token {
				return false, nil
			}
			return true, registerState{token: in.Token, value: in.Value, settled: s.settled}
		case OutcomeUnknown:
			if in.Token < s.token {
				return true, s
			}
			return true, registerState{token: in.Token, value: in.Value, settled: s.settled}
		}
		return true, s
	case KindRead:
		if in.Outcome == OutcomeOK && in.Value != s.value {
			return false, nil
		}
		return true, s
	}
	return false, nil
}

// restoredStep is the first operation of a partition that starts at a
// restore: the backup's value and token are unknown, so a read that
// returned a value shows the value, and a write that applied sets both (a
// rejected write, or one with an unknown outcome, may have met a higher
// token: it shows nothing).
func restoredStep(s registerState, in *RegisterInput) (bool, interface{}) {
	switch {
	case in.Kind == KindWrite && in.Outcome == OutcomeOK:
		return true, registerState{token: in.Token, value: in.Value, settled: true}
	case in.Kind == KindRead && in.Outcome == OutcomeOK:
		return true, registerState{token: s.token, value: in.Value, settled: true}
	case in.Kind == KindWrite || in.Kind == KindRead:
		return true, s
	}
	return false, nil
}
