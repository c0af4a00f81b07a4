// Package traceevent is the vocabulary of zklock's traces, shared from the
// spec to the trace file: the names of the spec actions a client's step
// carries (spec/tla/PredecessorLock.tla and SharedLock.tla), the outcomes
// the client observed, and Event, one step as a line of a trace file.
//
// impl/zklock emits its steps (zklock.TraceEvent) with these names, the Go
// model of the specs (model/predlock, model/sharedlock) names its actions
// with them, and model/trace reads trace files of Events and replays them
// in the model. The package imports only the standard library.
package traceevent

import (
	"fmt"
	"strings"
)

// Action is the name of a spec action, exactly as the TLA+ specs spell it.
// The constants below are the actions a client's trace carries; the Go
// model has more (faults, pauses, the mutant specs' actions), which no
// client observes.
type Action string

// The actions a trace carries.
const (
	RequestLock      Action = "RequestLock"      // a Lock, RLock or TryLock call begins
	CreateOk         Action = "CreateOk"         // our lock node was created
	CreateReplyLost  Action = "CreateReplyLost"  // the create's outcome is unknown
	FindOwnNode      Action = "FindOwnNode"      // after a lost reply: look for the node the create may have made
	ListChildren     Action = "ListChildren"     // list the queue and decide: grant, wait or missing
	WatchSecond      Action = "WatchSecond"      // set a watch on the node two ahead of ours (PredecessorLock only)
	WatchPredecessor Action = "WatchPredecessor" // set a watch on the node waited for
	PredecessorGone  Action = "PredecessorGone"  // a watch fired (its node is the target): list again
	GrantOnHeadGone  Action = "GrantOnHeadGone"  // the watch on the only node before ours fired: grant without listing
	Grant            Action = "Grant"            // the lease is handed out
	Release          Action = "Release"          // the lease's node is deleted (Unlock)
	Cancel           Action = "Cancel"           // an acquisition gives up and deletes its node
	Downgrade        Action = "Downgrade"        // a write lease becomes a read lease (SharedLock only)
	LearnExpiry      Action = "LearnExpiry"      // the client learns its session is lost; its last step
)

// The election's steps beyond a candidate's (a candidate takes the
// lock's, RequestLock to Grant, and Release for Resign): a leader's
// Proclaim and an observer's. Actions leaves them out: the lock specs do
// not define them.
const (
	Proclaim        Action = "Proclaim"        // the leader's multi (check our node, set its data): result ok or gone
	ObserveList     Action = "ObserveList"     // an observer lists the election: result found (Target: the head) or vacant
	ObserveWatch    Action = "ObserveWatch"    // an observer sets its one watch (Target: the head, "" for the path): result exists or gone
	ObserveNotified Action = "ObserveNotified" // an observer's watch fired (Target as ObserveWatch)
	// ObserveNext: the watch on an observer's head fired with NodeDeleted and
	// the observer reads the candidate its last listing showed after that
	// head next, without listing again (Target: the head gone).
	ObserveNext Action = "ObserveNext"
	// ObserveRefresh: after reporting a head it read without a listing
	// (after ObserveNext), the observer lists the election once, for that
	// head's successors: result found (Target: the listing's head) or vacant.
	ObserveRefresh Action = "ObserveRefresh"
)

// ElectionActions returns the election's own actions, in the order above.
func ElectionActions() []Action {
	return []Action{Proclaim, ObserveList, ObserveWatch, ObserveNotified, ObserveNext, ObserveRefresh}
}

// The semaphore's steps (Semaphore, SemaphoreMutex): an acquirer takes the
// internal mutex (whose own steps are the lock's), creates its lease node,
// lists the leases until their number is at most the semaphore's max, and
// releases the internal mutex. Actions leaves them out: the lock specs do
// not define them.
const (
	AcquireInternal      Action = "AcquireInternal"      // the internal mutex (path/locks) was granted
	CreateLease          Action = "CreateLease"          // our lease node was created
	CreateLeaseReplyLost Action = "CreateLeaseReplyLost" // the lease create's outcome is unknown
	FindOwnLease         Action = "FindOwnLease"         // after a lost reply: look for the lease node by uuid (found or absent)
	ListLeases           Action = "ListLeases"           // list the leases with a watch: result held (at most max) or wait
	LeasesChanged        Action = "LeasesChanged"        // the watch on the leases fired: list again
	ReleaseInternal      Action = "ReleaseInternal"      // the internal mutex was released (held or cancelled)
	ReleaseLease         Action = "ReleaseLease"         // the lease node is deleted (Unlock)
	CancelAcquire        Action = "CancelAcquire"        // an acquisition gives up: its lease node, if any, is deleted
)

// SemaphoreActions returns the semaphore's own actions, in the order above.
func SemaphoreActions() []Action {
	return []Action{AcquireInternal, CreateLease, CreateLeaseReplyLost, FindOwnLease, ListLeases,
		LeasesChanged, ReleaseInternal, ReleaseLease, CancelAcquire}
}

// The steps of an outsider's world (spec/tla/PredecessorLockForeign.tla,
// SharedLockForeign.tla, ElectionForeign.tla, SemaphoreForeign.tla):
// a holder's lease ending on the watch on its own node, a client's event;
// and an outsider deleting or replacing a node, environment events that
// no client traces (a chaos campaign's operator records them, under the
// client name EnvClient, Node naming the node). Actions leaves them out:
// PredecessorLock does not define them.
const (
	LearnNodeGone  Action = "LearnNodeGone"  // the lease ended: its node was deleted or replaced by someone else
	ForeignDelete  Action = "ForeignDelete"  // an outsider deleted the node Node (environment)
	ForeignReplace Action = "ForeignReplace" // an outsider deleted Node and made a node of that name (environment)
)

// EnvClient is the client name of the environment's events (ForeignDelete,
// ForeignReplace): the outsider, no client of the model.
const EnvClient = "env"

// ForeignActions returns the actions of PredecessorLockForeign a trace
// carries beyond Actions.
func ForeignActions() []Action { return []Action{LearnNodeGone, ForeignDelete, ForeignReplace} }

// DeleteLands is the spec action in which the delete of a Release or
// Cancel reaches the server (with AsyncDelete the request ends first, and
// its nodes stay until the delete lands or the session expires). No client
// traces it as an event of its own: a Release or Cancel whose delete was
// confirmed carries the delete's zxid, where it landed; one without may
// land later or never.
const DeleteLands Action = "DeleteLands"

// Actions returns the actions a trace carries, in the order the specs
// list them.
func Actions() []Action {
	return []Action{RequestLock, CreateOk, CreateReplyLost, FindOwnNode, ListChildren,
		WatchSecond, WatchPredecessor, PredecessorGone, GrantOnHeadGone, Grant, Release, Cancel, Downgrade, LearnExpiry}
}

// Result is what a step observed, for the actions whose outcome the
// client reads: ListChildren, WatchSecond, WatchPredecessor, FindOwnNode and
// LearnExpiry. Other steps carry none ("").
type Result string

// The observed results.
const (
	ResultGrant   Result = "grant"   // ListChildren: nothing we wait for is ahead
	ResultWait    Result = "wait"    // ListChildren: Target must go first
	ResultMissing Result = "missing" // ListChildren, ListLeases: our own node is gone
	ResultExists  Result = "exists"  // WatchPredecessor: watch set
	ResultGone    Result = "gone"    // WatchPredecessor: the node had already gone
	ResultLost    Result = "lost"    // WatchPredecessor, WatchSecond: the connection was lost before the reply; no watch armed (WatchPredecessor: list again). Proclaim: no reply read; written or not
	ResultFound   Result = "found"   // FindOwnNode, FindOwnLease: the lost create had happened
	ResultAbsent  Result = "absent"  // FindOwnNode, FindOwnLease: it had not; create again
	ResultExpired Result = "expired" // LearnExpiry: the server said so
	ResultTimer   Result = "timer"   // LearnExpiry: the client's loss timer ran out
	ResultClosed  Result = "closed"  // LearnExpiry: Close was called
	ResultOk      Result = "ok"      // Proclaim: the value was written
	ResultVacant  Result = "vacant"  // ObserveList: no candidate on the election path
	ResultPath    Result = "path"    // ObserveNotified: the event of the watch on the election path the observer kept, not of its head's or vacancy's watch
	ResultHeld    Result = "held"    // ListLeases: at most max lease nodes, ours among them
)

// Event is one protocol step as one client observed it: one JSON line of
// a trace file. model/trace documents the format and the order the fields
// imply.
type Event struct {
	// Client is the stable name of the client: one per ZooKeeper session.
	Client string `json:"client"`
	// Session is the ZooKeeper session id (informational).
	Session int64 `json:"session,omitempty"`
	// Lock is the lock path; empty for LearnExpiry.
	Lock string `json:"lock,omitempty"`
	// Action is the spec action the step took.
	Action Action `json:"action"`
	// Request is the uuid of the acquisition; empty for LearnExpiry.
	Request string `json:"request,omitempty"`
	// Kind is "exclusive" (a Mutex: PredecessorLock), "read" or "write"
	// (an RWMutex: SharedLock).
	Kind string `json:"kind,omitempty"`
	// Node is our lock node's name, once known.
	Node string `json:"node,omitempty"`
	// Target is the node waited for (ListChildren "wait",
	// WatchPredecessor) or found (FindOwnNode "found").
	Target string `json:"target,omitempty"`
	// Result is what the step observed.
	Result Result `json:"result,omitempty"`
	// Children is ListChildren's listing.
	Children []string `json:"children,omitempty"`
	// Token is Grant's fencing token (the node's czxid).
	Token int64 `json:"token,omitempty"`
	// Max is the semaphore's maximum number of leases, on ListLeases: the
	// count the listing was decided by (Semaphore.tla's MaxLeases), which
	// a validator cannot infer from the listings without trusting them.
	Max int `json:"max,omitempty"`
	// Version is a node's data version: the one a Proclaim "ok" made on
	// the leader's node, or the one an ObserveWatch "exists" read from the
	// head (Election.tla's value, which a validator cannot infer from the
	// events when reads and writes overlap). nil: not recorded.
	Version *int32 `json:"version,omitempty"`
	// Reported, on an ObserveWatch "exists", says the observer sent what
	// it read to its caller: only a head newer than the last one it sent
	// may be (Election.tla's ObservedEpochsIncrease), which a validator
	// checks against the model's last report.
	Reported bool `json:"reported,omitempty"`
	// Next, on an observer's ObserveList "found" and ObserveRefresh, is the
	// first candidate the listing showed after the observer's head: the
	// one it reads, without listing, when that head's node is deleted
	// (ObserveNext); "" for none. nil: not recorded (traces from before
	// ObserveNext). It lets a validator place the listing among the
	// candidates' creates when it is matched, not when the head goes.
	Next *string `json:"next,omitempty"`
	// Start is when the client sent the step's request, in nanoseconds
	// since the epoch.
	Start int64 `json:"start"`
	// End is when it observed the outcome (ns); nil when unknown (a
	// delete left to the background).
	End *int64 `json:"end,omitempty"`
	// Zxid places the step exactly in the ensemble's order of writes: a
	// confirmed write's own zxid, or for a listing its parent's pzxid (it
	// saw every change to the queue up to that zxid and none after).
	// Otherwise ZxidLow and ZxidHigh bound it: the highest zxid the client
	// had seen when it sent the request and when it had the reply. 0:
	// unknown.
	Zxid     int64 `json:"zxid,omitempty"`
	ZxidLow  int64 `json:"zxid_low,omitempty"`  // see Zxid
	ZxidHigh int64 `json:"zxid_high,omitempty"` // see Zxid
	// Line is the event's line in the trace file (1-based; 0 if not read
	// from a file).
	Line int `json:"-"`
}

// String renders the event on one line.
func (e *Event) String() string {
	var b strings.Builder
	if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	fmt.Fprintf(&b, "%s %s", e.Client, e.Action)
	for _, kv := range [][2]string{{"result", string(e.Result)}, {"node", e.Node}, {"target", e.Target}} {
		if kv[1] != "" {
			fmt.Fprintf(&b, " %s=%s", kv[0], kv[1])
		}
	}
	if len(e.Children) > 0 {
		fmt.Fprintf(&b, " children=[%s]", strings.Join(e.Children, " "))
	}
	if e.Token != 0 {
		fmt.Fprintf(&b, " token=%d", e.Token)
	}
	if e.End != nil {
		fmt.Fprintf(&b, " [%d, %d]", e.Start, *e.End)
	} else {
		fmt.Fprintf(&b, " [%d, ?]", e.Start)
	}
	return b.String()
}
