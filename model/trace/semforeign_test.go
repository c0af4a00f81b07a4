package trace

import (
	"fmt"
	"strings"
	"testing"

	"github.com/zklock/zklock/traceevent"
)

// semOperatorTrace is a hand-written trace of one semaphore of max 2 at
// /s with an outsider: c1 and c2 hold; c3 waits with three lease nodes
// listed; the outsider (the client traceevent.EnvClient) deletes c1's
// lease node, or replaces it (kind) and deletes the replacement later;
// the deletion wakes c3, which holds once two leases are listed; c1's
// lease ends on its own-node watch (LearnNodeGone), and c1 acquires
// again once c2 has released. Zxids: creates 10, 11, 12, 17; c1's node
// deleted at 13 (replaced at 14, the replacement deleted at 15); c2's
// release 16, the others' 18 and 19.
func semOperatorTrace(kind traceevent.Action) string {
	node := func(r int) string { return fmt.Sprintf("_c_u%d-lease-%010d", r, r-1) }
	n1, n2, n3, n4 := node(1), node(2), node(3), node(4)
	var lines []string
	ev := func(client, action string, r int, extra string, start, end int) {
		rq := ""
		if r > 0 {
			rq = fmt.Sprintf(`"request":"u%d",`, r)
		}
		lines = append(lines, fmt.Sprintf(`{"client":%q,"lock":"/s","action":%q,%s%s"start":%d,"end":%d}`,
			client, action, rq, extra, start, end))
	}
	list := func(client string, r int, result string, zxid, start int, children ...string) {
		ev(client, "ListLeases", r, fmt.Sprintf(`"result":%q,"children":["%s"],"max":2,"zxid":%d,`,
			result, strings.Join(children, `","`), zxid), start, start+1)
	}
	acquire := func(client string, r, zxid, start int, children ...string) {
		ev(client, "AcquireInternal", r, "", start, start)
		ev(client, "CreateLease", r, fmt.Sprintf(`"node":%q,"zxid":%d,`, node(r), zxid), start+1, start+2)
		if len(children) <= 2 {
			list(client, r, "held", zxid, start+3, children...)
			ev(client, "ReleaseInternal", r, "", start+5, start+6)
		} else {
			list(client, r, "wait", zxid, start+3, children...)
		}
	}
	acquire("c1", 1, 10, 100, n1)
	acquire("c2", 2, 11, 110, n1, n2)
	acquire("c3", 3, 12, 120, n1, n2, n3)
	ev(traceevent.EnvClient, string(kind), 0, fmt.Sprintf(`"node":%q,`, n1), 130, 131)
	ev("c3", "LeasesChanged", 3, "", 135, 135)
	zxid := 13
	if kind == traceevent.ForeignReplace {
		list("c3", 3, "wait", 14, 136, n1, n2, n3)
		ev(traceevent.EnvClient, "ForeignDelete", 0, fmt.Sprintf(`"node":%q,`, n1), 138, 139)
		ev("c3", "LeasesChanged", 3, "", 140, 140)
		zxid = 15
	}
	list("c3", 3, "held", zxid, 141, n2, n3)
	ev("c3", "ReleaseInternal", 3, "", 143, 144)
	ev("c1", "LearnNodeGone", 1, fmt.Sprintf(`"node":%q,`, n1), 145, 145)
	ev("c2", "ReleaseLease", 2, fmt.Sprintf(`"node":%q,"zxid":%d,`, n2, zxid+1), 150, 151)
	acquire("c1", 4, zxid+2, 160, n3, n4)
	ev("c1", "ReleaseLease", 4, fmt.Sprintf(`"node":%q,"zxid":%d,`, n4, zxid+3), 170, 171)
	ev("c3", "ReleaseLease", 3, fmt.Sprintf(`"node":%q,"zxid":%d,`, n3, zxid+4), 172, 173)
	return strings.Join(lines, "\n") + "\n"
}

// lineOf returns the line of text that starts with prefix.
func lineOf(text, prefix string) string {
	l := text[strings.Index(text, prefix):]
	return l[:strings.Index(l, "\n")+1]
}

// An outsider's delete or replacement of a holder's lease node, and the
// holder's LearnNodeGone, are steps of SemaphoreForeign; a holder that
// never learns its node went (its LearnNodeGone removed) is rejected when
// it learns it before the outsider's step, and a waiter woken with no
// outsider's step is rejected at its wake-up.
func TestOperatorSemaphoreTraces(t *testing.T) {
	for _, kind := range []traceevent.Action{traceevent.ForeignDelete, traceevent.ForeignReplace} {
		t.Run(string(kind), func(t *testing.T) {
			text := semOperatorTrace(kind)
			gone := lineOf(text, `{"client":"c1","lock":"/s","action":"LearnNodeGone"`)
			outsider := lineOf(text, `{"client":"env","lock":"/s","action":"`+string(kind))
			wantValidUnlessCorrupted(t, text, "SemaphoreForeign", []corruption{
				{name: "no outsider", old: outsider, repl: "", client: "c3", action: traceevent.LeasesChanged, why: "notification"},
			})
			t.Run("LearnNodeGone first", func(t *testing.T) {
				early := strings.Replace(gone, `"start":145,"end":145`, `"start":125,"end":125`, 1)
				moved := strings.Replace(strings.Replace(text, gone, "", 1), outsider, early+outsider, 1)
				wantInvalidAt(t, editTrace(t, moved, "", ""), "c1", traceevent.LearnNodeGone, "OwnEvent")
			})
		})
	}
}

// A holder that closes its lease after the outsider deleted its node,
// before its own-node watch told it: its ReleaseLease finds no node and
// ends the lease as LearnNodeGone does. Its control: the same lease then
// also reporting LearnNodeGone, a lease that ended twice.
func TestOperatorThenSemRelease(t *testing.T) {
	text := semOperatorTrace(traceevent.ForeignDelete)
	gone := lineOf(text, `{"client":"c1","lock":"/s","action":"LearnNodeGone"`)
	release := strings.Replace(gone, `"LearnNodeGone"`, `"ReleaseLease"`, 1)
	text = strings.Replace(text, gone, release, 1)
	wantValidUnlessCorrupted(t, text, "SemaphoreForeign", []corruption{
		{name: "ended twice", old: release, repl: release + gone, client: "c1", action: traceevent.LearnNodeGone, why: ""},
	})
}

// semWaiterTrace is a hand-written trace of a semaphore of max 1 at /s:
// c1 holds, c2 waits; the outsider deletes c2's lease node; the deletion
// wakes c2, whose listing misses its node: its Acquire fails with
// ErrLockLost, its clean-up (CancelAcquire) finds no node and it unlocks
// the internal mutex; c1 releases.
const semWaiterTrace = `{"client":"c1","lock":"/s","action":"AcquireInternal","request":"u1","start":100,"end":100}
{"client":"c1","lock":"/s","action":"CreateLease","request":"u1","node":"_c_u1-lease-0000000000","zxid":10,"start":101,"end":102}
{"client":"c1","lock":"/s","action":"ListLeases","request":"u1","result":"held","children":["_c_u1-lease-0000000000"],"max":1,"zxid":10,"start":103,"end":104}
{"client":"c1","lock":"/s","action":"ReleaseInternal","request":"u1","start":105,"end":106}
{"client":"c2","lock":"/s","action":"AcquireInternal","request":"u2","start":110,"end":110}
{"client":"c2","lock":"/s","action":"CreateLease","request":"u2","node":"_c_u2-lease-0000000001","zxid":11,"start":111,"end":112}
{"client":"c2","lock":"/s","action":"ListLeases","request":"u2","result":"wait","children":["_c_u1-lease-0000000000","_c_u2-lease-0000000001"],"max":1,"zxid":11,"start":113,"end":114}
{"client":"env","lock":"/s","action":"ForeignDelete","node":"_c_u2-lease-0000000001","start":120,"end":121}
{"client":"c2","lock":"/s","action":"LeasesChanged","request":"u2","start":125,"end":125}
{"client":"c2","lock":"/s","action":"ListLeases","request":"u2","result":"missing","children":["_c_u1-lease-0000000000"],"max":1,"zxid":12,"start":126,"end":127}
{"client":"c2","lock":"/s","action":"CancelAcquire","request":"u2","start":128,"end":129}
{"client":"c2","lock":"/s","action":"ReleaseInternal","request":"u2","start":130,"end":131}
{"client":"c1","lock":"/s","action":"ReleaseLease","request":"u1","node":"_c_u1-lease-0000000000","zxid":13,"start":140,"end":141}
`

// An outsider's delete of a waiter's lease node ends its acquisition
// (AcquireNodeGone, at the clean-up after the listing that misses the
// node). Its control: the same trace without the outsider's step is
// rejected at the wake-up, which nothing caused.
func TestOperatorSemaphoreWaiter(t *testing.T) {
	outsider := lineOf(semWaiterTrace, `{"client":"env"`)
	wantValidUnlessCorrupted(t, semWaiterTrace, "SemaphoreForeign", []corruption{
		{name: "no outsider", old: outsider, repl: "", client: "c2", action: traceevent.LeasesChanged, why: "notification"},
	})
}

// semWaiterReplacedTrace: as semWaiterTrace, but the outsider replaces
// c2's node: c2 goes by its node's name, so its listing shows it and it
// waits again; after c1's release it holds, and its lease ends at once
// (the arming getData finds the node another session's: LearnNodeGone).
const semWaiterReplacedTrace = `{"client":"c1","lock":"/s","action":"AcquireInternal","request":"u1","start":100,"end":100}
{"client":"c1","lock":"/s","action":"CreateLease","request":"u1","node":"_c_u1-lease-0000000000","zxid":10,"start":101,"end":102}
{"client":"c1","lock":"/s","action":"ListLeases","request":"u1","result":"held","children":["_c_u1-lease-0000000000"],"max":1,"zxid":10,"start":103,"end":104}
{"client":"c1","lock":"/s","action":"ReleaseInternal","request":"u1","start":105,"end":106}
{"client":"c2","lock":"/s","action":"AcquireInternal","request":"u2","start":110,"end":110}
{"client":"c2","lock":"/s","action":"CreateLease","request":"u2","node":"_c_u2-lease-0000000001","zxid":11,"start":111,"end":112}
{"client":"c2","lock":"/s","action":"ListLeases","request":"u2","result":"wait","children":["_c_u1-lease-0000000000","_c_u2-lease-0000000001"],"max":1,"zxid":11,"start":113,"end":114}
{"client":"env","lock":"/s","action":"ForeignReplace","node":"_c_u2-lease-0000000001","start":120,"end":121}
{"client":"c2","lock":"/s","action":"LeasesChanged","request":"u2","start":125,"end":125}
{"client":"c2","lock":"/s","action":"ListLeases","request":"u2","result":"wait","children":["_c_u1-lease-0000000000","_c_u2-lease-0000000001"],"max":1,"zxid":13,"start":126,"end":127}
{"client":"c1","lock":"/s","action":"ReleaseLease","request":"u1","node":"_c_u1-lease-0000000000","zxid":14,"start":130,"end":131}
{"client":"c2","lock":"/s","action":"LeasesChanged","request":"u2","start":135,"end":135}
{"client":"c2","lock":"/s","action":"ListLeases","request":"u2","result":"held","children":["_c_u2-lease-0000000001"],"max":1,"zxid":14,"start":136,"end":137}
{"client":"c2","lock":"/s","action":"ReleaseInternal","request":"u2","start":138,"end":139}
{"client":"c2","lock":"/s","action":"LearnNodeGone","request":"u2","node":"_c_u2-lease-0000000001","start":140,"end":140}
`

// A waiter whose node the outsider replaced holds on the replacement and
// learns at once that it is not its own. Its control: a delete in place
// of the replacement is rejected at the listing that still shows the name.
func TestOperatorSemaphoreWaiterReplaced(t *testing.T) {
	wantValidUnlessCorrupted(t, semWaiterReplacedTrace, "SemaphoreForeign", []corruption{
		{name: "deleted, not replaced", old: `"action":"ForeignReplace"`, repl: `"action":"ForeignDelete"`,
			client: "c2", action: traceevent.ListLeases, why: "the model's nodes are"},
	})
}
