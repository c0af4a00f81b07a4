package trace

import (
	"fmt"
	"strings"
	"testing"

	"github.com/zklock/zklock/traceevent"
)

// rwOperatorTrace is a hand-written trace of one RWMutex path with an
// outsider: c1 holds a read lease on its node A (with downgrade: a write
// lease, downgraded to the read node A of the same sequence number), c2
// waits to write on A, the outsider (the client traceevent.EnvClient)
// deletes A or replaces it (kind), c1's lease ends on its own-node watch
// (LearnNodeGone), c2 is granted on the deletion's event (its only
// blocker was a read node) and releases, and c1 reads again (after a
// replacement, once the outsider's session has closed, deleting its node).
func rwOperatorTrace(kind traceevent.Action, downgrade bool) string {
	req := func(i int) string { return fmt.Sprintf("00000000-0000-4000-8000-00000000000%d", i) }
	first := "read"
	if downgrade {
		first = "write"
	}
	a0 := NodeName(req(1), first, 0)
	a := NodeName(req(1), "read", 0)
	b, c := NodeName(req(2), "write", 1), NodeName(req(3), "read", 2)
	var lines []string
	ev := func(client, action string, r int, k, extra string, start, end int) {
		rq := ""
		if r > 0 {
			rq = fmt.Sprintf(`"request": %q, "kind": %q, `, req(r), k)
		}
		lines = append(lines, fmt.Sprintf(`{"client": %q, "lock": "/rw", "action": %q, %s%s"start": %d, "end": %d}`,
			client, action, rq, extra, start, end))
	}
	ev("c1", "RequestLock", 1, first, "", 1, 1)
	ev("c1", "CreateOk", 1, first, fmt.Sprintf(`"node": %q, "zxid": 10, `, a0), 2, 3)
	ev("c1", "ListChildren", 1, first, fmt.Sprintf(`"node": %q, "result": "grant", "children": [%q], "zxid": 10, `, a0, a0), 4, 5)
	ev("c1", "Grant", 1, first, fmt.Sprintf(`"node": %q, `, a0), 5, 5)
	if downgrade {
		ev("c1", "Downgrade", 1, "write", fmt.Sprintf(`"node": %q, "zxid": 11, `, a), 6, 7)
	}
	ev("c2", "RequestLock", 2, "write", "", 8, 8)
	ev("c2", "CreateOk", 2, "write", fmt.Sprintf(`"node": %q, "zxid": 12, `, b), 9, 10)
	ev("c2", "ListChildren", 2, "write", fmt.Sprintf(`"node": %q, "result": "wait", "target": %q, "children": [%q, %q], "zxid": 12, `, b, a, a, b), 11, 12)
	ev("c2", "WatchPredecessor", 2, "write", fmt.Sprintf(`"node": %q, "result": "exists", "target": %q, "zxid_low": 12, "zxid_high": 12, `, b, a), 13, 14)
	ev(traceevent.EnvClient, string(kind), 0, "", fmt.Sprintf(`"node": %q, `, a), 15, 16)
	ev("c1", "LearnNodeGone", 1, "read", fmt.Sprintf(`"node": %q, `, a), 20, 20)
	ev("c2", "GrantOnHeadGone", 2, "write", fmt.Sprintf(`"node": %q, "target": %q, `, b, a), 21, 21)
	ev("c2", "Grant", 2, "write", fmt.Sprintf(`"node": %q, `, b), 21, 21)
	ev("c2", "Release", 2, "write", fmt.Sprintf(`"node": %q, `, b), 30, 31)
	if kind == traceevent.ForeignReplace {
		ev(traceevent.EnvClient, "ForeignDelete", 0, "", fmt.Sprintf(`"node": %q, `, a), 32, 33)
	}
	ev("c1", "RequestLock", 3, "read", "", 40, 40)
	ev("c1", "CreateOk", 3, "read", fmt.Sprintf(`"node": %q, `, c), 41, 42)
	ev("c1", "ListChildren", 3, "read", fmt.Sprintf(`"node": %q, "result": "grant", "children": [%q], `, c, c), 43, 44)
	ev("c1", "Grant", 3, "read", fmt.Sprintf(`"node": %q, `, c), 45, 45)
	ev("c1", "Release", 3, "read", fmt.Sprintf(`"node": %q, `, c), 46, 47)
	return strings.Join(lines, "\n") + "\n"
}

// An outsider's delete or replacement of a reader's node (or of a
// downgraded writer's read node), and the holder's LearnNodeGone, are
// steps of SharedLockForeign; a holder that never learns its node went
// (its LearnNodeGone removed) is rejected when it locks again, and a
// holder that learns it with no outsider's step is rejected at that step.
func TestOperatorRWTraces(t *testing.T) {
	for _, downgrade := range []bool{false, true} {
		for _, kind := range []traceevent.Action{traceevent.ForeignDelete, traceevent.ForeignReplace} {
			t.Run(fmt.Sprintf("%s/downgrade=%v", kind, downgrade), func(t *testing.T) {
				text := rwOperatorTrace(kind, downgrade)
				gone := text[strings.Index(text, `{"client": "c1", "lock": "/rw", "action": "LearnNodeGone"`):]
				gone = gone[:strings.Index(gone, "\n")+1]
				outsider := text[strings.Index(text, `{"client": "env", "lock": "/rw", "action": "`+string(kind)):]
				outsider = outsider[:strings.Index(outsider, "\n")+1]
				wantValidUnlessCorrupted(t, text, "SharedLockForeign", []corruption{
					{name: "no LearnNodeGone", old: gone, repl: "", client: "c1", action: traceevent.RequestLock, why: `pc[c1] = "idle"`},
					{name: "no outsider", old: outsider, repl: "", client: "c1", action: traceevent.LearnNodeGone, why: "OwnEvent"},
				})
			})
		}
	}
}

// A reader that unlocks after the outsider deleted its node, before its
// own-node watch told it: its Release finds no node and ends the lease as
// LearnNodeGone does. Its control: the same lease then also reporting
// LearnNodeGone, a lease that ended twice.
func TestOperatorThenRUnlock(t *testing.T) {
	text := rwOperatorTrace(traceevent.ForeignDelete, false)
	gone := text[strings.Index(text, `{"client": "c1", "lock": "/rw", "action": "LearnNodeGone"`):]
	gone = gone[:strings.Index(gone, "\n")+1]
	release := strings.Replace(gone, `"LearnNodeGone"`, `"Release"`, 1)
	text = strings.Replace(text, gone, release, 1)
	wantValidUnlessCorrupted(t, text, "SharedLockForeign", []corruption{
		{name: "ended twice", old: release, repl: release + gone, client: "c1", action: traceevent.LearnNodeGone, why: ""},
	})
}
