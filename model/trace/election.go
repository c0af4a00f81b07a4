package trace

import (
	"fmt"

	"github.com/zklock/zklock/model/election"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/traceevent"
)

// The election's reading of its events (Election.tla, model/election).
// Candidates' steps are the lock's, matched by the lock's methods; a
// candidate woken by a NodeDataChanged event reports PredecessorGone, which
// is then Election's DataChanged (see PredecessorGone). Proclaim and the
// observers' steps are here.

// isElection: a's event is a step only an election takes.
func isElection(a traceevent.Action) bool { return electionActions[a] }

var electionActions = map[traceevent.Action]bool{}

func init() {
	for _, a := range traceevent.ElectionActions() {
		electionActions[a] = true
	}
}

// isObserver: a's event is an observer's step.
func isObserver(a traceevent.Action) bool { return isElection(a) && a != traceevent.Proclaim }

// splitObservers makes each observation (an Observe call: its events carry
// one Request) a trace client of its own, after the candidates, since the
// spec's observers are processes of their own beside the candidates even
// when they share a session. A session's LearnExpiry stays with its
// candidate's events. The spec's observers never fail, but an observer
// whose session ends (closed, expired, or lost by its timer) is one that
// takes no more steps, which the spec allows: Observe's channel closes and
// reports nothing more. So a session that only observes drops its
// LearnExpiry, and its observers' events simply end there. The outsider
// (splitEnv), if any, stays the last client, after the observers.
func (lt *lockTrace) splitObservers() {
	var clients, obsNames []string
	var events, obsEvents [][]*Event
	for c, evs := range lt.events {
		if lt.outsider && c == len(lt.events)-1 {
			obsNames, obsEvents = append(obsNames, lt.clients[c]), append(obsEvents, evs)
			break
		}
		var own []*Event
		byReq := map[string]int{}
		for _, e := range evs {
			if !isObserver(e.Action) {
				own = append(own, e)
				continue
			}
			i, ok := byReq[e.Request]
			if !ok {
				i = len(obsEvents)
				byReq[e.Request] = i
				obsNames = append(obsNames, fmt.Sprintf("%s/observer%d", lt.clients[c], len(byReq)))
				obsEvents = append(obsEvents, nil)
			}
			obsEvents[i] = append(obsEvents[i], e)
		}
		candidate := false
		for _, e := range own {
			if e.Action != traceevent.LearnExpiry {
				candidate = true
			}
		}
		if candidate || len(byReq) == 0 {
			clients, events = append(clients, lt.clients[c]), append(events, own)
		}
	}
	lt.candidates = len(clients)
	lt.clients, lt.events = append(clients, obsNames...), append(events, obsEvents...)
}

// electionSpec is Election under the trace's candidates and observers, with
// bounds no trace reaches: MaxSeq (value is per seq) above the number of
// its events, each of which creates at most one node, and MaxProclaims
// above its Proclaims.
func electionSpec(lt *lockTrace) (*election.Spec, error) {
	k := unbounded(lt)
	n := 1
	for _, evs := range lt.events {
		n += len(evs)
	}
	k.MaxSeq = n
	return election.New(predlock.Constants{Constants: k, Fencing: true, GrantRule: predlock.GrantReread},
		election.Constants{Observers: lt.clients[lt.candidates:], MaxProclaims: n, WatchVacancy: true, HeadBySeq: true, NextOnDelete: true, ReportFilter: true},
		election.Base)
}

// Proclaim: "ok" is the model's step; "gone" (the multi's check failed)
// writes nothing, and needs the leader's node gone; "lost" (no reply read)
// is either, the step if it is enabled or nothing, both tried.
func (m *eventMatch[S]) Proclaim() ([]succ[S], string) {
	if m.ev.Result == traceevent.ResultLost {
		out, _ := m.one(*m.s, m.nd.maxSeq, "(nothing: the lost Proclaim was not applied)")
		if t, why := m.do(m.ev.Action, 0); why == "" {
			applied, _ := m.one(t, m.nd.maxSeq, m.label+" (the lost Proclaim was applied)")
			out = append(applied, out...)
		}
		return out, ""
	}
	if m.ev.Result != traceevent.ResultGone {
		t, why := m.do(m.ev.Action, 0)
		if why == "" {
			why = m.sameVersion(&t, "the Proclaim wrote")
		}
		if why != "" {
			return nil, why
		}
		return m.one(t, m.nd.maxSeq, m.label)
	}
	if m.se.a.ownNodeExists(m.s, m.c) {
		return nil, "the Proclaim's check of its node failed, but the node exists in the model"
	}
	return m.one(*m.s, m.nd.maxSeq, "(nothing: the leader's node is gone)")
}

// An observer's pcs after a vacancy and while it watches the head.
var (
	vacant   = "observer " + election.OVacant.String()
	watching = "observer " + election.OWatching.String()
)

// ObserveList: "found" names the head it reads next, which must be the
// model's head (the node of the smallest seq); "vacant", no node. The impl
// may list again without reporting a notification the model's observer
// takes first (after a path watch whose reply showed a candidate), or
// after one the model has no step for (see ObserveNotified): then the
// model's ObserveNotified comes first if its watch fired, and if it did
// not, the listing must show the model's observer what it already knows
// (the same vacancy, or its head first): the model's state again.
func (m *eventMatch[S]) ObserveList() ([]succ[S], string) {
	s := m.s
	if m.pc == vacant || m.pc == watching {
		u, why := m.do(traceevent.ObserveNotified, 0)
		switch {
		case why == "":
			s = &u
		case m.ev.Result == traceevent.ResultVacant && m.pc == vacant && len(m.se.a.nodes(m.s)) == 0,
			m.ev.Result == traceevent.ResultFound && m.pc == watching && m.watchesHead(m.ev.Target) && m.nextIs(m.s) == "":
			return m.guess(*m.s, "(the listing shows what the observer's unfired watch shows)")
		default:
			return nil, why
		}
	}
	if m.ev.Result == traceevent.ResultFound {
		ns := m.se.a.nodes(s)
		if len(ns) == 0 || !m.se.lt.sameNode(m.ev.Target, ns[0]) {
			head := "none"
			if len(ns) > 0 {
				head = m.se.lt.nameOf(ns[0])
			}
			return nil, fmt.Sprintf("the observer takes %s for the head; the model's head is %s", m.ev.Target, head)
		}
	}
	var u S
	if g := m.se.a.step(s, traceevent.ObserveList, m.c, 0, &u); g != "" {
		return nil, fmt.Sprintf("ObserveList(%s) is not enabled: %s is false (%s)", m.name, g, m.pc)
	}
	if got := m.se.a.pc(&u, m.c); (m.ev.Result == traceevent.ResultVacant) != (got == vacant) {
		return nil, fmt.Sprintf("the observer's listing says %q; in the model it goes to %q", m.ev.Result, got)
	}
	if why := m.nextIs(&u); why != "" {
		return nil, why
	}
	return m.one(u, m.nd.maxSeq, m.label)
}

// nextIs checks the first candidate an observer's listing showed after
// its head (the event's Next, if recorded) against the model's after the
// listing's step, t: the one each reads on the head's deletion.
func (m *eventMatch[S]) nextIs(t *S) string {
	if m.ev.Next == nil {
		return ""
	}
	n, ok := m.se.a.second(t, m.c)
	switch {
	case *m.ev.Next == "" && ok:
		return "the observer's listing shows no candidate after its head; the model's shows " + m.se.lt.nameOf(n)
	case *m.ev.Next != "" && !ok:
		return fmt.Sprintf("the observer's listing shows %s after its head; the model's shows none", *m.ev.Next)
	case *m.ev.Next != "" && !m.se.lt.sameNode(*m.ev.Next, n):
		return fmt.Sprintf("the observer's listing shows %s after its head; the model's shows %s", *m.ev.Next, m.se.lt.nameOf(n))
	}
	return ""
}

// ObserveRefresh: the listing after a head read without one; "found" names
// the listing's head, which must be the model's; the model's step takes
// the nodes after the head it watches for its successors.
func (m *eventMatch[S]) ObserveRefresh() ([]succ[S], string) {
	ns := m.se.a.nodes(m.s)
	switch {
	case m.ev.Result == traceevent.ResultVacant && len(ns) > 0:
		return nil, "the observer's listing is empty; the model has " + m.se.lt.nameOf(ns[0])
	case m.ev.Result == traceevent.ResultFound && (len(ns) == 0 || !m.se.lt.sameNode(m.ev.Target, ns[0])):
		return nil, fmt.Sprintf("the observer's listing starts with %s, not the model's head", m.ev.Target)
	}
	t, why := m.do(m.ev.Action, 0)
	if why == "" {
		why = m.nextIs(&t)
	}
	if why != "" {
		return nil, why
	}
	return m.one(t, m.nd.maxSeq, m.label)
}

// watchesHead: the model's observer watches name, which is the head.
func (m *eventMatch[S]) watchesHead(name string) bool {
	n, ok := m.se.a.target(m.s, m.c)
	ns := m.se.a.nodes(m.s)
	return ok && m.se.lt.sameNode(name, n) && len(ns) > 0 && ns[0] == n
}

// ObserveWatch: with a head, the model's getData with a watch ("exists":
// the watch is armed and the head reported; "gone": list again), or, while
// the model's observer still watches that head (see ObserveList), the
// same read again. Without (the path's child watch of a vacancy), the
// model armed it with the listing: an observation.
func (m *eventMatch[S]) ObserveWatch() ([]succ[S], string) {
	if m.ev.Target == "" {
		if m.pc != vacant {
			return nil, fmt.Sprintf("the observer watches the election's path; in the model it is %q, not after a vacancy", m.pc)
		}
		return m.one(*m.s, m.nd.maxSeq, "(the child watch ObserveList armed)")
	}
	if m.pc == watching && m.ev.Result == traceevent.ResultExists && m.watchesHead(m.ev.Target) {
		if why := m.sameVersion(m.s, "the observer read"); why != "" {
			return nil, why
		}
		if m.ev.Reported {
			return nil, "the observer sent a head it had sent already (it reads the head it watches again)"
		}
		return m.one(*m.s, m.nd.maxSeq, "(the observer reads the head it watches again)")
	}
	t, why := m.do(m.ev.Action, 0)
	if why != "" {
		return nil, why
	}
	want := election.OWatching
	if m.ev.Result == traceevent.ResultGone {
		want = election.OList
	}
	if got := m.se.a.pc(&t, m.c); got != "observer "+want.String() {
		return nil, fmt.Sprintf("the observer's read of %s says %q; in the model it goes to %q", m.ev.Target, m.ev.Result, got)
	}
	if want == election.OWatching {
		if why := m.sameVersion(&t, "the observer read"); why != "" {
			return nil, why
		}
		if m.ev.Reported && !m.se.a.reportsNewer(m.s, &t, m.c) {
			return nil, "the observer sent a head no newer than the last it read (ObservedEpochsIncrease)"
		}
	}
	return m.one(t, m.nd.maxSeq, m.label)
}

// sameVersion checks the data version the event carries, if any, against
// the one the model's step wrote or read (t: the state after it).
func (m *eventMatch[S]) sameVersion(t *S, what string) string {
	if m.ev.Version == nil {
		return ""
	}
	if v, ok := m.se.a.dataVersion(t, m.c); !ok || v != int(*m.ev.Version) {
		return fmt.Sprintf("%s version %d; in the model it is %d", what, *m.ev.Version, v)
	}
	return ""
}

// ObserveNotified: the model's step; or, reported as the event of the
// watch on the election's path that the impl kept (ResultPath), a watch the
// model's observer does not hold: the impl's exists watch after a listing
// that found no path (it fires at the path's creation; the spec's parent
// always exists), or its child watch of a vacancy kept after its reply
// showed a candidate (it fires at the next create or delete, maybe with
// the head's watch, whose event then comes next time round). The model's
// observer stays as it is then, and its next listing tells.
func (m *eventMatch[S]) ObserveNotified() ([]succ[S], string) {
	if m.ev.Result == traceevent.ResultPath {
		if !keptPathWatch(m.se.lt.events[m.c][:m.nd.pos[m.c]]) {
			return nil, "a notification from a watch on the election's path, but the observer kept none"
		}
		return m.one(*m.s, m.nd.maxSeq, "(the event of the impl's watch on the election's path)")
	}
	t, why := m.do(m.ev.Action, 0)
	if why != "" {
		return nil, why
	}
	return m.one(t, m.nd.maxSeq, m.label)
}

// guess is one(t), marked as a match that a step not matched yet (a
// Proclaim, a delete) could make wrong by firing the model's watch: the
// search tries it, and the same event after that step (succ's guess).
func (m *eventMatch[S]) guess(t S, model string) ([]succ[S], string) {
	out, why := m.one(t, m.nd.maxSeq, model)
	out[0].guess = true
	return out, why
}

// keptPathWatch: the observer whose earlier events are evs holds a watch
// on the election's path that the model's observer does not, and has not
// taken its event yet (ElectionTrace's pathWatch field): it armed one
// after a listing without a pzxid (no path: an exists watch), or kept one
// (its reply showed a candidate, and the observer listed again without
// waiting), after its last notification from the path.
func keptPathWatch(evs []*Event) bool {
	for i := len(evs) - 1; i > 0; i-- {
		switch e, prev := evs[i], evs[i-1]; {
		case e.Action == traceevent.ObserveNotified && e.Result == traceevent.ResultPath:
			return false
		case e.Action == traceevent.ObserveList && prev.Action == traceevent.ObserveWatch && prev.Target == "":
			return true
		case e.Action == traceevent.ObserveWatch && e.Target == "" && prev.Action == traceevent.ObserveList && prev.Zxid == 0:
			return true
		}
	}
	return false
}

// observerDemand asks for what lets an observer's event match: the
// removal of the nodes before the head it names (or of the node it found
// gone, or all of them for a vacancy), or the create of the head.
func (se *searcher[S]) observerDemand(s *S, ev *Event, d *demands) {
	listing := ev.Action == traceevent.ObserveList || ev.Action == traceevent.ObserveRefresh
	ns := se.a.nodes(s)
	head := -1
	for i, n := range ns {
		if ev.Target != "" && se.lt.sameNode(ev.Target, n) {
			head = i
			if ev.Result != traceevent.ResultFound {
				se.addNodeGone(s, n, d)
			}
			break
		}
		if listing {
			se.addNodeGone(s, n, d)
		}
	}
	if head < 0 {
		se.addCreate(ev.Target, d)
	}
	// A listing that recorded its head's successor: the nodes between
	// them (every node after the head, when it recorded none) are gone,
	// and the successor's create comes first.
	if !listing || ev.Next == nil || head < 0 {
		return
	}
	for _, n := range ns[head+1:] {
		if *ev.Next != "" && se.lt.sameNode(*ev.Next, n) {
			return
		}
		se.addNodeGone(s, n, d)
	}
	se.addCreate(*ev.Next, d)
}

// addCreate asks for the create of the node named name, if the trace
// has its owner's request.
func (se *searcher[S]) addCreate(name string, d *demands) {
	if p, ok, err := parseNode(name); ok && err == nil {
		if o, ok := se.lt.owner[p.uuid]; ok {
			d.creates = append(d.creates, o)
		}
	}
}
