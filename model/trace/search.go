package trace

import (
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"sort"
	"strings"

	"github.com/zklock/zklock/traceevent"
)

// searchNode is one point of the search: a model state and how many
// events of each client have been matched so far.
type searchNode[S any] struct {
	state    S
	pos      []int32
	maxSeq   int64 // the highest real sequence number created so far
	consumed int   // events matched (the sum of pos)
	parent   *searchNode[S]
	step     string // what led here from parent
}

// succ is one way an event (or an environment step) can be matched.
// guess marks a match that leaves the model as it is because the model's
// watch has not fired (an observer's notification taken for the impl's
// watch on the path, or its listing of what it already knows): the watch
// may yet fire, by a step not matched yet, and the event be its own, so
// such a match is never taken eagerly.
type succ[S any] struct {
	state   S
	maxSeq  int64
	desc    string
	consume bool
	guess   bool
}

// failure is an event that could not be matched in a state.
type failure[S any] struct {
	state  S
	reason string
}

// failures are the states (the first few of them) in which one event
// could not be matched, and how many there were.
type failures[S any] struct {
	kept  []failure[S]
	count int
}

// searcher validates one lock's events against one model.
type searcher[S any] struct {
	a       adapter[S]
	lt      *lockTrace
	budget  int
	seeds   [2]maphash.Seed
	visited map[[2]uint64]struct{}
	buf     []byte
	// The deepest progress and the events that failed there.
	best     int
	failures map[[2]int]*failures[S] // (client, index) -> where it failed
	explored int
}

// run searches for an order of the events and of unobservable steps in
// which every event is a step (or an observation) of the model.
func (se *searcher[S]) run() *LockReport {
	se.seeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}
	se.visited = map[[2]uint64]struct{}{}
	se.failures = map[[2]int]*failures[S]{}
	se.best = -1
	n := len(se.lt.clients)
	root := &searchNode[S]{state: se.a.init(), pos: make([]int32, n), maxSeq: -1}
	se.closure(root)
	total := 0
	for _, evs := range se.lt.events {
		total += len(evs)
	}
	rep := &LockReport{Lock: se.lt.lock, Spec: se.a.specName(), Clients: se.lt.clients, Events: total}
	stack := []*searchNode[S]{root}
	for len(stack) > 0 {
		nd := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !se.visit(nd) {
			continue
		}
		se.explored++
		if nd.consumed == total {
			rep.Verdict = Valid
			rep.Explored = se.explored
			rep.Steps, rep.Faults = se.path(nd)
			return rep
		}
		if se.explored > se.budget {
			rep.Verdict = Inconclusive
			rep.Explored = se.explored
			rep.Reason = fmt.Sprintf("the search budget of %d states ran out after matching %d of %d events (raise Options.Budget)",
				se.budget, se.best, total)
			if len(se.failures) > 0 {
				rep.Divergence = se.divergence()
			}
			return rep
		}
		stack = append(stack, se.expand(nd)...)
	}
	rep.Verdict = Invalid
	rep.Explored = se.explored
	rep.Divergence = se.divergence()
	return rep
}

// visit marks nd's (state, positions) as seen; false if it was.
func (se *searcher[S]) visit(nd *searchNode[S]) bool {
	b := se.a.key(se.buf[:0], &nd.state)
	for _, p := range nd.pos {
		b = binary.AppendUvarint(b, uint64(p))
	}
	b = binary.AppendVarint(b, nd.maxSeq)
	se.buf = b
	key := [2]uint64{maphash.Bytes(se.seeds[0], b), maphash.Bytes(se.seeds[1], b)}
	if _, ok := se.visited[key]; ok {
		return false
	}
	se.visited[key] = struct{}{}
	return true
}

// closure applies the client-internal steps that commute with every other
// step and that no event reports: IgnoreNotification (dropping a stale
// notification) wherever it is enabled.
func (se *searcher[S]) closure(nd *searchNode[S]) {
	for changed := true; changed; {
		changed = false
		for c := range se.lt.clients {
			var t S
			if se.a.step(&nd.state, "IgnoreNotification", c, 0, &t) == "" {
				nd.state = t
				changed = true
			}
		}
	}
}

// child makes the successor of nd by s.
func (se *searcher[S]) child(nd *searchNode[S], c int, s succ[S]) *searchNode[S] {
	ch := &searchNode[S]{state: s.state, pos: nd.pos, maxSeq: s.maxSeq, consumed: nd.consumed, parent: nd, step: s.desc}
	if s.consume {
		ch.pos = append([]int32(nil), nd.pos...)
		ch.pos[c]++
		ch.consumed++
	}
	se.closure(ch)
	return ch
}

// ready reports whether client c's next event may be matched now: every
// event of another client that ended before it started has been matched.
func (se *searcher[S]) ready(nd *searchNode[S], c int) bool {
	i := nd.pos[c]
	if int(i) >= len(se.lt.events[c]) {
		return false
	}
	for j, need := range se.lt.need[c][i] {
		if j != c && nd.pos[j] < need {
			return false
		}
	}
	return true
}

// eager are the events that may be matched as soon as they are ready and
// can be: they write only their client's variables (RequestLock,
// PredecessorGone, GrantOnHeadGone, Grant, LearnExpiry, FindOwnNode, ListChildren: a
// listing reads the nodes, and any later point where it matches has the
// same nodes, so matching it now loses no order), or add a watch whose
// outcome would be the same later (WatchPredecessor: a node never comes
// back; but in an election a Proclaim on the node fires the watch, so a
// read that may race a Proclaim is not eager: proclaimMayPrecede). Such an event commutes with the steps of other clients, so a
// ready one is matched at once, without branching. Creates and deletes
// (CreateOk, CreateReplyLost, Release, Cancel, Downgrade) are not: the
// search tries them in every order the times allow. Of the semaphore's,
// FindOwnLease, LeasesChanged and ListLeases are eager as the lock's
// (ListLeases also arms a child watch, but with its pzxid the listing has
// one place among the writes), and ReleaseInternal, which only frees the
// internal mutex: no step of the model needs it held, so freeing it early
// disables nothing. AcquireInternal takes it, and is tried in every order.
// An election observer's steps write only its own variables, and read the
// head (ObserveList, whose pzxid places it among the writes) or arm a watch
// whose read, if early, only makes the model's watch fire sooner.
var eager = map[traceevent.Action]bool{
	traceevent.RequestLock: true, traceevent.PredecessorGone: true, traceevent.GrantOnHeadGone: true, traceevent.Grant: true, traceevent.LearnExpiry: true,
	traceevent.FindOwnNode: true, traceevent.WatchPredecessor: true, traceevent.WatchSecond: true, traceevent.ListChildren: true,
	traceevent.FindOwnLease: true, traceevent.ListLeases: true, traceevent.LeasesChanged: true, traceevent.ReleaseInternal: true,
	traceevent.ObserveList: true, traceevent.ObserveWatch: true, traceevent.ObserveNotified: true,
	traceevent.ObserveNext: true, traceevent.ObserveRefresh: true,
	traceevent.MarkSeen: true, traceevent.Rearm: true, traceevent.GrantOnMarkedGone: true,
	traceevent.UnmarkedGone: true, traceevent.WatchOwn: true,
}

// proclaimMayPrecede reports whether ev, a read that arms a data watch
// (a candidate's WatchPredecessor or WatchSecond, or an observer's
// ObserveWatch whose event carries no version), reads a node whose owner
// has a Proclaim not yet matched that the times and zxids do not place
// after ev. Such a read is not eager: a Proclaim fires every data watch on
// its node, so a watch armed before it is gone (its NodeDataChanged event
// delivered) and one armed after it waits for the deletion. The two orders
// are different runs, and only the search over both finds the one the
// client's later events (a hand-off on NodeDeleted, say) agree with. (An
// observer's read with a version is told apart by it: matched in the wrong
// order, it fails, and eagerness never commits to it.)
func (se *searcher[S]) proclaimMayPrecede(nd *searchNode[S], c int, ev *Event) bool {
	switch {
	case ev.Action == traceevent.WatchPredecessor, ev.Action == traceevent.WatchSecond, ev.Action == traceevent.Rearm:
	case ev.Action == traceevent.ObserveWatch && ev.Version == nil:
	default:
		return false
	}
	n, ok, err := parseNode(ev.Target)
	if !ok || err != nil {
		return false
	}
	o, ok := se.lt.owner[n.uuid]
	if !ok || o == c {
		return false
	}
	i := nd.pos[c]
	for k := int(nd.pos[o]); k < len(se.lt.events[o]); k++ {
		if a := se.lt.events[o][k].Action; a == traceevent.Proclaim || a == traceevent.Mark {
			// Later Proclaims of o start later still: the first decides.
			return se.lt.need[o][k][c] <= i
		}
	}
	return false
}

// endsWithoutDelete reports whether ev is a Release or Cancel whose
// delete the client never saw confirmed: in the model (AsyncDelete) it
// writes only its client's variables and the pending deletes, so it is
// eager too; the delete itself lands later, when an event asks for it.
func endsWithoutDelete(ev *Event) bool {
	return (ev.Action == traceevent.Release || ev.Action == traceevent.Cancel) && !confirmed(ev)
}

// expand returns nd's successors, the one to try first last.
func (se *searcher[S]) expand(nd *searchNode[S]) []*searchNode[S] {
	var readyClients []int
	for c := range se.lt.clients {
		if se.ready(nd, c) {
			readyClients = append(readyClients, c)
		}
	}
	// Earliest start first; a step whose outcome the client never saw (a
	// delete left pending) last: nothing orders it before a later step, so
	// it may wait until an event observes it or its client goes on, and
	// trying it early makes the search backtrack over every step between.
	sort.SliceStable(readyClients, func(i, j int) bool {
		a, b := se.lt.events[readyClients[i]][nd.pos[readyClients[i]]], se.lt.events[readyClients[j]][nd.pos[readyClients[j]]]
		if (a.End == nil) != (b.End == nil) {
			return b.End == nil
		}
		return a.Start < b.Start
	})
	for _, c := range readyClients {
		ev := se.lt.events[c][nd.pos[c]]
		if !eager[ev.Action] && !endsWithoutDelete(ev) || se.proclaimMayPrecede(nd, c, ev) {
			continue
		}
		if succs, _ := se.match(nd, c, ev); len(succs) == 1 && !succs[0].guess {
			return []*searchNode[S]{se.child(nd, c, succs[0])}
		}
	}
	var out []*searchNode[S]
	var demand demands
	for k := len(readyClients) - 1; k >= 0; k-- {
		c := readyClients[k]
		ev := se.lt.events[c][nd.pos[c]]
		succs, why := se.match(nd, c, ev)
		if len(succs) == 0 {
			se.fail(nd, c, why)
			se.demandFor(nd, c, ev, &demand)
			continue
		}
		for i := len(succs) - 1; i >= 0; i-- {
			out = append(out, se.child(nd, c, succs[i]))
		}
	}
	// Unobservable steps, tried after the events, and only those an event
	// that cannot be matched now asks for.
	env := se.environment(nd, &demand)
	all := make([]*searchNode[S], 0, len(env)+len(out))
	for _, s := range env {
		all = append(all, se.child(nd, s.c, s.succ))
	}
	return append(all, out...)
}

// demands are the unobservable steps that may let an unmatched event
// match: sessions to expire, clients whose unreported create to insert.
type demands struct {
	expire  [][2]int // sessions <<c, k>>
	creates []int    // clients
	deletes [][2]int // requests <<c, r>> whose pending delete may land
}

// addNodeGone asks for what removes model node n: the landing of its
// request's pending delete, if there is one, and its session's expiry.
func (se *searcher[S]) addNodeGone(s *S, n obsNode, d *demands) {
	if se.a.pendingDelete(s, n.c, n.r) {
		req := [2]int{n.c, n.r}
		known := false
		for _, x := range d.deletes {
			known = known || x == req
		}
		if !known {
			d.deletes = append(d.deletes, req)
		}
	}
	d.addSession(n.owner, n.ownerK)
}

func (d *demands) addSession(c, k int) {
	for _, x := range d.expire {
		if x == [2]int{c, k} {
			return
		}
	}
	d.expire = append(d.expire, [2]int{c, k})
}

// demandFor adds the steps that could make client c's event ev match:
// the expiry of the session owning a node the event observes gone (a
// listing without it, a watch target found gone, the node whose deletion
// PredecessorGone reports, every node of the queue when a create's
// sequence number says the lock path was made anew), of c's own session
// (LearnExpiry, a listing without c's own node), and the unreported create
// of a node a listing shows; for a semaphore, the expiry of the session
// holding the internal mutex an AcquireInternal finds taken, or of one
// owning a lease node when a LeasesChanged finds no event.
func (se *searcher[S]) demandFor(nd *searchNode[S], c int, ev *Event, d *demands) {
	s := &nd.state
	own := func() {
		for _, x := range se.a.sessions(s) {
			if x.c == c && x.current {
				d.addSession(x.c, x.k)
			}
		}
	}
	switch ev.Action {
	case traceevent.ListChildren, traceevent.ListLeases:
		if ev.Result == traceevent.ResultMissing {
			own()
		}
		listed := map[string]bool{}
		for _, ch := range ev.Children {
			if n, ok, err := parseNode(ch); ok && err == nil {
				listed[n.uuid+"/"+n.kind] = true
			}
		}
		inModel := map[string]bool{}
		for _, n := range se.a.nodes(s) {
			key := se.lt.reqUuid[n.c][n.r-1] + "/" + n.kind
			inModel[key] = true
			if !listed[key] {
				se.addNodeGone(s, n, d)
			}
		}
		for key := range listed {
			if inModel[key] {
				continue
			}
			uuid, _, _ := strings.Cut(key, "/")
			if o, ok := se.lt.owner[uuid]; ok {
				d.creates = append(d.creates, o)
			}
		}
	case traceevent.ObserveList, traceevent.ObserveWatch, traceevent.ObserveNotified, traceevent.ObserveNext, traceevent.ObserveRefresh:
		se.observerDemand(s, ev, d)
	case traceevent.WatchPredecessor, traceevent.Rearm:
		if n, ok := se.a.target(s, c); ok {
			se.addNodeGone(s, n, d)
		}
	case traceevent.WatchSecond:
		if n, ok := se.a.second(s, c); ok {
			se.addNodeGone(s, n, d)
		}
	case traceevent.PredecessorGone, traceevent.GrantOnHeadGone, traceevent.GrantOnMarkedGone, traceevent.UnmarkedGone:
		// The event names the node whose watch fired: the target, the
		// second, or an earlier target of the request.
		named := false
		for _, n := range se.a.nodes(s) {
			if ev.Target != "" && se.lt.sameNode(ev.Target, n) {
				se.addNodeGone(s, n, d)
				named = true
			}
		}
		if n, ok := se.a.target(s, c); ok && !named {
			se.addNodeGone(s, n, d)
		}
	case traceevent.AcquireInternal:
		// The internal mutex is held by a session no event shows going
		// (its client, c itself maybe, has moved on): its expiry deleted
		// its lock node.
		if hc, hk, ok := se.a.mutexHolder(s); ok {
			d.addSession(hc, hk)
		}
	case traceevent.LeasesChanged:
		// The child watch fired on a change no event shows yet: the
		// expiry of a session that owns a lease node.
		for _, n := range se.a.nodes(s) {
			if n.c != c {
				se.addNodeGone(s, n, d)
			}
		}
	case traceevent.LearnExpiry:
		own()
	case traceevent.CreateOk, traceevent.CreateReplyLost, traceevent.CreateLease, traceevent.CreateLeaseReplyLost:
		// A sequence number below one created before: the lock path was
		// reaped and made anew, which needs an empty queue. Ask for the
		// expiry of the sessions whose nodes are still in it.
		if seq, known := se.lt.realSeq(ev.Request); known && seq <= nd.maxSeq {
			for _, n := range se.a.nodes(s) {
				se.addNodeGone(s, n, d)
			}
		}
	}
}

// environment returns the unobservable steps the demands ask for, where
// the model allows them:
//   - ExpireSession of an abandoned session (free);
//   - ExpireSession of the session a client uses, if that client later
//     learns it (a LearnExpiry or a listing without its own node), or if
//     it has no more ZooKeeper calls to make and the session owns nodes;
//     a holder's session only inside a pause (PauseClient, ExpireSession,
//     ResumeClient: the model lets the server expire a holder only while
//     its process is paused);
//   - CreateReplyLost of a client whose create it never reports (its next
//     event is Cancel or LearnExpiry, or it has none): the create happened
//     but the client stopped waiting for its reply.
//
// Steps no unmatched event asks for are not tried: an expiry or an
// unreported create that no event observes can be postponed until one
// does (it commutes with every step in between, up to the zxids and the
// order of notifications of different requests, which no event shows).
func (se *searcher[S]) environment(nd *searchNode[S], d *demands) []envSucc[S] {
	var out []envSucc[S]
	for _, req := range d.deletes {
		var t S
		if se.a.step(&nd.state, traceevent.DeleteLands, req[0], req[1], &t) == "" {
			out = append(out, envSucc[S]{req[0], succ[S]{state: t, maxSeq: nd.maxSeq,
				desc: fmt.Sprintf("DeleteLands(%s's request %s) (its delete was pending)", se.lt.clients[req[0]], se.lt.reqUuid[req[0]][req[1]-1])}})
		}
	}
	sessions := se.a.sessions(&nd.state)
	for _, want := range d.expire {
		var x liveSession
		found := false
		for _, ls := range sessions {
			if ls.c == want[0] && ls.k == want[1] {
				x, found = ls, true
			}
		}
		if !found {
			continue
		}
		desc := fmt.Sprintf("ExpireSession(<<%s, %d>>)", se.lt.clients[x.c], x.k)
		if !x.current {
			var t S
			if se.a.step(&nd.state, "ExpireSession", x.c, x.k, &t) == "" {
				out = append(out, envSucc[S]{x.c, succ[S]{state: t, maxSeq: nd.maxSeq, desc: desc}})
			}
			continue
		}
		if learns := se.lt.learnsExpiry[x.c][nd.pos[x.c]]; learns == never || learns == ifNodes && !x.ownsNodes {
			continue
		}
		cur := nd.state
		var steps []string
		if se.a.holding(&cur, x.c) {
			var p S
			if se.a.step(&cur, "PauseClient", x.c, 0, &p) != "" {
				continue
			}
			cur = p
			steps = append(steps, "PauseClient("+se.lt.clients[x.c]+")")
		}
		var t S
		if se.a.step(&cur, "ExpireSession", x.c, x.k, &t) != "" {
			continue
		}
		steps = append(steps, desc)
		if len(steps) == 2 {
			var r S
			if se.a.step(&t, "ResumeClient", x.c, 0, &r) != "" {
				continue
			}
			t = r
			steps = append(steps, "ResumeClient("+se.lt.clients[x.c]+")")
		}
		out = append(out, envSucc[S]{x.c, succ[S]{state: t, maxSeq: nd.maxSeq, desc: strings.Join(steps, ", ")}})
	}
	for _, c := range d.creates {
		if se.a.pc(&nd.state, c) != "create" || !se.a.live(&nd.state, c) {
			continue
		}
		i := int(nd.pos[c])
		if i < len(se.lt.events[c]) {
			if a := se.lt.events[c][i].Action; a != traceevent.Cancel && a != traceevent.CancelAcquire && a != traceevent.LearnExpiry {
				continue
			}
		}
		var t S
		if se.a.step(&nd.state, "CreateReplyLost", c, 0, &t) != "" {
			continue
		}
		max, ok := se.created(nd, c, se.lt.currentRequest(c, i))
		if !ok {
			continue
		}
		out = append(out, envSucc[S]{c, succ[S]{state: t, maxSeq: max,
			desc: "CreateReplyLost(" + se.lt.clients[c] + ") (unreported: the client stopped waiting for the reply)"}})
	}
	return out
}

// fail records that client c's next event could not be matched in nd.
func (se *searcher[S]) fail(nd *searchNode[S], c int, why string) {
	if nd.consumed < se.best {
		return
	}
	if nd.consumed > se.best {
		se.best = nd.consumed
		se.failures = map[[2]int]*failures[S]{}
	}
	key := [2]int{c, int(nd.pos[c])}
	f := se.failures[key]
	if f == nil {
		f = &failures[S]{}
		se.failures[key] = f
	}
	f.count++
	if len(f.kept) < maxCandidates {
		f.kept = append(f.kept, failure[S]{state: nd.state, reason: why})
	}
}

// maxCandidates is how many model states a divergence report shows.
const maxCandidates = 3

// envSucc is an environment step and the client it concerns.
type envSucc[S any] struct {
	c    int
	succ succ[S]
}

// created checks that a node of request uuid may be created now: its
// real sequence number, when the trace shows it, must exceed every one
// created before (ZooKeeper numbers creates in order). The one exception is
// an empty queue: ZooKeeper deletes an empty container (the lock path), the
// next create makes it anew, and numbering starts again from 0. It returns
// the new highest sequence number.
func (se *searcher[S]) created(nd *searchNode[S], c int, uuid string) (int64, bool) {
	seq, known := se.lt.realSeq(uuid)
	if !known {
		return nd.maxSeq, true
	}
	if seq <= nd.maxSeq && len(se.a.nodes(&nd.state)) > 0 {
		return nd.maxSeq, false
	}
	return seq, true
}

// path returns the steps from the root to nd, and the fault steps among
// the unobservable ones.
func (se *searcher[S]) path(nd *searchNode[S]) (steps, faults []string) {
	for x := nd; x.parent != nil; x = x.parent {
		steps = append(steps, x.step)
	}
	for i, j := 0, len(steps)-1; i < j; i, j = i+1, j-1 {
		steps[i], steps[j] = steps[j], steps[i]
	}
	for _, s := range steps {
		if strings.HasPrefix(s, "ExpireSession") || strings.HasPrefix(s, "PauseClient") ||
			strings.HasPrefix(s, "CreateReplyLost(") && strings.Contains(s, "unreported") {
			faults = append(faults, s)
		}
	}
	return steps, faults
}

// divergence reports the event that could not be matched at the deepest
// progress: the one with the earliest start among those that failed
// there, with the model states it was compared against.
func (se *searcher[S]) divergence() *Divergence {
	var keys [][2]int
	for k := range se.failures {
		keys = append(keys, k)
	}
	if len(keys) == 0 {
		return &Divergence{Reason: "no event could be matched from the initial state"}
	}
	sort.Slice(keys, func(i, j int) bool {
		a, b := se.lt.events[keys[i][0]][keys[i][1]], se.lt.events[keys[j][0]][keys[j][1]]
		if a.Start != b.Start {
			return a.Start < b.Start
		}
		return keys[i][0] < keys[j][0]
	})
	k := keys[0]
	ev := se.lt.events[k[0]][k[1]]
	fs := se.failures[k]
	d := &Divergence{Event: *ev, Matched: se.best, Reason: fs.kept[0].reason, Compared: fs.count}
	for _, f := range fs.kept {
		d.Candidates = append(d.Candidates, Candidate{State: se.a.format(&f.state), Why: f.reason})
	}
	for _, other := range keys[1:] {
		e := se.lt.events[other[0]][other[1]]
		d.Others = append(d.Others, fmt.Sprintf("%s: %s", e, se.failures[other].kept[0].reason))
	}
	return d
}
