package checker

import (
	"fmt"

	"github.com/anishathalye/porcupine"
)

// mutexState is the exclusive lock as the ZooKeeper ensemble sees it: which lease
// holds it, and the highest token granted so far.
type mutexState struct {
	holder int64 // token of the holding lease, 0 when free
	client string
	last   int64
}

// MutexModel returns the porcupine model of an exclusive lock, partitioned by lock
// path. Inputs are *[LockInput].
//
// An acquire that returned ok takes a free lock with a token above every token
// granted before (tokens are node czxids, and grants follow node order). A release
// that returned ok, a release whose outcome is unknown, and a lost observation end
// the lease that holds the lock if it is theirs, and are no-ops otherwise: a release
// racing the expiry of its own session, or issued after the loss, may legitimately
// find its lease gone. A failed release changes nothing (the node was not deleted),
// so only a lost record can end that lease.
//
// Operations with an unknown outcome return at infinity, as in etcd's robustness
// tests, and the model forks on them: placed where its effect is legal, an unknown
// release takes effect; placed at the end, after every operation that could observe
// it, it did not happen. An unknown acquire never has to take effect: it has no
// token the client could act on, and a grant nobody observed could only have
// blocked others, so the branch where it did not happen accepts a superset. A failed
// acquire (TryLock found the lock busy, or the wait was cancelled) is a no-op
// without a precondition, because waiters ahead of it may cancel too.
func MutexModel() porcupine.Model {
	return porcupine.Model{
		Partition: partitionBy(lockPath),
		Init:      func() interface{} { return mutexState{} },
		Step:      mutexStep,
		Hash: func(state interface{}) uint64 {
			s := state.(mutexState)
			return mix(uint64(s.holder), uint64(s.last))
		},
		DescribeOperation: describeLockOp,
		DescribeState: func(state interface{}) string {
			s := state.(mutexState)
			if s.holder == 0 {
				return fmt.Sprintf("free (last token %d)", s.last)
			}
			return fmt.Sprintf("held by %s #%d", s.client, s.holder)
		},
		DescribeOperationMetadata: describeMeta,
	}
}

func mutexStep(state, input, _ interface{}) (bool, interface{}) {
	s := state.(mutexState)
	in, ok := input.(*LockInput)
	if !ok {
		return false, nil
	}
	switch in.Kind {
	case KindAcquire:
		if in.Outcome != OutcomeOK {
			return true, s
		}
		if s.holder != 0 || (in.Token <= s.last && !in.Rewound) {
			return false, nil
		}
		return true, mutexState{holder: in.Token, client: in.Client, last: in.Token}
	case KindRelease, KindLost:
		if in.Outcome == OutcomeFailed {
			return true, s
		}
		if s.holder == in.Token && s.client == in.Client {
			return true, mutexState{last: s.last}
		}
		return true, s
	}
	return false, nil
}
