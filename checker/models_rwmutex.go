package checker

import (
	"fmt"
	"sort"
	"strings"

	"github.com/anishathalye/porcupine"
)

type holder struct {
	token  int64
	client string
}

// rwState is a read/write lock as the ensemble sees it. readers is sorted by token
// and never modified once a state holds it: porcupine keeps old states around.
type rwState struct {
	writer     holder
	readers    []holder
	lastWriter int64 // highest writer token granted so far
	maxGranted int64 // highest token granted so far, any mode
}

// RWMutexModel returns the porcupine model of a read/write lock, partitioned by lock
// path. Inputs are *[LockInput]; acquires carry ModeRead or ModeWrite.
//
// A read acquire that returned ok needs no writer and a token above every writer
// granted before; a write acquire needs the lock free and a token above every grant
// before. (A reader waits only for the last writer below it, so readers may be
// granted out of token order among themselves, never around a writer.) Releases,
// lost observations and unknown outcomes behave as in [MutexModel].
func RWMutexModel() porcupine.Model {
	return porcupine.Model{
		Partition: partitionBy(lockPath),
		Init:      func() interface{} { return rwState{} },
		Step:      rwStep,
		Equal: func(a, b interface{}) bool {
			x, y := a.(rwState), b.(rwState)
			if x.writer != y.writer || x.lastWriter != y.lastWriter || x.maxGranted != y.maxGranted ||
				len(x.readers) != len(y.readers) {
				return false
			}
			for i := range x.readers {
				if x.readers[i] != y.readers[i] {
					return false
				}
			}
			return true
		},
		Hash: func(state interface{}) uint64 {
			s := state.(rwState)
			h := mix(uint64(s.writer.token), uint64(s.maxGranted))
			h = mix(h, uint64(s.lastWriter))
			for _, r := range s.readers {
				h = mix(h, uint64(r.token))
			}
			return h
		},
		DescribeOperation: describeLockOp,
		DescribeState: func(state interface{}) string {
			s := state.(rwState)
			switch {
			case s.writer.token != 0:
				return fmt.Sprintf("writer %s #%d", s.writer.client, s.writer.token)
			case len(s.readers) > 0:
				parts := make([]string, len(s.readers))
				for i, r := range s.readers {
					parts[i] = fmt.Sprintf("%s #%d", r.client, r.token)
				}
				return "readers " + strings.Join(parts, ", ")
			}
			return fmt.Sprintf("free (last writer token %d, last token %d)", s.lastWriter, s.maxGranted)
		},
		DescribeOperationMetadata: describeMeta,
	}
}

func rwStep(state, input, _ interface{}) (bool, interface{}) {
	s := state.(rwState)
	in, ok := input.(*LockInput)
	if !ok {
		return false, nil
	}
	switch in.Kind {
	case KindAcquire:
		if in.Outcome != OutcomeOK {
			return true, s
		}
		if s.writer.token != 0 {
			return false, nil
		}
		h := holder{in.Token, in.Client}
		if in.Mode == ModeRead {
			if in.Token <= s.lastWriter && !in.Rewound {
				return false, nil
			}
			i := sort.Search(len(s.readers), func(i int) bool { return s.readers[i].token >= in.Token })
			if i < len(s.readers) && s.readers[i].token == in.Token {
				return false, nil // one node granted twice at once
			}
			readers := make([]holder, 0, len(s.readers)+1)
			readers = append(append(append(readers, s.readers[:i]...), h), s.readers[i:]...)
			return true, rwState{readers: readers, lastWriter: s.lastWriter, maxGranted: max(s.maxGranted, in.Token)}
		}
		if len(s.readers) > 0 || (in.Token <= s.maxGranted && !in.Rewound) {
			return false, nil
		}
		return true, rwState{writer: h, lastWriter: in.Token, maxGranted: in.Token}
	case KindRelease, KindLost:
		if in.Outcome == OutcomeFailed {
			return true, s
		}
		h := holder{in.Token, in.Client}
		if s.writer == h {
			return true, rwState{lastWriter: s.lastWriter, maxGranted: s.maxGranted}
		}
		for i, r := range s.readers {
			if r == h {
				readers := make([]holder, 0, len(s.readers)-1)
				readers = append(append(readers, s.readers[:i]...), s.readers[i+1:]...)
				return true, rwState{readers: readers, lastWriter: s.lastWriter, maxGranted: s.maxGranted}
			}
		}
		return true, s
	}
	return false, nil
}
