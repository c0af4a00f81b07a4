// Package checker decides whether a history recorded from a lock run (a chaos
// campaign against a real ZooKeeper ensemble, or a simulation) is correct.
//
// # What is checked
//
// A history ([History], one [Record] per line of JSON, format in README.md) holds
// every acquire, release, lost-lock observation, fenced write and read of a run,
// the faults injected, and the lock nodes left at the end. [Check] looks at it in
// three ways, because a lock has three places where it can be wrong:
//
//   - The ensemble's view. porcupine checks each lock path against [MutexModel] or
//     [RWMutexModel]: is there one order of grants and releases, each inside its
//     operation's interval, in which no two conflicting leases are held at once and
//     tokens grow in grant order? This holds for a correct lock even under process
//     pauses.
//   - The client's view. A tenure runs from the return of a successful acquire to
//     the earlier of the release call and the moment the client saw Lease.Done
//     close: the interval in which it believes it holds. Conflicting tenures must
//     not overlap in real time (the overlap check). Without pauses a lock with a
//     working loss timer never overlaps them; go-zookeeper's zk.Lock, which has no
//     loss signal, does.
//   - The resource's view. porcupine checks each register against [RegisterModel],
//     a fenced register: a write is accepted only with a token at least the highest
//     accepted. The stale-write check reports the plain cases directly.
//
// Beside these, the token-order check reports tokens that do not grow in grant
// order (or repeat), and the leftover check reports lock nodes still present at
// the end that no live lease holds. For a leader election, whose leaderships are
// recorded as exclusive leases, the observed-order and observed-value checks
// judge what observers reported against what leaders campaigned with and
// proclaimed (KindObserve, KindProclaim). The direct checks are cheap and their
// [Finding] values read better than a failed linearization; porcupine's models
// decide the cases that need a search, and on a violation their HTML
// visualisation (see [Options.HTMLDir]) shows the history annotated with the
// faults and findings.
//
// # Unknown outcomes
//
// An operation cut off by a fault has outcome unknown: the client cannot tell
// whether it took effect. As in etcd's robustness tests, such an operation returns
// "at infinity" (after everything else in its partition) and the model forks on
// it: linearized where its effect is legal it happened, linearized at the end,
// where nothing can observe it, it did not. Porcupine's search explores both. The
// direct checks use only what clients knew for certain.
//
// # Process pauses
//
// A client frozen for longer than the session timeout (a fault named [FaultPause])
// keeps believing it holds a lease the ensemble has expired, and no lock can
// prevent that; only fencing keeps the resource safe. So the checker treats pauses
// as physics, not bugs, in exactly two places:
//
//   - A finding that only says a client's belief outlived its lease (an overlap, or
//     a tenure starting after a later-token tenure ended) is excused when that
//     client was frozen at the moment the belief went wrong and its belief ended
//     within [Options.PauseGrace] of waking. An excused finding is reported but
//     does not fail the check; a client slower than that to notice has a broken
//     loss signal.
//   - A lost observation normally ends its lease no earlier than the record's call,
//     the last moment the client knew it held. If the client was paused between
//     its acquire and that moment, the knowledge is void (the acquire may have
//     returned, after the pause, a lease that had already expired), so the lease
//     may end any time after it was granted.
//
// Stale writes are never excused: that is what fencing is for.
//
// # Verdict
//
// [Result.Verdict] is [VerdictFail] if a model rejects a partition or a direct
// check reports a violation, [VerdictUnknown] if nothing failed but a search ran
// out of [Options.Timeout] (undecided is not a pass), and [VerdictPass] otherwise.
// An invalid history is an error ([RecordError], wrapping [ErrMalformed] or
// [ErrInvalid]), not a verdict.
//
// The subpackage simulate produces histories of a correct lock without ZooKeeper,
// for tests and benchmarks of this package.
package checker
