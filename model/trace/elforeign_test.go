package trace

import (
	"strings"
	"testing"

	"github.com/zklock/zklock/traceevent"
)

// elecOperatorTrace is an election at /e with an outsider, written by hand
// as impl/zklock traces it: c1 leads (node 0) and proclaims (its own
// watch fires and is armed again); c2, behind it, is woken by the
// proclaim, lists again and waits again; the outsider (the client
// traceevent.EnvClient) deletes c1's node; c1's leadership ends on its
// own-node watch (LearnNodeGone), c2 takes the hand-off (its sole blocker
// deleted), leads, proclaims and resigns, and c1 campaigns again and
// leads. The observer o1 reports c1, is woken by the deletion and reports
// c2. Zxids: creates 10, 11, 16; c1's proclaim 12; the outsider's delete
// 13; c2's proclaim 14, its delete 15.
const elecOperatorTrace = `
{"client":"c1","lock":"/e","action":"RequestLock","request":"u1","kind":"exclusive","start":100,"end":100}
{"client":"c1","lock":"/e","action":"CreateOk","request":"u1","kind":"exclusive","node":"_c_u1-lock-0000000000","start":110,"end":120,"zxid":10}
{"client":"c1","lock":"/e","action":"ListChildren","request":"u1","kind":"exclusive","result":"grant","children":["_c_u1-lock-0000000000"],"start":121,"end":130,"zxid":10}
{"client":"c1","lock":"/e","action":"Grant","request":"u1","kind":"exclusive","token":10,"start":131,"end":132}
{"client":"o1","lock":"/e","action":"ObserveList","request":"ob","result":"found","target":"_c_u1-lock-0000000000","start":133,"end":134,"zxid":10}
{"client":"o1","lock":"/e","action":"ObserveWatch","request":"ob","result":"exists","target":"_c_u1-lock-0000000000","version":0,"start":135,"end":136,"zxid_low":10}
{"client":"c2","lock":"/e","action":"RequestLock","request":"u2","kind":"exclusive","start":140,"end":140}
{"client":"c2","lock":"/e","action":"CreateOk","request":"u2","kind":"exclusive","node":"_c_u2-lock-0000000001","start":141,"end":150,"zxid":11}
{"client":"c2","lock":"/e","action":"ListChildren","request":"u2","kind":"exclusive","result":"wait","target":"_c_u1-lock-0000000000","children":["_c_u1-lock-0000000000","_c_u2-lock-0000000001"],"start":151,"end":160,"zxid":11}
{"client":"c2","lock":"/e","action":"WatchPredecessor","request":"u2","kind":"exclusive","result":"exists","target":"_c_u1-lock-0000000000","start":161,"end":170}
{"client":"c1","lock":"/e","action":"Proclaim","request":"u1","kind":"exclusive","result":"ok","node":"_c_u1-lock-0000000000","version":1,"start":180,"end":190,"zxid":12}
{"client":"o1","lock":"/e","action":"ObserveNotified","request":"ob","target":"_c_u1-lock-0000000000","start":191,"end":191}
{"client":"c2","lock":"/e","action":"PredecessorGone","request":"u2","kind":"exclusive","start":192,"end":192}
{"client":"c2","lock":"/e","action":"ListChildren","request":"u2","kind":"exclusive","result":"wait","target":"_c_u1-lock-0000000000","children":["_c_u1-lock-0000000000","_c_u2-lock-0000000001"],"start":193,"end":200,"zxid":12}
{"client":"c2","lock":"/e","action":"WatchPredecessor","request":"u2","kind":"exclusive","result":"exists","target":"_c_u1-lock-0000000000","start":201,"end":210}
{"client":"o1","lock":"/e","action":"ObserveList","request":"ob","result":"found","target":"_c_u1-lock-0000000000","start":202,"end":203,"zxid":12}
{"client":"o1","lock":"/e","action":"ObserveWatch","request":"ob","result":"exists","target":"_c_u1-lock-0000000000","version":1,"start":204,"end":205,"zxid_low":12}
{"client":"env","lock":"/e","action":"ForeignDelete","node":"_c_u1-lock-0000000000","start":220,"end":230}
{"client":"c1","lock":"/e","action":"LearnNodeGone","request":"u1","kind":"exclusive","node":"_c_u1-lock-0000000000","start":231,"end":231}
{"client":"o1","lock":"/e","action":"ObserveNotified","request":"ob","target":"_c_u1-lock-0000000000","start":231,"end":231}
{"client":"c2","lock":"/e","action":"GrantOnHeadGone","request":"u2","kind":"exclusive","target":"_c_u1-lock-0000000000","start":232,"end":232}
{"client":"c2","lock":"/e","action":"Grant","request":"u2","kind":"exclusive","token":11,"start":233,"end":234}
{"client":"o1","lock":"/e","action":"ObserveList","request":"ob","result":"found","target":"_c_u2-lock-0000000001","start":235,"end":236,"zxid":13}
{"client":"o1","lock":"/e","action":"ObserveWatch","request":"ob","result":"exists","target":"_c_u2-lock-0000000001","version":0,"start":237,"end":238,"zxid_low":13}
{"client":"c2","lock":"/e","action":"Proclaim","request":"u2","kind":"exclusive","result":"ok","node":"_c_u2-lock-0000000001","version":1,"start":240,"end":250,"zxid":14}
{"client":"c2","lock":"/e","action":"Release","request":"u2","kind":"exclusive","node":"_c_u2-lock-0000000001","start":260,"end":270,"zxid":15}
{"client":"c1","lock":"/e","action":"RequestLock","request":"u3","kind":"exclusive","start":280,"end":280}
{"client":"c1","lock":"/e","action":"CreateOk","request":"u3","kind":"exclusive","node":"_c_u3-lock-0000000002","start":281,"end":290,"zxid":16}
{"client":"c1","lock":"/e","action":"ListChildren","request":"u3","kind":"exclusive","result":"grant","children":["_c_u3-lock-0000000002"],"start":291,"end":300,"zxid":16}
{"client":"c1","lock":"/e","action":"Grant","request":"u3","kind":"exclusive","token":16,"start":301,"end":302}
`

// line returns the line of text that contains s.
func line(text, s string) string {
	i := strings.Index(text, s)
	start := strings.LastIndex(text[:i], "\n") + 1
	return text[start : i+strings.Index(text[i:], "\n")+1]
}

// The outsider's delete of the leader's node and the leader's
// LearnNodeGone are steps of ElectionForeign; a leader that never learns
// its node went (its LearnNodeGone removed) is rejected when it campaigns
// again, and one that learns it with no outsider's step is rejected at
// that step.
func TestOperatorElectionTrace(t *testing.T) {
	if traceevent.EnvClient != "env" {
		t.Fatalf("the trace names the outsider env, traceevent.EnvClient is %q", traceevent.EnvClient)
	}
	gone := line(elecOperatorTrace, `"action":"LearnNodeGone"`)
	outsider := line(elecOperatorTrace, `"action":"ForeignDelete"`)
	wantValidUnlessCorrupted(t, elecOperatorTrace, "ElectionForeign", []corruption{
		{name: "no LearnNodeGone", old: gone, repl: "", client: "c1", action: traceevent.RequestLock, why: `pc[c1] = "idle"`},
		{name: "no outsider", old: outsider, repl: "", client: "c1", action: traceevent.LearnNodeGone, why: "OwnEvent"},
	})
}

// A leader that resigns after the outsider deleted its node, before its
// own-node watch told it: its Release finds no node and ends the
// leadership as LearnNodeGone does. Its control: the same leadership then
// also reporting LearnNodeGone, one that ended twice.
func TestOperatorThenResign(t *testing.T) {
	gone := line(elecOperatorTrace, `"action":"LearnNodeGone"`)
	release := strings.Replace(gone, `"LearnNodeGone"`, `"Release"`, 1)
	text := strings.Replace(elecOperatorTrace, gone, release, 1)
	wantValidUnlessCorrupted(t, text, "ElectionForeign", []corruption{
		{name: "ended twice", old: release, repl: release + gone, client: "c1", action: traceevent.LearnNodeGone, why: ""},
	})
}
