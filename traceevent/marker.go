package traceevent

// The marker hand-off's steps (spec/tla/PredecessorLockMarked.tla, issue
// 38): a marking holder marks its node and arms its own-node watch; a
// marking waiter takes its predecessor's NodeDataChanged, re-arms, and
// takes the marked node's deletion as the grant. Actions leaves them out:
// PredecessorLock does not define them. A marking waiter's listing and
// first watch are ListChildren and WatchPredecessor (the spec's
// MListChildren, MWatchPredecessor).
const (
	Mark              Action = "Mark"              // the holder's setData on its own node (the mark)
	MarkSeen          Action = "MarkSeen"          // NodeDataChanged on the target: it marked; re-arm next
	Rearm             Action = "Rearm"             // getData(target, watch) after MarkSeen: result exists (wait) or gone (the grant)
	GrantOnMarkedGone Action = "GrantOnMarkedGone" // NodeDeleted of a target whose mark was read: the grant without listing
	UnmarkedGone      Action = "UnmarkedGone"      // any other event of the request (an unmarked target gone): list again
	WatchOwn          Action = "WatchOwn"          // the holder's getData(own node, watch), armed after the mark
)

// MarkerActions returns the marker hand-off's own actions, in the order
// above.
func MarkerActions() []Action {
	return []Action{Mark, MarkSeen, Rearm, GrantOnMarkedGone, UnmarkedGone, WatchOwn}
}
