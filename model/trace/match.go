package trace

import (
	"fmt"
	"sort"
	"strings"

	"github.com/zklock/zklock/traceevent"
)

// match returns the ways client c's event ev can be matched in nd's state
// (each consumes the event), or why it cannot. The mapping of each event
// to the model is documented in the package README (model/trace/README.md);
// each traced action has its own method below, named like the spec action
// (as model/predlock/actions.go names the model's), so that the spec, the
// model and the trace's reading of an action can be read side by side.
func (se *searcher[S]) match(nd *searchNode[S], c int, ev *Event) ([]succ[S], string) {
	m := se.eventMatch(nd, c, ev)
	switch ev.Action {
	case traceevent.RequestLock:
		return m.RequestLock()
	case traceevent.CreateOk, traceevent.CreateLease:
		return m.CreateOk()
	case traceevent.CreateReplyLost, traceevent.CreateLeaseReplyLost:
		return m.CreateReplyLost()
	case traceevent.FindOwnNode, traceevent.FindOwnLease:
		return m.FindOwnNode()
	case traceevent.ListChildren:
		return m.ListChildren()
	case traceevent.WatchSecond:
		return m.WatchSecond()
	case traceevent.WatchPredecessor:
		return m.WatchPredecessor()
	case traceevent.LearnExpiry:
		return m.LearnExpiry()
	case traceevent.Downgrade:
		return m.Downgrade()
	case traceevent.PredecessorGone:
		return m.PredecessorGone()
	case traceevent.GrantOnHeadGone:
		return m.GrantOnHeadGone()
	case traceevent.Grant:
		return m.Grant()
	case traceevent.Mark:
		return m.Mark()
	case traceevent.WatchOwn:
		return m.step()
	case traceevent.MarkSeen, traceevent.UnmarkedGone:
		return m.notified()
	case traceevent.GrantOnMarkedGone:
		return m.GrantOnHeadGone()
	case traceevent.Rearm:
		return m.Rearm()
	case traceevent.Release, traceevent.ReleaseLease:
		return m.Release()
	case traceevent.Cancel:
		return m.Cancel()
	case traceevent.AcquireInternal:
		return m.step()
	case traceevent.ListLeases:
		return m.ListLeases()
	case traceevent.LeasesChanged:
		return m.LeasesChanged()
	case traceevent.ReleaseInternal:
		return m.ReleaseInternal()
	case traceevent.CancelAcquire:
		return m.CancelAcquire()
	case traceevent.Proclaim:
		return m.Proclaim()
	case traceevent.ObserveList:
		return m.ObserveList()
	case traceevent.ObserveWatch:
		return m.ObserveWatch()
	case traceevent.ObserveNotified:
		return m.ObserveNotified()
	case traceevent.ObserveNext: // the model's step (the head's NodeDeleted)
		return m.step()
	case traceevent.ObserveRefresh:
		return m.ObserveRefresh()
	case traceevent.LearnNodeGone:
		return m.step()
	case traceevent.ForeignDelete, traceevent.ForeignReplace:
		return m.Foreign()
	}
	return nil, fmt.Sprintf("unknown action %s", ev.Action)
}

// eventMatch is one attempt to match client c's event ev in node nd: what
// every action's matching needs, worked out once.
type eventMatch[S any] struct {
	se    *searcher[S]
	nd    *searchNode[S]
	s     *S
	c     int
	ev    *Event
	name  string // the client's name in the trace
	label string // the model step, as a path through the model shows it
	desc  string // the event, as a divergence report shows it
	pc    string // the client's pc in s
}

func (se *searcher[S]) eventMatch(nd *searchNode[S], c int, ev *Event) *eventMatch[S] {
	name := se.lt.clients[c]
	desc := fmt.Sprintf("line %d: %s %s", ev.Line, name, ev.Action)
	if ev.Result != "" {
		desc += " " + string(ev.Result)
	}
	return &eventMatch[S]{
		se: se, nd: nd, s: &nd.state, c: c, ev: ev, name: name,
		label: string(ev.Action) + "(" + name + ")",
		desc:  desc,
		pc:    se.a.pc(&nd.state, c),
	}
}

// one is the single way the event matches: the model goes to t.
func (m *eventMatch[S]) one(t S, maxSeq int64, model string) ([]succ[S], string) {
	return []succ[S]{{state: t, maxSeq: maxSeq, desc: m.desc + "  =>  " + model, consume: true}}, ""
}

// do takes the named model step, or says why it is not enabled, in the
// trace's names: the guard's c is the client's name.
func (m *eventMatch[S]) do(action traceevent.Action, arg int) (S, string) {
	var t S
	if g := m.se.a.step(m.s, action, m.c, arg, &t); g != "" {
		guard := strings.NewReplacer("[c]", "["+m.name+"]", "(c)", "("+m.name+")").Replace(string(g))
		return t, fmt.Sprintf("%s(%s) is not enabled: %s is false (pc[%s] = %q)", action, m.name, guard, m.name, m.pc)
	}
	return t, ""
}

// step matches an event that is exactly the model step of its name.
func (m *eventMatch[S]) step() ([]succ[S], string) {
	t, why := m.do(m.ev.Action, 0)
	if why != "" {
		return nil, why
	}
	return m.one(t, m.nd.maxSeq, m.label)
}

// Mark: the model's Mark. A mark whose reply was lost (unconfirmed) may
// not have been applied: then no step, the holder's node unmarked (a
// successor that read it so lists again at its deletion). Either way the
// code traces no WatchOwn unless its getData read the mark back.
func (m *eventMatch[S]) Mark() ([]succ[S], string) {
	out, why := m.step()
	if confirmed(m.ev) {
		return out, why
	}
	return append(out, succ[S]{state: *m.s, maxSeq: m.nd.maxSeq, desc: m.desc + "  =>  (nothing: the mark was not applied)", consume: true}), ""
}

// RequestLock: the step takes the lock's kind (read or write) as its
// argument in the read/write lock's model.
func (m *eventMatch[S]) RequestLock() ([]succ[S], string) {
	arg, err := m.se.a.kindArg(m.ev.Kind)
	if err != nil {
		return nil, err.Error()
	}
	t, why := m.do("RequestLock", arg)
	if why != "" {
		return nil, why
	}
	return m.one(t, m.nd.maxSeq, m.label)
}

// CreateOk (and the semaphore's CreateLease): the node the client reports
// must be its request's, and its sequence number must come after every
// node created so far.
func (m *eventMatch[S]) CreateOk() ([]succ[S], string) {
	if why := ownName(m.ev, m.ev.Node, m.nodeKind()); why != "" {
		return nil, why
	}
	t, why := m.do(m.ev.Action, 0)
	if why != "" {
		return nil, why
	}
	max, ok := m.se.created(m.nd, m.c, m.ev.Request)
	if !ok {
		return nil, m.se.orderReason(m.nd, m.ev.Request)
	}
	return m.one(t, max, m.label)
}

// CreateReplyLost (and CreateLeaseReplyLost): the reply was lost, so the
// create may or may not have happened; both are ways to match, and the
// events after decide.
func (m *eventMatch[S]) CreateReplyLost() ([]succ[S], string) {
	var out []succ[S]
	t, why := m.do(m.ev.Action, 0)
	if why == "" {
		if max, ok := m.se.created(m.nd, m.c, m.ev.Request); ok {
			out = append(out, succ[S]{state: t, maxSeq: max, consume: true,
				desc: m.desc + "  =>  " + m.label + " (the create happened)"})
		} else {
			why = m.se.orderReason(m.nd, m.ev.Request)
		}
	}
	if m.pc == "create" {
		out = append(out, succ[S]{state: *m.s, maxSeq: m.nd.maxSeq, consume: true,
			desc: m.desc + "  =>  (nothing: the create never reached the server)"})
	}
	if len(out) == 0 {
		return nil, why
	}
	return out, ""
}

// FindOwnNode (and FindOwnLease): after a lost reply, the client looks for
// its node. Found, it is the model's step (which must find the node too;
// both recipes list next); absent, the create never happened and the
// client is still to create, which is no step.
func (m *eventMatch[S]) FindOwnNode() ([]succ[S], string) {
	switch m.ev.Result {
	case traceevent.ResultFound:
		if why := ownName(m.ev, m.ev.Target, m.nodeKind()); why != "" {
			return nil, why
		}
		t, why := m.do(m.ev.Action, 0)
		if why != "" {
			return nil, why
		}
		if m.se.a.pc(&t, m.c) != "list" {
			return nil, fmt.Sprintf("FindOwnNode(%s) finds no node of request %s owned by its session in the model", m.name, m.ev.Request)
		}
		return m.one(t, m.nd.maxSeq, m.label+" (found)")
	case traceevent.ResultAbsent:
		if m.pc != "create" {
			return nil, fmt.Sprintf("FindOwnNode found nothing, but in the model the lost create happened (pc[%s] = %q): the node exists", m.name, m.pc)
		}
		return m.one(*m.s, m.nd.maxSeq, "(nothing: the create never reached the server, the client creates again)")
	}
	return nil, fmt.Sprintf("FindOwnNode result %q: want found or absent", m.ev.Result)
}

// ListChildren: the listing must show the model's nodes, and the client's
// decision (grant, or wait for a node) must be the model's. A listing that
// misses the client's own node is an observation that its session is gone,
// not a step.
func (m *eventMatch[S]) ListChildren() ([]succ[S], string) {
	ev, a := m.ev, m.se.a
	if why := m.se.sameChildren(m.s, ev); why != "" {
		return nil, why
	}
	if ev.Result == traceevent.ResultMissing {
		return m.listingMissing()
	}
	t, why := m.do("ListChildren", 0)
	if why != "" {
		return nil, why
	}
	switch got := a.pc(&t, m.c); {
	case ev.Result == traceevent.ResultGrant && got == "grant":
		return m.one(t, m.nd.maxSeq, m.label+" -> grant")
	case ev.Result == traceevent.ResultWait && (got == "watch" || got == "second"):
		tg, _ := a.target(&t, m.c)
		if w := m.se.lt.nameOf(tg); !m.se.lt.sameNode(ev.Target, tg) {
			return nil, fmt.Sprintf("the client waits for %s, the model for %s", ev.Target, w)
		}
		return m.one(t, m.nd.maxSeq, m.label+" -> watch "+ev.Target)
	case got == "grant":
		return nil, fmt.Sprintf("the client's listing says %q; in the model no node it must wait for is ahead of it: it goes on to Grant", ev.Result)
	default:
		tg, _ := a.target(&t, m.c)
		return nil, fmt.Sprintf("the client's listing says %q; in the model it must wait for %s", ev.Result, m.se.lt.nameOf(tg))
	}
}

// listingMissing matches a listing (ListChildren, ListLeases) that misses
// the client's own node: an observation that its session is gone, not a
// step.
func (m *eventMatch[S]) listingMissing() ([]succ[S], string) {
	a := m.se.a
	if m.pc != "list" || a.ownNodeExists(m.s, m.c) {
		return nil, fmt.Sprintf("the listing misses %s's own node, but in the model it exists (pc[%s] = %q, Live = %v)",
			m.name, m.name, m.pc, a.live(m.s, m.c))
	}
	return m.one(*m.s, m.nd.maxSeq, "(observation: the session is gone; the client learns it with LearnExpiry)")
}

// WatchPredecessor: the client watches the node its last listing chose,
// and finds it where the model has it (armed) or gone (list again); or the
// connection was lost before the reply ("lost"): nothing armed, list
// again, whether the node is there or not (WatchPredecessorLost, a step of
// PredecessorLockConnLoss).
func (m *eventMatch[S]) WatchPredecessor() ([]succ[S], string) {
	ev := m.ev
	if prev := m.se.lt.prevTarget[m.c][m.nd.pos[m.c]]; prev != ev.Target {
		return nil, fmt.Sprintf("the client watches %s but chose %q at its last listing", ev.Target, prev)
	}
	if ev.Result == traceevent.ResultLost {
		t, why := m.do(watchPredecessorLost, 0)
		if why != "" {
			return nil, why
		}
		return m.one(t, m.nd.maxSeq, m.label+" -> reply lost, list again")
	}
	t, why := m.do("WatchPredecessor", 0)
	if why != "" {
		return nil, why
	}
	switch got := m.se.a.pc(&t, m.c); {
	case ev.Result == traceevent.ResultExists && got == "wait":
		return m.one(t, m.nd.maxSeq, m.label+" -> watch armed")
	case ev.Result == traceevent.ResultGone && got == "list":
		return m.one(t, m.nd.maxSeq, m.label+" -> NoNode, list again")
	case got == "wait":
		return nil, fmt.Sprintf("the client found %s gone; in the model it exists", ev.Target)
	default:
		return nil, fmt.Sprintf("the client set a watch on %s; in the model it is gone", ev.Target)
	}
}

// WatchSecond: the client watches the node two ahead of its own that its
// last listing showed (the model's second, PredecessorLock only), and
// finds it where the model has it (armed) or gone (nothing watched), or
// the connection was lost before the reply ("lost": nothing armed,
// WatchSecondLost, a step of PredecessorLockConnLoss); either way the
// client goes on to its predecessor.
func (m *eventMatch[S]) WatchSecond() ([]succ[S], string) {
	ev := m.ev
	sec, ok := m.se.a.second(m.s, m.c)
	if ok && !m.se.lt.sameNode(ev.Target, sec) {
		return nil, fmt.Sprintf("the client watches %s as its second; in the model its second is %s", ev.Target, m.se.lt.nameOf(sec))
	}
	if ev.Result == traceevent.ResultLost {
		t, why := m.do(watchSecondLost, 0)
		if why != "" {
			return nil, why
		}
		return m.one(t, m.nd.maxSeq, m.label+" -> reply lost, nothing watched")
	}
	t, why := m.do("WatchSecond", 0)
	if why != "" {
		return nil, why
	}
	switch {
	case ev.Result == traceevent.ResultExists && ok:
		return m.one(t, m.nd.maxSeq, m.label+" -> watch armed")
	case ev.Result == traceevent.ResultGone && !ok:
		return m.one(t, m.nd.maxSeq, m.label+" -> NoNode, nothing watched")
	case ok:
		return nil, fmt.Sprintf("the client found %s gone; in the model it exists", ev.Target)
	default:
		return nil, fmt.Sprintf("the client set a watch on %s; in the model it is gone", ev.Target)
	}
}

// LearnExpiry: even "expired" may come before the model's ExpireSession: a
// server tells a reconnecting client its session expired as soon as the
// leader has dropped it, while the closeSession transaction that deletes
// its nodes commits later (other clients still list them). The expiry is
// inserted when an event observes it.
func (m *eventMatch[S]) LearnExpiry() ([]succ[S], string) {
	return m.step()
}

// Downgrade: the node the client reports is its request's, now of kind
// read.
func (m *eventMatch[S]) Downgrade() ([]succ[S], string) {
	if why := ownName(m.ev, m.ev.Node, "read"); why != "" {
		return nil, why
	}
	return m.step()
}

// PredecessorGone: the model's step; when it is not enabled because the
// client still waits, the reason is that no notification came.
//
// In an election the wake-up may be a NodeDataChanged event a Proclaim
// fired (the impl lists again on any event but a deletion): Election's
// DataChanged, tried beside the lock's step.
func (m *eventMatch[S]) PredecessorGone() ([]succ[S], string) {
	succs, why := m.notified()
	if !isElectionSpec(m.se.lt.spec) {
		return succs, why
	}
	if t, w := m.do(dataChanged, 0); w == "" {
		succs = append(succs, succ[S]{state: t, maxSeq: m.nd.maxSeq, desc: m.desc + "  =>  DataChanged(" + m.name + ")", consume: true})
		why = ""
	}
	return succs, why
}

// notified is the model's step of a client woken by a watch (the lock's
// PredecessorGone, the semaphore's LeasesChanged); when it is not enabled
// because the client still waits, the reason is that no notification came.
func (m *eventMatch[S]) notified() ([]succ[S], string) {
	t, why := m.do(m.ev.Action, 0)
	if why != "" {
		if m.pc == "wait" {
			why += ": no notification for this request has been delivered"
		}
		return nil, why
	}
	return m.one(t, m.nd.maxSeq, m.label)
}

// GrantOnHeadGone: the model's step, which needs the notification of the
// target itself (not of an older watch of the request: its second, or an
// earlier target) and a watched node that was the only blocker at the
// listing that chose it (soleBlocker; for a writer of the read/write lock,
// a read node).
func (m *eventMatch[S]) GrantOnHeadGone() ([]succ[S], string) {
	if prev := m.se.lt.prevTarget[m.c][m.nd.pos[m.c]]; m.ev.Target != "" && prev != m.ev.Target {
		return nil, fmt.Sprintf("the client takes the notification of %s as its grant, but chose %q at its last listing", m.ev.Target, prev)
	}
	t, why := m.do(m.ev.Action, 0)
	if why != "" {
		if m.pc == "wait" && strings.Contains(why, "inbox") {
			why += ": no notification for this request has been delivered"
		}
		return nil, why
	}
	return m.one(t, m.nd.maxSeq, m.label)
}

// Rearm: the marking waiter's getData on its target again after
// MarkSeen, which finds it where the model has it (armed: wait again) or
// gone (the target marked and left: the grant).
func (m *eventMatch[S]) Rearm() ([]succ[S], string) {
	ev := m.ev
	if prev := m.se.lt.prevTarget[m.c][m.nd.pos[m.c]]; ev.Target != "" && prev != ev.Target {
		return nil, fmt.Sprintf("the client re-arms on %s but chose %q at its last listing", ev.Target, prev)
	}
	t, why := m.do(ev.Action, 0)
	if why != "" {
		return nil, why
	}
	switch got := m.se.a.pc(&t, m.c); {
	case ev.Result == traceevent.ResultExists && got == "wait":
		return m.one(t, m.nd.maxSeq, m.label+" -> watch armed")
	case ev.Result == traceevent.ResultGone && got == "grant":
		return m.one(t, m.nd.maxSeq, m.label+" -> NoNode: the grant")
	case got == "wait":
		return nil, fmt.Sprintf("the client found %s gone; in the model it exists", ev.Target)
	default:
		return nil, fmt.Sprintf("the client set a watch on %s; in the model it is gone", ev.Target)
	}
}

// Grant: the model's step.
func (m *eventMatch[S]) Grant() ([]succ[S], string) {
	return m.step()
}

// Release (and ReleaseLease): from hold; see deleteOwnNode.
func (m *eventMatch[S]) Release() ([]succ[S], string) {
	return m.deleteOwnNode(m.pc == "hold")
}

// Cancel: from any pc between the request and the grant; see deleteOwnNode.
// A Cancel with a result was made after the client's session had ended
// (the result says how): it deleted nothing, and its nodes stay until the
// server's ExpireSession, which may come later.
func (m *eventMatch[S]) Cancel() ([]succ[S], string) {
	return m.cancel(m.pc != "idle" && m.pc != "hold")
}

// cancel matches a Cancel or CancelAcquire made from a pc where the client
// may cancel (fromPC): with a result, after its session ended (nothing);
// otherwise deleteOwnNode.
func (m *eventMatch[S]) cancel(fromPC bool) ([]succ[S], string) {
	if m.ev.Result != "" {
		if !fromPC {
			return nil, fmt.Sprintf("%s: in the model pc[%s] = %q", m.ev.Action, m.name, m.pc)
		}
		return m.one(*m.s, m.nd.maxSeq, "(nothing: the session had ended; its nodes go with it)")
	}
	return m.deleteOwnNode(fromPC)
}

// deleteOwnNode matches Release or Cancel, which end the request and
// delete the client's node. While the session lives it is the model's step,
// which leaves the delete pending (AsyncDelete). A delete the client saw
// confirmed (the event has its end, or the delete's own zxid) landed at
// the event: DeleteLands follows at once. One never confirmed lands when an
// event observes the node gone (the search inserts DeleteLands then), or
// never: the session's expiry removes the node instead. Once the session
// is gone the delete fails (SESSIONEXPIRED) or finds nothing, since the
// server deleted the node with the session: no step, but only from a pc
// where the client may call it (fromPC).
func (m *eventMatch[S]) deleteOwnNode(fromPC bool) ([]succ[S], string) {
	if m.se.a.live(m.s, m.c) {
		t, why := m.do(m.ev.Action, 0)
		if why != "" {
			return nil, why
		}
		r := m.se.lt.requestNo(m.c, m.ev.Request)
		if !confirmed(m.ev) || !m.se.a.pendingDelete(&t, m.c, r) {
			return m.one(t, m.nd.maxSeq, m.label)
		}
		var u S
		if g := m.se.a.step(&t, traceevent.DeleteLands, m.c, r, &u); g != "" {
			return nil, fmt.Sprintf("DeleteLands(%s) is not enabled: %s", m.name, g)
		}
		return m.one(u, m.nd.maxSeq, m.label+", DeleteLands (confirmed)")
	}
	if !fromPC {
		return nil, fmt.Sprintf("%s: in the model pc[%s] = %q", m.ev.Action, m.name, m.pc)
	}
	return m.one(*m.s, m.nd.maxSeq, "(nothing: the session is gone, so is the node)")
}

// nodeKind is the kind of the client's own node: the request's, or a
// semaphore's lease (its events carry no kind).
func (m *eventMatch[S]) nodeKind() string {
	if m.se.lt.spec == "Semaphore" || m.se.lt.spec == "SemaphoreForeign" {
		return "lease"
	}
	return m.ev.Kind
}

// sameChildren compares a listing with the model's nodes: the same nodes
// (by request and kind) in the same order.
func (se *searcher[S]) sameChildren(s *S, ev *Event) string {
	var listed []nodeName
	for _, ch := range ev.Children {
		if n, ok, err := parseNode(ch); ok && err == nil {
			listed = append(listed, n)
		}
	}
	sort.Slice(listed, func(i, j int) bool { return listed[i].seq < listed[j].seq })
	nodes := se.a.nodes(s)
	same := len(listed) == len(nodes)
	for i := 0; same && i < len(nodes); i++ {
		same = listed[i].uuid == se.lt.reqUuid[nodes[i].c][nodes[i].r-1] && listed[i].kind == nodes[i].kind
	}
	if same {
		return ""
	}
	var model []string
	for _, n := range nodes {
		model = append(model, se.lt.nameOf(n))
	}
	return fmt.Sprintf("the listing shows [%s]; the model's nodes are [%s]",
		strings.Join(ev.Children, " "), strings.Join(model, " "))
}

// orderReason explains why request uuid's node cannot be created now.
func (se *searcher[S]) orderReason(nd *searchNode[S], uuid string) string {
	seq, _ := se.lt.realSeq(uuid)
	return fmt.Sprintf("the node of request %s has sequence number %d, but a node with %d was created before it", uuid, seq, nd.maxSeq)
}

// ownName checks that a node name the client reports as its own carries
// its request's uuid and the expected kind.
func ownName(ev *Event, name, kind string) string {
	n, ok, err := parseNode(name)
	switch {
	case !ok || err != nil:
		return fmt.Sprintf("%s reports %q as its node: not a lock node name", ev.Action, name)
	case n.uuid != ev.Request:
		return fmt.Sprintf("%s reports node %s, which carries request %s, not %s", ev.Action, name, n.uuid, ev.Request)
	case n.kind != kind:
		return fmt.Sprintf("%s reports node %s of kind %s for a %s request", ev.Action, name, n.kind, kind)
	}
	return ""
}

// confirmed reports whether a Release or Cancel saw its delete's outcome:
// it has an end, or the delete's own zxid.
func confirmed(ev *Event) bool { return ev.End != nil || ev.Zxid != 0 }
