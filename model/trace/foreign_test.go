package trace

import (
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zklock/zklock/traceevent"
)

// operatorTrace is a hand-written trace of one Mutex path with an
// outsider: c1 holds its node A, c2 waits on A, the outsider (the client
// traceevent.EnvClient) deletes A or replaces it (kind), c2 is granted on
// the deletion's event, c1's lease ends on its own-node watch
// (LearnNodeGone) and c1 locks again once c2 has released (and, after a
// replacement, the outsider's session has closed, deleting its node).
func operatorTrace(kind traceevent.Action) string {
	req := func(i int) string { return fmt.Sprintf("00000000-0000-4000-8000-00000000000%d", i) }
	node := func(i, seq int) string { return NodeName(req(i), "exclusive", int64(seq)) }
	a, b, c := node(1, 0), node(2, 1), node(3, 2)
	var lines []string
	ev := func(client, action string, r int, extra string, start, end int) {
		rq := ""
		if r > 0 {
			rq = fmt.Sprintf(`"request": %q, "kind": "exclusive", `, req(r))
		}
		lines = append(lines, fmt.Sprintf(`{"client": %q, "lock": "/l", "action": %q, %s%s"start": %d, "end": %d}`,
			client, action, rq, extra, start, end))
	}
	ev("c1", "RequestLock", 1, "", 1, 1)
	ev("c1", "CreateOk", 1, fmt.Sprintf(`"node": %q, "zxid": 10, `, a), 2, 3)
	ev("c1", "ListChildren", 1, fmt.Sprintf(`"node": %q, "result": "grant", "children": [%q], "zxid": 10, `, a, a), 4, 5)
	ev("c1", "Grant", 1, fmt.Sprintf(`"node": %q, `, a), 5, 5)
	ev("c2", "RequestLock", 2, "", 6, 6)
	ev("c2", "CreateOk", 2, fmt.Sprintf(`"node": %q, "zxid": 11, `, b), 7, 8)
	ev("c2", "ListChildren", 2, fmt.Sprintf(`"node": %q, "result": "wait", "target": %q, "children": [%q, %q], "zxid": 11, `, b, a, a, b), 9, 10)
	ev("c2", "WatchPredecessor", 2, fmt.Sprintf(`"node": %q, "result": "exists", "target": %q, "zxid_low": 11, "zxid_high": 11, `, b, a), 11, 12)
	ev(traceevent.EnvClient, string(kind), 0, fmt.Sprintf(`"node": %q, `, a), 15, 16)
	ev("c1", "LearnNodeGone", 1, fmt.Sprintf(`"node": %q, `, a), 20, 20)
	ev("c2", "GrantOnHeadGone", 2, fmt.Sprintf(`"node": %q, "target": %q, `, b, a), 21, 21)
	ev("c2", "Grant", 2, fmt.Sprintf(`"node": %q, `, b), 21, 21)
	ev("c2", "Release", 2, fmt.Sprintf(`"node": %q, `, b), 30, 31)
	if kind == traceevent.ForeignReplace {
		ev(traceevent.EnvClient, "ForeignDelete", 0, fmt.Sprintf(`"node": %q, `, a), 32, 33)
	}
	ev("c1", "RequestLock", 3, "", 40, 40)
	ev("c1", "CreateOk", 3, fmt.Sprintf(`"node": %q, `, c), 41, 42)
	ev("c1", "ListChildren", 3, fmt.Sprintf(`"node": %q, "result": "grant", "children": [%q], `, c, c), 43, 44)
	ev("c1", "Grant", 3, fmt.Sprintf(`"node": %q, `, c), 45, 45)
	ev("c1", "Release", 3, fmt.Sprintf(`"node": %q, `, c), 46, 47)
	return strings.Join(lines, "\n") + "\n"
}

// A holder that unlocks after the outsider deleted its node, before its
// own-node watch told it (Unlock does not wait for the watch): its
// Release finds no node and ends the lease as LearnNodeGone does. Its
// control: the same lease then also reporting LearnNodeGone, a lease that
// ended twice.
func TestOperatorThenUnlock(t *testing.T) {
	text := operatorTrace(traceevent.ForeignDelete)
	gone := text[strings.Index(text, `{"client": "c1", "lock": "/l", "action": "LearnNodeGone"`):]
	gone = gone[:strings.Index(gone, "\n")+1]
	release := strings.Replace(gone, `"LearnNodeGone"`, `"Release"`, 1)
	text = strings.Replace(text, gone, release, 1)
	wantValidUnlessCorrupted(t, text, "PredecessorLockForeign", []corruption{
		{name: "ended twice", old: release, repl: release + gone, client: "c1", action: traceevent.LearnNodeGone, why: ""},
	})
}

// An outsider's delete or replacement of a holder's node, and the
// holder's LearnNodeGone, are steps of PredecessorLockForeign; a holder
// that never learns its node went (its LearnNodeGone removed) is rejected
// when it locks again, and so is a waiter granted on a node no one deleted.
func TestOperatorTraces(t *testing.T) {
	for _, kind := range []traceevent.Action{traceevent.ForeignDelete, traceevent.ForeignReplace} {
		t.Run(string(kind), func(t *testing.T) {
			text := operatorTrace(kind)
			gone := text[strings.Index(text, `{"client": "c1", "lock": "/l", "action": "LearnNodeGone"`):]
			gone = gone[:strings.Index(gone, "\n")+1]
			outsider := text[strings.Index(text, `{"client": "env", "lock": "/l", "action": "`+string(kind)):]
			outsider = outsider[:strings.Index(outsider, "\n")+1]
			wantValidUnlessCorrupted(t, text, "PredecessorLockForeign", []corruption{
				{name: "no LearnNodeGone", old: gone, repl: "", client: "c1", action: traceevent.RequestLock, why: `pc[c1] = "idle"`},
				{name: "no outsider", old: outsider, repl: "", client: "c1", action: traceevent.LearnNodeGone, why: "OwnEvent"},
			})
		})
	}
}

// A whole 25-second chaos campaign with an operator (`--faults
// operator-delete,operator-replace --idle-hold 5s`, 3 paths, 221 events, 11
// of them the operator's): valid; without the holders' LearnNodeGone
// events, rejected at a holder's next RequestLock.
func TestChaosTraceOperator(t *testing.T) {
	validGzipTrace(t, "chaos_operator.jsonl.gz")
	f, err := os.Open(filepath.Join("testdata", "chaos_operator.jsonl.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	evs, err := Read(zr)
	if err != nil {
		t.Fatal(err)
	}
	var without []Event
	for _, e := range evs {
		if e.Action != traceevent.LearnNodeGone {
			without = append(without, e)
		}
	}
	if len(without) == len(evs) {
		t.Fatal("the campaign's trace has no LearnNodeGone")
	}
	rep, err := Validate(without, Options{Budget: 100_000})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != Invalid {
		t.Fatalf("without LearnNodeGone: %s", rep.Verdict)
	}
	for _, l := range rep.Locks {
		if d := l.Divergence; l.Verdict == Invalid && (d.Event.Action != traceevent.RequestLock || !strings.Contains(d.Reason, `= "hold"`)) {
			t.Fatalf("diverges at %s: %s", d.Event.String(), d.Reason)
		}
	}
}
