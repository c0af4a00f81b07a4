package trace

import (
	"fmt"
	"sort"
	"strings"

	"github.com/zklock/zklock/traceevent"
)

// match returns the ways client c's event ev can be matched in nd's state
// (each consumes the event), or why it cannot. The mapping of each event
// to the model is documented in the package README (model/trace/README.md).
func (se *searcher[S]) match(nd *searchNode[S], c int, ev *Event) ([]succ[S], string) {
	s := &nd.state
	name := se.lt.clients[c]
	label := string(ev.Action) + "(" + name + ")"
	desc := fmt.Sprintf("line %d: %s %s", ev.Line, name, ev.Action)
	if ev.Result != "" {
		desc += " " + string(ev.Result)
	}
	one := func(t S, maxSeq int64, model string) ([]succ[S], string) {
		return []succ[S]{{state: t, maxSeq: maxSeq, desc: desc + "  =>  " + model, consume: true}}, ""
	}
	// do takes the named model step, or says why it is not enabled.
	do := func(action traceevent.Action, arg int) (S, string) {
		var t S
		if g := se.a.step(s, action, c, arg, &t); g != "" {
			guard := strings.NewReplacer("[c]", "["+name+"]", "(c)", "("+name+")").Replace(string(g))
			return t, fmt.Sprintf("%s(%s) is not enabled: %s is false (pc[%s] = %q)", action, name, guard, name, se.a.pc(s, c))
		}
		return t, ""
	}
	pc := se.a.pc(s, c)

	switch ev.Action {
	case traceevent.RequestLock:
		arg, err := se.a.kindArg(ev.Kind)
		if err != nil {
			return nil, err.Error()
		}
		t, why := do("RequestLock", arg)
		if why != "" {
			return nil, why
		}
		return one(t, nd.maxSeq, label)

	case traceevent.CreateOk:
		if why := ownName(ev, ev.Node, ev.Kind); why != "" {
			return nil, why
		}
		t, why := do("CreateOk", 0)
		if why != "" {
			return nil, why
		}
		max, ok := se.created(nd, c, ev.Request)
		if !ok {
			return nil, se.orderReason(nd, ev.Request)
		}
		return one(t, max, label)

	case traceevent.CreateReplyLost:
		// The reply was lost: the create may or may not have happened.
		var out []succ[S]
		t, why := do("CreateReplyLost", 0)
		if why == "" {
			if max, ok := se.created(nd, c, ev.Request); ok {
				out = append(out, succ[S]{state: t, maxSeq: max, consume: true,
					desc: desc + "  =>  " + label + " (the create happened)"})
			} else {
				why = se.orderReason(nd, ev.Request)
			}
		}
		if pc == "create" {
			out = append(out, succ[S]{state: *s, maxSeq: nd.maxSeq, consume: true,
				desc: desc + "  =>  (nothing: the create never reached the server)"})
		}
		if len(out) == 0 {
			return nil, why
		}
		return out, ""

	case traceevent.FindOwnNode:
		switch ev.Result {
		case traceevent.ResultFound:
			if why := ownName(ev, ev.Target, ev.Kind); why != "" {
				return nil, why
			}
			t, why := do("FindOwnNode", 0)
			if why != "" {
				return nil, why
			}
			if se.a.pc(&t, c) != "list" {
				return nil, fmt.Sprintf("FindOwnNode(%s) finds no node of request %s owned by its session in the model", name, ev.Request)
			}
			return one(t, nd.maxSeq, label+" (found)")
		case traceevent.ResultAbsent:
			if pc != "create" {
				return nil, fmt.Sprintf("FindOwnNode found nothing, but in the model the lost create happened (pc[%s] = %q): the node exists", name, pc)
			}
			return one(*s, nd.maxSeq, "(nothing: the create never reached the server, the client creates again)")
		}
		return nil, fmt.Sprintf("FindOwnNode result %q: want found or absent", ev.Result)

	case traceevent.ListChildren:
		if why := se.sameChildren(s, ev); why != "" {
			return nil, why
		}
		if ev.Result == traceevent.ResultMissing {
			if pc != "list" || se.a.ownNodeExists(s, c) {
				return nil, fmt.Sprintf("the listing misses %s's own node, but in the model it exists (pc[%s] = %q, Live = %v)",
					name, name, pc, se.a.live(s, c))
			}
			return one(*s, nd.maxSeq, "(observation: the session is gone; the client learns it with LearnExpiry)")
		}
		t, why := do("ListChildren", 0)
		if why != "" {
			return nil, why
		}
		switch got := se.a.pc(&t, c); {
		case ev.Result == traceevent.ResultGrant && got == "grant":
			return one(t, nd.maxSeq, label+" -> grant")
		case ev.Result == traceevent.ResultWait && got == "watch":
			tg, _ := se.a.target(&t, c)
			if w := se.lt.nameOf(tg); !se.lt.sameNode(ev.Target, tg) {
				return nil, fmt.Sprintf("the client waits for %s, the model for %s", ev.Target, w)
			}
			return one(t, nd.maxSeq, label+" -> watch "+ev.Target)
		case got == "grant":
			return nil, fmt.Sprintf("the client's listing says %q; in the model no node it must wait for is ahead of it: it goes on to Grant", ev.Result)
		default:
			tg, _ := se.a.target(&t, c)
			return nil, fmt.Sprintf("the client's listing says %q; in the model it must wait for %s", ev.Result, se.lt.nameOf(tg))
		}

	case traceevent.WatchPredecessor:
		if prev := se.lt.prevTarget[c][nd.pos[c]]; prev != ev.Target {
			return nil, fmt.Sprintf("the client watches %s but chose %q at its last listing", ev.Target, prev)
		}
		t, why := do("WatchPredecessor", 0)
		if why != "" {
			return nil, why
		}
		switch got := se.a.pc(&t, c); {
		case ev.Result == traceevent.ResultExists && got == "wait":
			return one(t, nd.maxSeq, label+" -> watch armed")
		case ev.Result == traceevent.ResultGone && got == "list":
			return one(t, nd.maxSeq, label+" -> NoNode, list again")
		case got == "wait":
			return nil, fmt.Sprintf("the client found %s gone; in the model it exists", ev.Target)
		default:
			return nil, fmt.Sprintf("the client set a watch on %s; in the model it is gone", ev.Target)
		}

	case traceevent.LearnExpiry:
		// Even "expired" may come before the model's ExpireSession: a
		// server tells a reconnecting client its session expired as soon
		// as the leader has dropped it, while the closeSession transaction
		// that deletes its nodes commits later (other clients still list
		// them). The expiry is inserted when an event observes it.
		t, why := do(ev.Action, 0)
		if why != "" {
			return nil, why
		}
		return one(t, nd.maxSeq, label)

	case traceevent.Downgrade:
		if why := ownName(ev, ev.Node, "read"); why != "" {
			return nil, why
		}
		t, why := do(ev.Action, 0)
		if why != "" {
			return nil, why
		}
		return one(t, nd.maxSeq, label)

	case traceevent.PredecessorGone, traceevent.Grant:
		t, why := do(ev.Action, 0)
		if why != "" {
			if ev.Action == traceevent.PredecessorGone && pc == "wait" {
				why += ": no notification for this request has been delivered"
			}
			return nil, why
		}
		return one(t, nd.maxSeq, label)

	case traceevent.Release, traceevent.Cancel:
		if ev.Action == traceevent.Cancel && ev.Result != "" {
			// The client's session had ended when it cancelled (the
			// result says how): it deleted nothing, and its nodes stay
			// until the server's ExpireSession, which may come later.
			if pc == "idle" || pc == "hold" {
				return nil, fmt.Sprintf("%s: in the model pc[%s] = %q", ev.Action, name, pc)
			}
			return one(*s, nd.maxSeq, "(nothing: the session had ended; its nodes go with it)")
		}
		if se.a.live(s, c) {
			t, why := do(ev.Action, 0)
			if why != "" {
				return nil, why
			}
			return one(t, nd.maxSeq, label)
		}
		// The session is gone: the delete fails (SESSIONEXPIRED) or finds
		// nothing; the server deleted the node with the session.
		if ev.Action == traceevent.Release && pc != "hold" || ev.Action == traceevent.Cancel && (pc == "idle" || pc == "hold") {
			return nil, fmt.Sprintf("%s: in the model pc[%s] = %q", ev.Action, name, pc)
		}
		return one(*s, nd.maxSeq, "(nothing: the session is gone, so is the node)")
	}
	return nil, fmt.Sprintf("unknown action %s", ev.Action)
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
