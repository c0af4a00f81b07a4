// Package trace checks runs of impl/zklock against the model: a trace of
// the protocol steps each client observed is replayed in the Go mirror of
// the TLA+ spec (model/predlock for Mutex, model/sharedlock for RWMutex).
//
// # Trace format
//
// A trace is JSON lines, one event per line, in any order across clients
// and in each client's own order within a client (Read keeps the file
// order):
//
//	{"client": "s1", "session": 72057594037927937, "lock": "/locks/a",
//	 "action": "ListChildren", "request": "6f1c...-...", "kind": "exclusive",
//	 "node": "_c_6f1c...-lock-0000000003", "target": "_c_9a2b...-lock-0000000002",
//	 "result": "wait", "children": ["_c_9a2b...-lock-0000000002", "_c_6f1c...-lock-0000000003"],
//	 "token": 0, "start": 1700000000000000000, "end": 1700000000000350000}
//
//	client    stable name of the client: one per ZooKeeper session (required)
//	session   the ZooKeeper session id (informational)
//	lock      the lock path; events of different locks are validated
//	          separately, and a LearnExpiry (no lock) belongs to every lock
//	          the client uses. Optional when the trace has one lock.
//	action    a spec action: RequestLock, CreateOk, CreateReplyLost,
//	          FindOwnNode, ListChildren, WatchPredecessor, PredecessorGone,
//	          GrantOnHeadGone, Grant, Release, Cancel, Downgrade,
//	          LearnExpiry (required)
//	request   the uuid of the acquisition (every action but LearnExpiry)
//	kind      "exclusive" (Mutex: PredecessorLock), "read" or "write"
//	          (RWMutex: SharedLock)
//	node      our node's name once known: _c_<uuid>-lock-<10 digits>, or
//	          _c_<uuid>-__READ__<10 digits> / _c_<uuid>-__WRIT__<10 digits>
//	target    ListChildren "wait" and WatchPredecessor: the node waited for;
//	          FindOwnNode "found": the node found
//	result    ListChildren: grant | wait | missing; WatchPredecessor: exists |
//	          gone | lost; FindOwnNode: found | absent; LearnExpiry: expired |
//	          timer | closed
//	children  ListChildren: the names listed
//	token     Grant: the lease's token (the node's czxid)
//	start     when the client sent the request of this step (ns, required)
//	end       when it observed the outcome (ns); absent when unknown (a
//	          delete left to the background)
//	zxid_low  the highest zxid the client had seen when it sent the
//	          request; zxid_high: when it had the reply. Optional (0 or
//	          absent: unknown); see Order.
//
// An event is a traceevent.Event: the actions and results are the
// constants of package traceevent. impl/zklock's TraceEvent.Record makes
// one of a step the library traced: Start and Time (the outcome) as
// nanoseconds since the epoch, Time dropped when Pending, and a client
// name added.
//
// # Order
//
// Each client's events happened in file order. Across clients, event e
// must come before event f when e.zxid_high < f.zxid_low (ZooKeeper's one
// order of writes; a read is served at a zxid between its bounds), or when
// f is a write (a create, delete or downgrade) and e.end < f.start (writes
// are linearizable; reads on a follower that lags are not). Otherwise they
// may have taken effect in either order, and Validate searches the orders
// (see Validate).
package trace

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/zklock/zklock/traceevent"
)

// Event is one protocol step as one client observed it (one JSON line):
// the trace vocabulary's event, shared with impl/zklock's
// TraceEvent.Record and cmd/chaos.
type Event = traceevent.Event

// Read parses a JSON-lines trace; blank lines are skipped.
func Read(r io.Reader) ([]Event, error) {
	var out []Event
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 16*1024*1024)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		var e Event
		dec := json.NewDecoder(strings.NewReader(text))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&e); err != nil {
			return nil, fmt.Errorf("trace: line %d: %w", line, err)
		}
		e.Line = line
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("trace: reading: %w", err)
	}
	return out, nil
}

// Write writes events as JSON lines.
func Write(w io.Writer, events []Event) error {
	enc := json.NewEncoder(w)
	for i := range events {
		if err := enc.Encode(&events[i]); err != nil {
			return fmt.Errorf("trace: writing: %w", err)
		}
	}
	return nil
}

// nodeName is a parsed lock node name.
type nodeName struct {
	uuid string
	kind string // "exclusive", "read", "write" or "lease"
	seq  int64
}

const (
	protectedPrefix = "_c_"
	seqDigits       = 10
)

var markers = []struct{ marker, kind string }{
	{"-lock-", "exclusive"}, {"-__READ__", "read"}, {"-__WRIT__", "write"},
	{"-latch-", "exclusive"}, // an election's candidate: a Mutex waiter's steps
	{"-lease-", "lease"},     // a semaphore's lease node (Semaphore.tla)
}

// parseNode reads a node name _c_<uuid><marker><10-digit seq> (an
// election's candidate, -latch-, is an exclusive node; a semaphore's
// lease node, -lease-, is of kind "lease"); ok is
// false for a name that is not a contender's (no sequence suffix), and err
// is set for a contender without a uuid (not made by a protected create).
func parseNode(name string) (n nodeName, ok bool, err error) {
	if len(name) < seqDigits {
		return n, false, nil
	}
	seq, perr := strconv.ParseInt(name[len(name)-seqDigits:], 10, 64)
	if perr != nil || seq < 0 {
		return n, false, nil
	}
	head := name[:len(name)-seqDigits]
	for _, m := range markers {
		if u, found := strings.CutSuffix(head, m.marker); found {
			u, protected := strings.CutPrefix(u, protectedPrefix)
			if !protected || u == "" {
				return n, true, fmt.Errorf("node %s has no uuid: every contender must be a protected (zklock or Curator) node", name)
			}
			return nodeName{uuid: u, kind: m.kind, seq: seq}, true, nil
		}
	}
	return n, true, fmt.Errorf("node %s has no -lock-, -__READ__, -__WRIT__, -latch- or -lease- marker", name)
}

// NodeName returns the name of a lock node: _c_<uuid>-lock-<seq> for kind
// "exclusive", _c_<uuid>-__READ__<seq> or _c_<uuid>-__WRIT__<seq> for
// "read" and "write", _c_<uuid>-lease-<seq> for a semaphore's "lease" (the
// seq zero-padded to 10 digits).
func NodeName(uuid, kind string, seq int64) string {
	m := "-lock-"
	switch kind {
	case "read":
		m = "-__READ__"
	case "write":
		m = "-__WRIT__"
	case "lease":
		m = "-lease-"
	}
	return fmt.Sprintf("%s%s%s%010d", protectedPrefix, uuid, m, seq)
}
