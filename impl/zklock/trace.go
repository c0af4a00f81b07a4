package zklock

import "time"

// Spec action names (spec/tla/PredecessorLock.tla and SharedLock.tla). A
// trace is a sequence of these steps as one client observed them; the model
// in model/ replays it.
const (
	ActRequestLock      = "RequestLock"
	ActCreateOk         = "CreateOk"
	ActCreateReplyLost  = "CreateReplyLost"
	ActFindOwnNode      = "FindOwnNode"
	ActListChildren     = "ListChildren"
	ActWatchPredecessor = "WatchPredecessor"
	ActPredecessorGone  = "PredecessorGone"
	ActGrant            = "Grant"
	ActRelease          = "Release"
	ActCancel           = "Cancel"
	ActDowngrade        = "Downgrade"
	ActLearnExpiry      = "LearnExpiry"
)

// TraceEvent is one protocol step as the client saw it.
type TraceEvent struct {
	Action   string    // one of the Act* names
	Session  int64     // ZooKeeper session id
	Lock     string    // lock path
	Request  string    // uuid of the acquisition; empty for LearnExpiry
	Kind     string    // "exclusive", "read" or "write"
	Node     string    // our lock node's name, once known
	Target   string    // node watched (WatchPredecessor) or found (FindOwnNode)
	Result   string    // what was observed: see the Result* constants
	Children []string  // the listing, for ListChildren
	Token    int64     // for Grant
	Start    time.Time // when the client sent the step's request
	Time     time.Time // when the client observed the step's outcome
	Pending  bool      // the outcome is not known yet: a delete left to the background
	// Zxid places the step exactly in the ensemble's one order of writes:
	// a confirmed write's own zxid (CreateOk, Release, Cancel, Downgrade),
	// or for a listing the lock path's pzxid, the zxid of the last change
	// to the queue it saw. Otherwise ZxidLow and ZxidHigh bound it: the
	// highest zxid the session had seen when it sent the request, and when
	// it had the reply. All 0 for steps without a request.
	Zxid, ZxidLow, ZxidHigh int64

	wrote string // the path the step's write named: the wire knows its zxid
}

// Observed results carried by TraceEvent.Result.
const (
	ResultGrant   = "grant"   // ListChildren: nothing we wait for is ahead
	ResultWait    = "wait"    // ListChildren: Target must go first
	ResultMissing = "missing" // ListChildren: our own node is gone
	ResultExists  = "exists"  // WatchPredecessor: watch set
	ResultGone    = "gone"    // WatchPredecessor: the node had already gone
	ResultFound   = "found"   // FindOwnNode: the lost create had happened
	ResultAbsent  = "absent"  // FindOwnNode: it had not; create again
	ResultExpired = "expired" // LearnExpiry: the server said so
	ResultTimer   = "timer"   // LearnExpiry: our loss timer ran out
	ResultClosed  = "closed"  // LearnExpiry: Close was called
)

// Start and Time bound when the step took effect on the server, and the
// zxids where; they let a validator order the steps of different clients.
// Real time orders writes only: a server that lags serves reads from an
// older state. Zxids order both. A step with no request of its own
// (RequestLock, PredecessorGone, Grant, LearnExpiry) has Start == Time and
// no zxids.

// Tracer receives trace events synchronously, in the order each client saw
// them; it must be quick and safe for concurrent use. A session without a
// tracer builds no events.
type Tracer func(TraceEvent)
