package trace

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/zklock/zklock/model/election"
	"github.com/zklock/zklock/model/predforeign"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/predmarked"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/semaphore"
	"github.com/zklock/zklock/model/semforeign"
	"github.com/zklock/zklock/model/sharedforeign"
	"github.com/zklock/zklock/model/sharedlock"
	"github.com/zklock/zklock/traceevent"
)

// ErrUnsupported is returned (wrapped) for a trace the validator cannot
// judge: malformed events, several requests of one session in flight at
// once on one lock, a lock used as Mutex and RWMutex, a contender node no
// traced request made.
var ErrUnsupported = errors.New("trace: unsupported")

// Verdict is the outcome of a validation.
type Verdict string

// The verdicts.
const (
	// Valid: some order of the events consistent with their times, with
	// unobservable steps inserted, is a run of the model.
	Valid Verdict = "valid"
	// Invalid: no such order exists; the report names the first event
	// that diverges.
	Invalid Verdict = "invalid"
	// Inconclusive: the search budget ran out before either was shown.
	Inconclusive Verdict = "inconclusive"
)

// Options tune a validation.
type Options struct {
	// Budget bounds the search states explored per lock (0: DefaultBudget).
	Budget int
}

// DefaultBudget is the default search budget per lock.
const DefaultBudget = 2_000_000

// Report is the outcome of validating a trace.
type Report struct {
	Verdict Verdict
	Locks   []*LockReport
}

// LockReport is the outcome for one lock path.
type LockReport struct {
	Lock    string
	Spec    string // PredecessorLock, SharedLock or Semaphore
	Clients []string
	Events  int
	Verdict Verdict
	// Explored is the number of search states visited.
	Explored int
	// Steps is, for a valid trace, the order found: each event with the
	// model step it matched, and the unobservable steps inserted.
	Steps []string
	// Faults are the unobservable fault steps the order needed (session
	// expiries, pauses, creates whose reply the client abandoned).
	Faults []string
	// Divergence is, for an invalid trace, the first event that diverges;
	// for an inconclusive one, the deepest point the search had reached.
	Divergence *Divergence
	// Reason explains an inconclusive result.
	Reason string
}

// Divergence is an event that no reachable model state accepts.
type Divergence struct {
	// Event is the diverging event.
	Event Event
	// Matched is how many events of the lock were matched before it, at
	// best.
	Matched int
	// Reason is why the first candidate state rejects it.
	Reason string
	// Compared is the number of model states it was compared against;
	// Candidates are the first of them, with why each rejects it.
	Compared   int
	Candidates []Candidate
	// Others are the other events that could not be matched at that
	// point, with a reason.
	Others []string
}

// Candidate is one model state an event was compared against.
type Candidate struct {
	// State is the model state, printed with variable names.
	State string
	// Why the event is not a step of the model from it.
	Why string
}

// Validate replays a trace in the model, lock by lock.
//
// Each client's events must be matched in its own order; an event of one
// client may be matched before an event of another unless the other ended
// before it started. Between events the search may insert steps no client
// reports: the server expiring a session (the session a client uses only
// if that client later learns of a lost session, or has no more events; a
// holder's only during a process pause), a client dropping a stale
// notification (IgnoreNotification), a create whose reply the client
// stopped waiting for. Every event must then be an enabled model step with
// the observed outcome (see README.md for the mapping of each event), or
// an observation consistent with the model state (a listing is compared
// node for node). The search keeps the set of (model state, positions)
// it has visited and explores each once.
//
// It returns an error wrapping ErrUnsupported for traces it cannot judge.
func Validate(events []Event, opt Options) (*Report, error) {
	if opt.Budget <= 0 {
		opt.Budget = DefaultBudget
	}
	locks, err := splitLocks(events)
	if err != nil {
		return nil, err
	}
	rep := &Report{Verdict: Valid}
	for _, lt := range locks {
		lr, err := validateLock(lt, opt)
		if err != nil {
			return nil, err
		}
		rep.Locks = append(rep.Locks, lr)
		switch {
		case lr.Verdict == Invalid:
			rep.Verdict = Invalid
		case lr.Verdict == Inconclusive && rep.Verdict == Valid:
			rep.Verdict = Inconclusive
		}
	}
	return rep, nil
}

// validateLock replays one lock's trace in the model of its recipe (with
// the outsider's steps where the trace has them).
func validateLock(lt *lockTrace, opt Options) (*LockReport, error) {
	var lr *LockReport
	switch lt.spec {
	case "PredecessorLock":
		// PredecessorLockForeign: PredecessorLock with the outsider's
		// steps and the holder's own-node watch (the code's).
		sp, err := predforeign.New(predforeign.Constants{
			Constants: predlock.Constants{Constants: unbounded(lt), Fencing: true}, WatchOwn: true, Stranger: traceevent.EnvClient})
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrUnsupported, err)
		}
		se := &searcher[predlock.State]{a: newForeignAdapter(sp), lt: lt, budget: opt.Budget}
		lr = se.run()
	case "PredecessorLockMarked":
		sp, err := markedSpec(lt)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrUnsupported, err)
		}
		se := &searcher[predmarked.State]{a: markAdapter{sp: sp, pred: predAdapter{sp.Spec}}, lt: lt, budget: opt.Budget}
		lr = se.run()
	case "PredecessorLockMarkedForeign":
		sp, err := markedForeignSpec(lt)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrUnsupported, err)
		}
		se := &searcher[predmarked.State]{a: newMarkForeignAdapter(sp), lt: lt, budget: opt.Budget}
		lr = se.run()
	case "Election":
		sp, err := electionSpec(lt)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrUnsupported, err)
		}
		se := &searcher[election.State]{a: elecAdapter{sp: sp, pred: predAdapter{sp.Spec}, candidates: lt.candidates}, lt: lt, budget: opt.Budget}
		lr = se.run()
	case "ElectionForeign":
		// Election with the outsider's steps and the leader's own-node
		// watch (the code's).
		sp, err := elForeignSpec(lt)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrUnsupported, err)
		}
		se := &searcher[election.State]{a: newElForeignAdapter(sp, lt.candidates), lt: lt, budget: opt.Budget}
		lr = se.run()
	case "SharedLockForeign":
		// SharedLock with the outsider's steps and the holder's
		// own-node watch (the code's).
		sp, err := sharedforeign.New(sharedforeign.Constants{
			Constants: sharedlock.Constants{Constants: unbounded(lt), WithDowngrade: true}, WatchOwn: true, Stranger: traceevent.EnvClient})
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrUnsupported, err)
		}
		se := &searcher[sharedlock.State]{a: newSharedForeignAdapter(sp), lt: lt, budget: opt.Budget}
		lr = se.run()
	case "Semaphore":
		k := unbounded(lt)
		k.AsyncDelete = false // Semaphore's deletes land in the step that sends them
		sp, err := semaphore.New(semaphore.Constants{Constants: k, MaxLeases: lt.maxLeases, InternalLock: true})
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrUnsupported, err)
		}
		se := &searcher[semaphore.State]{a: semAdapter{sp}, lt: lt, budget: opt.Budget}
		lr = se.run()
	case "SemaphoreForeign":
		// Semaphore with the outsider's steps and the holder's
		// own-node watch (the code's).
		k := unbounded(lt)
		k.AsyncDelete = false
		sp, err := semforeign.New(semforeign.Constants{
			Constants: semaphore.Constants{Constants: k, MaxLeases: lt.maxLeases, InternalLock: true},
			WatchOwn:  true, Stranger: traceevent.EnvClient})
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrUnsupported, err)
		}
		se := &searcher[semaphore.State]{a: newSemForeignAdapter(sp), lt: lt, budget: opt.Budget}
		lr = se.run()
	default:
		sp, err := sharedlock.New(sharedlock.Constants{Constants: unbounded(lt), WithDowngrade: true}, sharedlock.Base)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrUnsupported, err)
		}
		se := &searcher[sharedlock.State]{a: sharedAdapter{sp}, lt: lt, budget: opt.Budget}
		lr = se.run()
	}
	return lr, nil
}

// unbounded are the constants a lock's trace is replayed under: its
// clients and requests, no bound on sequence numbers or faults, and every
// fault and AsyncDelete enabled (the client may do any of it).
func unbounded(lt *lockTrace) recipe.Constants {
	return recipe.Constants{Clients: lt.clients[:lt.candidates], MaxRequests: lt.maxRequests, MaxSeq: recipe.Unbounded,
		MaxFaults: recipe.Unbounded, WithExpiry: true, WithReplyLoss: true, WithPause: true,
		WithCancel: true, AsyncDelete: true}
}

// lockTrace is the events of one lock, prepared for the search.
type lockTrace struct {
	lock    string
	spec    string
	clients []string
	events  [][]*Event // per client, in the client's order
	// candidates: the clients that request the lock, the first of clients
	// (all but an election's observers and the outsider).
	candidates int
	// outsider: the last client is the outsider (traceevent.EnvClient),
	// whose events are ForeignDelete and ForeignReplace.
	outsider    bool
	maxRequests int
	// maxLeases is a semaphore's max (its ListLeases events carry it).
	maxLeases int
	// reqUuid[c][r-1] is the uuid of client c's r-th request.
	reqUuid [][]string
	// seqs: the real sequence number of each request's node, when the
	// trace shows one (and only one).
	seqs map[string]int64
	// need[c][i][j]: how many events of client j precede client c's i-th
	// (see precedes, and the ones before them).
	need [][][]int32
	// learnsExpiry[c][i]: whether client c, having matched i events, will
	// report the loss of its session (LearnExpiry, or a listing without its
	// own node): always; or has no more ZooKeeper calls to make (its
	// remaining events, if any, are RequestLock: a trace may end before
	// the client learns): ifNodes.
	learnsExpiry [][]expiryKnowledge
	// prevTarget[c][i]: the target of client c's last ListChildren "wait"
	// before its i-th event.
	prevTarget [][]string
	// owner maps a request uuid to its client.
	owner map[string]int
	// ranks maps each Grant's token to its rank (TLA only).
	ranks map[int64]int
}

// expiryKnowledge says whether a client learns of its session's loss.
type expiryKnowledge uint8

const (
	never   expiryKnowledge = iota // it makes more calls, and reports no loss
	ifNodes                        // it makes no more calls: expire only a session that owns nodes
	always                         // it reports the loss later
)

// realSeq returns the real sequence number of request uuid's node.
func (lt *lockTrace) realSeq(uuid string) (int64, bool) {
	s, ok := lt.seqs[uuid]
	return s, ok && s >= 0
}

// currentRequest returns the uuid of the request client c is in before
// its i-th event.
func (lt *lockTrace) currentRequest(c, i int) string {
	for k := i - 1; k >= 0; k-- {
		if ev := lt.events[c][k]; startsRequest(ev.Action) {
			return ev.Request
		}
	}
	return ""
}

// requestNo returns r such that uuid is client c's r-th request (0 if none).
func (lt *lockTrace) requestNo(c int, uuid string) int {
	for r, u := range lt.reqUuid[c] {
		if u == uuid {
			return r + 1
		}
	}
	return 0
}

// nameOf renders a model node with its real name when the trace shows it.
func (lt *lockTrace) nameOf(n obsNode) string {
	if n.r < 1 || n.c >= len(lt.reqUuid) || n.r > len(lt.reqUuid[n.c]) {
		return "(none)"
	}
	uuid := lt.reqUuid[n.c][n.r-1]
	if seq, ok := lt.realSeq(uuid); ok {
		return NodeName(uuid, n.kind, seq)
	}
	if s, seen := lt.seqs[uuid]; seen && s < 0 {
		return fmt.Sprintf("the node of request %s (the trace shows two)", uuid)
	}
	return fmt.Sprintf("the node of request %s (its name is never observed)", uuid)
}

// sameNode reports whether the real node name is the model node n.
func (lt *lockTrace) sameNode(name string, n obsNode) bool {
	p, ok, err := parseNode(name)
	if !ok || err != nil || n.r < 1 {
		return false
	}
	return p.uuid == lt.reqUuid[n.c][n.r-1] && p.kind == n.kind
}

// splitLocks groups the events by lock and prepares each group.
func splitLocks(events []Event) ([]*lockTrace, error) {
	type clientEvents struct {
		name   string
		events []*Event
	}
	var order []string
	byClient := map[string]*clientEvents{}
	singleLock := ""
	for i := range events {
		e := &events[i]
		if e.Client == "" || e.Action == "" {
			return nil, fmt.Errorf("%w: %s: an event needs a client and an action", ErrUnsupported, e)
		}
		if e.End != nil && *e.End < e.Start {
			return nil, fmt.Errorf("%w: %s: it ends before it starts", ErrUnsupported, e)
		}
		ce := byClient[e.Client]
		if ce == nil {
			ce = &clientEvents{name: e.Client}
			byClient[e.Client] = ce
			order = append(order, e.Client)
		}
		ce.events = append(ce.events, e)
		if e.Action != traceevent.LearnExpiry {
			if singleLock == "" {
				singleLock = e.Lock
			} else if e.Lock != singleLock && (e.Lock == "" || singleLock == "") {
				return nil, fmt.Errorf("%w: %s: events of several locks must all name their lock", ErrUnsupported, e)
			}
		}
	}
	// The locks, in order of first use; a LearnExpiry goes to every lock its
	// client uses.
	var locks []string
	perLock := map[string]map[string][]*Event{}
	for _, name := range order {
		uses := map[string]bool{}
		for _, e := range byClient[name].events {
			if e.Action != traceevent.LearnExpiry {
				uses[e.Lock] = true
			}
		}
		for _, e := range byClient[name].events {
			targets := []string{e.Lock}
			if e.Action == traceevent.LearnExpiry {
				targets = nil
				for l := range uses {
					targets = append(targets, l)
				}
				sort.Strings(targets)
			}
			for _, l := range targets {
				if perLock[l] == nil {
					perLock[l] = map[string][]*Event{}
					locks = append(locks, l)
				}
				perLock[l][name] = append(perLock[l][name], e)
			}
		}
	}
	var out []*lockTrace
	for _, l := range locks {
		lt, err := prepare(l, order, perLock[l])
		if err != nil {
			return nil, err
		}
		if lt != nil {
			out = append(out, lt)
		}
	}
	return out, nil
}

// orderedByTime are the steps real time orders after every other client's
// step that ended before they started: ZooKeeper's writes, which the leader
// applies in one order consistent with real time. Its reads are not: a
// client on a follower that lags sees the state of a moment before another
// client's completed write (ZooKeeper promises sequential consistency, and
// each client's own order, not linearizable reads). So a listing, a watch,
// a notification consumed or a grant may be matched earlier than its times
// say, as long as its own client's order and what it observed allow.
// The semaphore's writes are its lease writes and its internal mutex's
// (AcquireInternal holds a lock node the server granted before the event,
// ReleaseInternal deletes it), which the lock recipe makes linearizable.
// An election's Proclaim is a write too (a multi: check and setData).
var orderedByTime = map[traceevent.Action]bool{
	traceevent.CreateOk: true, traceevent.CreateReplyLost: true, traceevent.Release: true, traceevent.Cancel: true, traceevent.Downgrade: true,
	traceevent.CreateLease: true, traceevent.CreateLeaseReplyLost: true, traceevent.ReleaseLease: true, traceevent.CancelAcquire: true,
	traceevent.AcquireInternal: true, traceevent.ReleaseInternal: true, traceevent.Proclaim: true,
	traceevent.ForeignDelete: true, traceevent.ForeignReplace: true,
}

// precedes says whether e, another client's step, must be matched before f.
// Zxids order every step that carries them, reads included. A read is
// served at a zxid at least its zxid_low and sees every write up to it; a
// write's zxid is above what its client had seen when it sent it, at most
// its zxid_high. So e's point comes before f's if e's highest possible
// zxid is below f's lowest, or equal to it when e is a write known by its
// own zxid and f a read (a listing's pzxid is the zxid of the last write
// it saw). A step that may have written nothing (a Cancel with no node, a
// lost reply) has no point of its own. Real time orders writes only, and
// only after another client's step that ended: not after its LearnExpiry,
// which a server may report before the expiry's transaction commits (and
// the abandoned session's steps in flight, a delete left pending, after).
//
// A listing's zxid is its parent's pzxid, the last change to the children
// it saw: it bounds the creates and deletes, not a Proclaim's setData on a
// child, which the listing may have come after; against a Proclaim only
// the listing's zxid_high, if any, bounds it. In an election (election)
// the same holds against every step but a create, a delete and another
// listing: a read's zxid_low is the server's last zxid when it replied,
// which may be a Proclaim's (an observer's getData of the version it
// wrote), and the listing may have been served after it. (In a lock every
// write the model sees changes the children, so there the pzxid places a
// listing among them exactly.)
func precedes(e, f *Event, election bool) bool {
	_, eHigh := zxidBounds(e)
	if carriesPzxid(e.Action) && (f.Action == traceevent.Proclaim || f.Action == traceevent.Mark ||
		election && !carriesPzxid(f.Action) && !changesChildren(f.Action)) {
		eHigh = e.ZxidHigh
	}
	fLow, _ := zxidBounds(f)
	if eHigh > 0 && fLow > 0 {
		if eHigh < fLow || eHigh == fLow && e.Zxid != 0 && orderedByTime[e.Action] && !orderedByTime[f.Action] {
			return true
		}
	}
	return orderedByTime[f.Action] && e.Action != traceevent.LearnExpiry && e.End != nil && *e.End < f.Start
}

// changesChildren: a's event creates or deletes a node of the lock.
func changesChildren(a traceevent.Action) bool {
	switch a {
	case traceevent.CreateOk, traceevent.CreateReplyLost, traceevent.Release, traceevent.Cancel,
		traceevent.ForeignDelete, traceevent.ForeignReplace:
		return true
	}
	return false
}

// carriesPzxid: a's event is a listing, whose zxid is its parent's pzxid.
func carriesPzxid(a traceevent.Action) bool {
	return isListing(a) || a == traceevent.ObserveList || a == traceevent.ObserveRefresh
}

// zxidBounds are the lowest and highest zxid of an event's point (0:
// unknown).
func zxidBounds(e *Event) (low, high int64) {
	if e.Zxid != 0 {
		return e.Zxid, e.Zxid
	}
	return e.ZxidLow, e.ZxidHigh
}

// startsRequest: the action that starts an acquisition, RequestLock for a
// lock, AcquireInternal for a semaphore (it has the internal mutex then).
func startsRequest(a traceevent.Action) bool {
	return a == traceevent.RequestLock || a == traceevent.AcquireInternal
}

// isSemaphore: a's event is a step of a semaphore's leases.
func isSemaphore(a traceevent.Action) bool { return semaphoreActions[a] }

var semaphoreActions = map[traceevent.Action]bool{}

func init() {
	for _, a := range traceevent.SemaphoreActions() {
		semaphoreActions[a] = true
	}
}

// prepare checks one lock's events and computes what the search needs.
// Each step below either refuses the trace (ErrUnsupported: the search
// would be meaningless on it) or fills in part of lockTrace; they run in
// this order so that the first problem a trace has is the one reported.
func prepare(lock string, order []string, byClient map[string][]*Event) (*lockTrace, error) {
	lt := &lockTrace{lock: lock, seqs: map[string]int64{}}
	where := lock
	if where == "" {
		where = "the lock"
	}
	kinds := lt.collectClients(order, byClient)
	if len(kinds) == 0 {
		return nil, nil // only LearnExpiry: nothing to check
	}
	spec, err := specFor(kinds, where)
	if err != nil {
		return nil, err
	}
	lt.spec = spec
	lt.owner = map[string]int{}
	lt.candidates = len(lt.clients)
	lt.splitEnv()
	if lt.outsider && spec == "PredecessorLockMarked" {
		spec = "PredecessorLockMarkedForeign" // the marker's steps and the outsider's
		lt.spec = spec
	}
	if spec == "SharedLock" && (lt.outsider || hasAction(lt.events, traceevent.LearnNodeGone)) {
		spec = "SharedLockForeign" // an RWMutex's steps and the outsider's
		lt.spec = spec
	}
	if spec == "Election" && (lt.outsider || hasAction(lt.events, traceevent.LearnNodeGone)) {
		spec = "ElectionForeign" // an election's steps and the outsider's
		lt.spec = spec
	}
	if spec == "Semaphore" && (lt.outsider || hasAction(lt.events, traceevent.LearnNodeGone)) {
		spec = "SemaphoreForeign" // a Semaphore's steps and the outsider's
		lt.spec = spec
	}
	if lt.outsider && spec != "PredecessorLock" && spec != "PredecessorLockMarkedForeign" && spec != "SharedLockForeign" && spec != "ElectionForeign" && spec != "SemaphoreForeign" {
		return nil, fmt.Errorf("%w: %s: an outsider's steps are replayed on a Mutex's, an RWMutex's, an election's or a Semaphore's lock only (PredecessorLockForeign, PredecessorLockMarkedForeign, SharedLockForeign, ElectionForeign, SemaphoreForeign); %s has none",
			ErrUnsupported, where, spec)
	}
	if isElectionSpec(spec) {
		lt.splitObservers()
	}
	if spec == "Semaphore" || spec == "SemaphoreForeign" {
		if lt.maxLeases, err = semaphoreMax(lt.events, where); err != nil {
			return nil, err
		}
		for c, evs := range lt.events {
			lt.events[c] = dropUnstarted(evs)
		}
	}
	for c, evs := range lt.events {
		if err := lt.followRequests(c, evs); err != nil {
			return nil, err
		}
	}
	if lt.maxRequests == 0 {
		lt.maxRequests = 1
	}
	if err := lt.nodeSequences(where); err != nil {
		return nil, err
	}
	lt.whenExpiryLearned()
	lt.timeOrder()
	return lt, nil
}

// collectClients keeps the clients with events on the lock, in order, and
// returns the kinds of request they make.
func (lt *lockTrace) collectClients(order []string, byClient map[string][]*Event) map[string]bool {
	kinds := map[string]bool{}
	for _, name := range order {
		evs := byClient[name]
		if len(evs) == 0 {
			continue
		}
		lt.clients = append(lt.clients, name)
		lt.events = append(lt.events, evs)
		for _, e := range evs {
			switch {
			case e.Kind != "":
				kinds[e.Kind] = true
			case isSemaphore(e.Action):
				kinds["lease"] = true
			}
			if isElection(e.Action) {
				kinds["election"] = true
			}
			if isMarker(e.Action) {
				kinds["marker"] = true
			}
		}
	}
	return kinds
}

// isElectionSpec: spec is an election's (with or without the outsider).
func isElectionSpec(spec string) bool { return spec == "Election" || spec == "ElectionForeign" }

// specFor picks the spec a lock's requests are checked against: a Mutex's
// (exclusive) or an RWMutex's (read and write); one lock path used by both
// is no protocol of ours.
func specFor(kinds map[string]bool, where string) (string, error) {
	switch {
	case len(kinds) == 1 && kinds["exclusive"]:
		return "PredecessorLock", nil
	case len(kinds) == 2 && kinds["exclusive"] && kinds["marker"]:
		return "PredecessorLockMarked", nil
	case kinds["election"] && (len(kinds) == 1 || len(kinds) == 2 && kinds["exclusive"]):
		return "Election", nil
	case len(kinds) == 1 && kinds["lease"]:
		return "Semaphore", nil
	case !kinds["exclusive"] && (kinds["read"] || kinds["write"]) && len(kinds) <= 2:
		return "SharedLock", nil
	}
	var ks []string
	for k := range kinds {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return "", fmt.Errorf("%w: %s is used with kinds %s: want exclusive (Mutex), read/write (RWMutex), lease (Semaphore) or exclusive with election steps (Election)",
		ErrUnsupported, where, strings.Join(ks, ", "))
}

// followRequests checks that client c makes one request at a time, each
// with a uuid of its own, and records its requests (reqUuid, owner,
// maxRequests) and the node each event's client last chose to wait for
// (prevTarget), which WatchPredecessor must name.
func (lt *lockTrace) followRequests(c int, evs []*Event) error {
	lt.reqUuid = append(lt.reqUuid, nil)
	lt.prevTarget = append(lt.prevTarget, make([]string, len(evs)+1))
	if c >= lt.candidates {
		return nil // an election's observer: its Request names the observation, no request of the lock
	}
	current, open, granted := "", false, false
	target := ""
	for i, e := range evs {
		lt.prevTarget[c][i] = target
		if startsRequest(e.Action) {
			// A request that was granted and never ended is the model's
			// to judge (no unobservable step ends a lease: the next
			// RequestLock finds the client holding), not a trace of two
			// acquisitions at once.
			if open && !granted {
				return fmt.Errorf("%w: %s: client %s starts request %s while request %s has not ended "+
					"(one acquisition per session and lock at a time; a request ends with Release, Cancel or LearnExpiry)",
					ErrUnsupported, e, lt.clients[c], e.Request, current)
			}
			if e.Request == "" {
				return fmt.Errorf("%w: %s: a RequestLock needs a request uuid", ErrUnsupported, e)
			}
			if d, dup := lt.owner[e.Request]; dup {
				return fmt.Errorf("%w: %s: request %s was already made by %s", ErrUnsupported, e, e.Request, lt.clients[d])
			}
			lt.owner[e.Request] = c
			lt.reqUuid[c] = append(lt.reqUuid[c], e.Request)
			current, open, granted, target = e.Request, true, false, ""
			continue
		}
		if e.Action == traceevent.LearnExpiry {
			open = false
			continue
		}
		if e.Request != current || current == "" {
			return fmt.Errorf("%w: %s: client %s reports request %q while its current request is %q "+
				"(two acquisitions of one session on one lock in flight at once)", ErrUnsupported, e, lt.clients[c], e.Request, current)
		}
		switch e.Action {
		case traceevent.Release, traceevent.Cancel, traceevent.ReleaseLease, traceevent.CancelAcquire:
			open = false
		case traceevent.ListChildren:
			if e.Result == traceevent.ResultWait {
				target = e.Target
			}
		case traceevent.RequestLock, traceevent.CreateOk, traceevent.CreateReplyLost, traceevent.FindOwnNode, traceevent.WatchPredecessor, traceevent.WatchSecond,
			traceevent.PredecessorGone, traceevent.GrantOnHeadGone, traceevent.Downgrade,
			traceevent.CreateLease, traceevent.CreateLeaseReplyLost, traceevent.FindOwnLease, traceevent.ListLeases,
			traceevent.LeasesChanged, traceevent.ReleaseInternal, traceevent.Proclaim:
		case traceevent.Mark, traceevent.MarkSeen, traceevent.Rearm, traceevent.GrantOnMarkedGone,
			traceevent.UnmarkedGone, traceevent.WatchOwn:
		case traceevent.LearnNodeGone:
			open = false
		case traceevent.Grant:
			granted = true
		default:
			return fmt.Errorf("%w: %s: unknown action %q", ErrUnsupported, e, e.Action)
		}
	}
	if n := len(lt.reqUuid[c]); n > lt.maxRequests {
		lt.maxRequests = n
	}
	return nil
}

// nodeSequences checks that every node name an event carries belongs to a
// traced request of this lock (a client we cannot see would make the search
// wrong), and records each request's real sequence number (seqs), which
// orders the creates.
func (lt *lockTrace) nodeSequences(where string) error {
	ambiguous := map[string]bool{}
	for _, evs := range lt.events {
		for _, e := range evs {
			names := append([]string{e.Node, e.Target}, e.Children...)
			if e.Action == traceevent.AcquireInternal || e.Action == traceevent.ReleaseInternal {
				names[1] = "" // the internal mutex's node, on its own lock path (P/locks)
			}
			for _, name := range names {
				if name == "" {
					continue
				}
				n, ok, err := parseNode(name)
				if !ok {
					continue
				}
				if err != nil {
					return fmt.Errorf("%w: %s: %w", ErrUnsupported, e, err)
				}
				if _, traced := lt.owner[n.uuid]; !traced {
					return fmt.Errorf("%w: %s: node %s belongs to no traced request on %s: every client of the lock must be traced",
						ErrUnsupported, e, name, where)
				}
				if s, seen := lt.seqs[n.uuid]; seen && s != n.seq {
					ambiguous[n.uuid] = true
				}
				lt.seqs[n.uuid] = n.seq
			}
		}
	}
	for u := range ambiguous {
		lt.seqs[u] = -1 // two nodes for one request: no order constraint (the listings decide)
	}
	return nil
}

// whenExpiryLearned fills in learnsExpiry, read from each client's events
// backwards: from which point on the client will report its session's loss,
// or makes no more calls.
func (lt *lockTrace) whenExpiryLearned() {
	for c, evs := range lt.events {
		lt.learnsExpiry = append(lt.learnsExpiry, make([]expiryKnowledge, len(evs)+1))
		lt.learnsExpiry[c][len(evs)] = ifNodes
		reportAhead, localOnly := false, true
		for i := len(evs) - 1; i >= 0; i-- {
			e := evs[i]
			if e.Action == traceevent.LearnExpiry || (isListing(e.Action) && e.Result == traceevent.ResultMissing) {
				reportAhead = true
			}
			if e.Action != traceevent.RequestLock {
				localOnly = false
			}
			switch {
			case reportAhead:
				lt.learnsExpiry[c][i] = always
			case localOnly:
				lt.learnsExpiry[c][i] = ifNodes
			}
		}
	}
}

// timeOrder fills in need: for each event, how many of every other
// client's events must be matched before it (see precedes).
func (lt *lockTrace) timeOrder() {
	n := len(lt.clients)
	for c, evs := range lt.events {
		lt.need = append(lt.need, make([][]int32, len(evs)))
		for i, e := range evs {
			need := make([]int32, n)
			for j, other := range lt.events {
				if j == c {
					continue
				}
				for k := len(other) - 1; k >= 0; k-- {
					if precedes(other[k], e, isElectionSpec(lt.spec)) {
						need[j] = int32(k + 1)
						break
					}
				}
			}
			lt.need[c][i] = need
		}
	}
}

// hasAction reports whether any client's events include action.
func hasAction(events [][]*Event, action traceevent.Action) bool {
	for _, evs := range events {
		for _, e := range evs {
			if e.Action == action {
				return true
			}
		}
	}
	return false
}
