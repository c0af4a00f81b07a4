package zklock

import (
	"fmt"
	"time"

	"github.com/zklock/zklock/traceevent"
)

// TraceEvent is one protocol step as the client saw it. Its action and
// result are package traceevent's: the spec's names (spec/tla), which the
// Go model of the specs (model/) uses too.
type TraceEvent struct {
	Action   traceevent.Action // the spec action the step took
	Session  int64             // ZooKeeper session id
	Lock     string            // lock path
	Request  string            // uuid of the acquisition; empty for LearnExpiry
	Kind     string            // "exclusive", "read" or "write"
	Node     string            // our lock node's name, once known
	Target   string            // node watched (WatchPredecessor) or found (FindOwnNode)
	Result   traceevent.Result // what was observed, for the steps that read an outcome
	Children []string          // the listing, for ListChildren
	Token    int64             // for Grant
	Max      int               // for ListLeases: the semaphore's max leases
	Version  *int32            // for Proclaim and ObserveWatch: the data version written or read
	Reported bool              // for ObserveWatch: the observer sent what it read (its monotonic filter let it through)
	Next     *string           // for ObserveList and ObserveRefresh: the first candidate listed after the head ("" none)
	Start    time.Time         // when the client sent the step's request
	Time     time.Time         // when the client observed the step's outcome
	Pending  bool              // the outcome is not known yet: a delete left to the background
	// Zxid places the step exactly in the ensemble's one order of writes:
	// a confirmed write's own zxid (CreateOk, Release, Cancel, Downgrade),
	// or for a listing the lock path's pzxid, the zxid of the last change
	// to the queue it saw. Otherwise ZxidLow and ZxidHigh bound it: the
	// highest zxid the session had seen when it sent the request, and when
	// it had the reply. All 0 for steps without a request.
	Zxid, ZxidLow, ZxidHigh int64
}

// Start and Time bound when the step took effect on the server, and the
// zxids where; they let a validator order the steps of different clients.
// Real time orders writes only: a server that lags serves reads from an
// older state. Zxids order both. A step with no request of its own
// (RequestLock, PredecessorGone, GrantOnHeadGone, Grant, LearnExpiry) has
// Start == Time and no zxids.

// Tracer receives trace events synchronously, in the order each client saw
// them, on the goroutine that took the step (the session's own among
// them); it must be quick and safe for concurrent use, and must not call
// the session's Close, which waits for those goroutines. Unlike an
// Observer's functions it is not deferred: a trace validator needs each
// step reported before the next one it depends on. A session without a
// tracer builds no events.
type Tracer func(TraceEvent)

// Record returns the step as a line of a trace file, the format
// model/trace replays in the model of the specs: Start and Time as
// nanoseconds since the epoch, Time (End) left out when Pending. The
// record's client is client/<session id in hex>, so that every session of
// a client is a client of the model.
func (e TraceEvent) Record(client string) traceevent.Event {
	r := traceevent.Event{
		Client: fmt.Sprintf("%s/%x", client, e.Session), Session: e.Session, Lock: e.Lock,
		Action: e.Action, Request: e.Request, Kind: e.Kind, Node: e.Node, Target: e.Target,
		Result: e.Result, Children: e.Children, Token: e.Token, Max: e.Max, Version: e.Version, Reported: e.Reported,
		Next:  e.Next,
		Start: e.Start.UnixNano(),
		Zxid:  e.Zxid, ZxidLow: e.ZxidLow, ZxidHigh: e.ZxidHigh,
	}
	if !e.Pending {
		end := e.Time.UnixNano()
		r.End = &end
	}
	return r
}
