package checker_test

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/zklock/zklock/checker"
)

// A control is a handmade history and what the checker must say about it: which
// partitions porcupine rejects and which direct checks report violations or
// expected (excused) findings. Nothing else may be reported.
type control struct {
	name    string
	h       checker.History
	verdict checker.Verdict
	illegal []string            // "model key" of partitions that must be Illegal
	violate []checker.CheckName // checks that must report a violation
	excused []checker.CheckName // checks that must report an excused finding
}

const (
	L  = "/locks/a"
	R  = "mem:/locks/a"
	ZK = "zk:/data/a"
)

var goodControls = []control{
	{
		name: "sequential hand-over with a waiter",
		h: checker.History{
			acq("A", L, 0, 10, 1),
			acq("B", L, 5, 40, 2), // waits for A
			rel("A", L, 20, 30, 1, ok),
			rel("B", L, 50, 60, 2, ok),
			leftover(L, 100),
		},
	},
	{
		name: "session expired: the lease is lost, the next holder comes after",
		h: checker.History{
			acq("A", L, 0, 10, 1),
			fault("blackhole", "s-A", 15, 110),
			lost("A", L, 10, 100, 1),
			acq("B", L, 50, 120, 2),
			rel("B", L, 130, 140, 2, ok),
		},
	},
	{
		name: "release reply lost, the delete went through",
		h: checker.History{
			acq("A", L, 0, 10, 1),
			rel("A", L, 20, 200, 1, unknown),
			acq("B", L, 15, 40, 2),
			rel("B", L, 50, 60, 2, ok),
		},
	},
	{
		name: "release reply lost, the node went with the session later",
		h: checker.History{
			acq("A", L, 0, 10, 1),
			rel("A", L, 20, 30, 1, unknown),
			acq("B", L, 15, 1000, 2),
			rel("B", L, 1010, 1020, 2, ok),
		},
	},
	{
		name: "cut-off acquire and a failed TryLock",
		h: checker.History{
			acq("A", L, 0, 10, 1),
			acqNot("C", L, 5, 50, unknown),
			acqNot("D", L, 12, 13, failed),
			rel("A", L, 20, 30, 1, ok),
			acq("B", L, 25, 40, 3),
			rel("B", L, 45, 50, 3, ok),
		},
	},
	{
		name: "write reply lost; a read shows it took effect",
		h: checker.History{
			acq("A", L, 0, 10, 1),
			write("A", R, 11, 12, 1, "a1", ok),
			write("A", R, 13, 50, 1, "a2", unknown),
			read("A", R, 60, 61, "a2"),
			rel("A", L, 70, 80, 1, ok),
		},
	},
	{
		name: "write reply lost; a read shows it did not",
		h: checker.History{
			acq("A", L, 0, 10, 1),
			write("A", R, 11, 12, 1, "a1", ok),
			write("A", R, 13, 50, 1, "a2", unknown),
			read("A", R, 60, 61, "a1"),
			rel("A", L, 70, 80, 1, ok),
		},
	},
	{
		name: "readers share, a writer waits for both",
		h: checker.History{
			acqMode("R1", L, checker.ModeRead, 0, 10, 1),
			acqMode("R2", L, checker.ModeRead, 5, 15, 2),
			acqMode("W", L, checker.ModeWrite, 8, 50, 3),
			rel("R1", L, 20, 30, 1, ok),
			rel("R2", L, 35, 40, 2, ok),
			rel("W", L, 60, 70, 3, ok),
		},
	},
	{
		name:    "frozen holder, fenced resource: overlap expected, stale write rejected",
		verdict: checker.VerdictPass,
		excused: []checker.CheckName{checker.CheckOverlap},
		h: checker.History{
			acq("A", L, 0, 10, 1),
			write("A", R, 11, 12, 1, "a1", ok),
			fault(checker.FaultPause, "A", 13, 300),
			acq("B", L, 20, 150, 2), // A's session expired at about 120
			write("B", R, 160, 170, 2, "b1", ok),
			write("A", R, 305, 306, 1, "a2", failed), // late write, fenced off
			lost("A", L, 12, 310, 1),
			rel("B", L, 200, 210, 2, ok),
		},
	},
	{
		name:    "frozen between grant and return: token order expected to break",
		excused: []checker.CheckName{checker.CheckTokenOrder},
		h: checker.History{
			acq("A", L, 0, 300, 1), // granted at about 3, expired during the pause
			fault(checker.FaultPause, "A", 5, 250),
			acq("B", L, 100, 160, 2),
			rel("B", L, 170, 180, 2, ok),
			lost("A", L, 300, 301, 1),
		},
	},
}

func init() {
	// A frozen process hosting several clients: the fault names them in clients.
	goodControls = append(goodControls, control{
		name:    "frozen process hosting the holder",
		excused: []checker.CheckName{checker.CheckOverlap},
		h: checker.History{
			acq("A", L, 0, 10, 1),
			{Kind: checker.KindFault, Fault: checker.FaultPause, Target: "worker-1", Clients: []string{"X", "A"}, Call: 13, Return: 300},
			acq("B", L, 20, 150, 2),
			lost("A", L, 12, 310, 1),
			rel("B", L, 200, 210, 2, ok),
		},
	}, control{
		name:    "everything frozen",
		excused: []checker.CheckName{checker.CheckOverlap},
		h: checker.History{
			acq("A", L, 0, 10, 1),
			fault(checker.FaultPause, checker.TargetAll, 13, 300),
			acq("B", L, 20, 150, 2),
			lost("A", L, 12, 310, 1),
			rel("B", L, 200, 210, 2, ok),
		},
	})
	// The same, but the holder takes longer than the grace period to notice after
	// waking: its loss signal is broken, and the pause no longer excuses it.
	badControls = append(badControls, control{
		name:    "loss noticed too long after the pause",
		violate: []checker.CheckName{checker.CheckOverlap},
		h: checker.History{
			acq("A", L, 0, 10, 1),
			fault(checker.FaultPause, "A", 13, 300),
			acq("B", L, 20, 150, 2),
			lost("A", L, 12, 300+int64(2*time.Second), 1),
			rel("B", L, 200, 210, 2, ok),
		},
	})
}

var badControls = []control{
	{
		name:    "double grant",
		illegal: []string{"mutex " + L},
		violate: []checker.CheckName{checker.CheckOverlap},
		h: checker.History{
			acq("A", L, 0, 10, 1),
			acq("B", L, 20, 30, 2),
			rel("A", L, 40, 50, 1, ok),
			rel("B", L, 60, 70, 2, ok),
		},
	},
	{
		name:    "double grant hidden among unknown outcomes",
		illegal: []string{"mutex " + L},
		violate: []checker.CheckName{checker.CheckOverlap},
		h: checker.History{
			acq("A", L, 0, 10, 1),
			acqNot("C", L, 5, 90, unknown),
			rel("C", L, 12, 90, 1, unknown), // A's token, wrong client
			rel("A", L, 11, 12, 7, unknown), // A's client, wrong token
			rel("D", L, 13, 90, 9, unknown),
			acqNot("E", L, 14, 15, failed),
			acq("B", L, 20, 30, 2),
			write("A", R, 15, 90, 1, "a1", unknown),
			rel("A", L, 40, 90, 1, unknown), // called after B's acquire returned
			rel("B", L, 60, 70, 2, ok),
		},
	},
	{
		name:    "zk.Lock: no loss signal, the expired holder keeps believing",
		illegal: []string{"mutex " + L},
		violate: []checker.CheckName{checker.CheckOverlap},
		h: checker.History{
			acq("A", L, 0, 10, 1),
			fault("blackhole", "s-A", 20, 140),
			acq("B", L, 50, 150, 2),
			rel("A", L, 300, 301, 1, failed), // zk: node does not exist
			rel("B", L, 400, 410, 2, ok),
		},
	},
	{
		name:    "--no-fence: a frozen holder's late write is accepted",
		illegal: []string{"register " + R},
		violate: []checker.CheckName{checker.CheckStaleWrite},
		excused: []checker.CheckName{checker.CheckOverlap},
		h: checker.History{
			acq("A", L, 0, 10, 1),
			write("A", R, 11, 12, 1, "a1", ok),
			fault(checker.FaultPause, "A", 13, 300),
			acq("B", L, 20, 150, 2),
			write("B", R, 160, 170, 2, "b1", ok),
			write("A", R, 305, 306, 1, "a2", ok), // accepted: no fence
			lost("A", L, 12, 310, 1),
			rel("B", L, 200, 210, 2, ok),
		},
	},
	{
		name:    "stale write accepted without any pause",
		illegal: []string{"register " + ZK},
		violate: []checker.CheckName{checker.CheckStaleWrite},
		h: checker.History{
			write("B", ZK, 10, 20, 5, "b", ok),
			write("A", ZK, 30, 40, 4, "a", ok),
		},
	},
	{
		name:    "token regression",
		illegal: []string{"mutex " + L},
		violate: []checker.CheckName{checker.CheckTokenOrder},
		h: checker.History{
			acq("A", L, 0, 10, 5),
			rel("A", L, 20, 30, 5, ok),
			acq("B", L, 25, 40, 3),
			rel("B", L, 50, 60, 3, ok),
		},
	},
	{
		name:    "one token granted twice",
		illegal: []string{"mutex " + L},
		violate: []checker.CheckName{checker.CheckTokenOrder},
		h: checker.History{
			acq("A", L, 0, 10, 5),
			rel("A", L, 20, 30, 5, ok),
			acq("B", L, 25, 40, 5),
			rel("B", L, 50, 60, 5, ok),
		},
	},
	{
		name:    "leftover node of a released lease",
		violate: []checker.CheckName{checker.CheckLeftover},
		h: checker.History{
			acq("A", L, 0, 10, 1),
			rel("A", L, 20, 30, 1, ok),
			leftover(L, 100, node(L, "A", 1)),
		},
	},
	{
		name:    "leftover node of a cut-off acquire",
		violate: []checker.CheckName{checker.CheckLeftover},
		h: checker.History{
			acqNot("C", L, 5, 50, unknown),
			leftover(L, 100, L+"/_c_C-lock-0000000007"),
		},
	},
	{
		name:    "reader and writer at once",
		illegal: []string{"rwmutex " + L},
		violate: []checker.CheckName{checker.CheckOverlap},
		h: checker.History{
			acqMode("R", L, checker.ModeRead, 0, 10, 1),
			acqMode("W", L, checker.ModeWrite, 5, 20, 2),
			rel("R", L, 30, 40, 1, ok),
			rel("W", L, 50, 60, 2, ok),
		},
	},
	{
		name:    "read of a value nobody wrote",
		illegal: []string{"register " + R},
		h: checker.History{
			write("A", R, 0, 10, 1, "a", ok),
			read("B", R, 20, 30, "z"),
		},
	},
	{
		name:    "holder still held after the next grant (its loss came late)",
		illegal: []string{"mutex " + L},
		violate: []checker.CheckName{checker.CheckOverlap},
		h: checker.History{
			acq("A", L, 0, 10, 1),
			acq("B", L, 20, 30, 2),
			lost("A", L, 40, 50, 1), // a guarded write still succeeded at 40
			rel("B", L, 60, 70, 2, ok),
		},
	},
	{
		name:    "overlap without a pause on the deluded holder is not excused",
		illegal: []string{"mutex " + L},
		violate: []checker.CheckName{checker.CheckOverlap},
		h: checker.History{
			acq("A", L, 0, 10, 1),
			fault(checker.FaultPause, "C", 13, 300), // someone else froze
			acq("B", L, 20, 150, 2),
			rel("A", L, 200, 201, 1, ok),
			rel("B", L, 210, 220, 2, ok),
		},
	},
}

func TestGoodControlsPass(t *testing.T) {
	for _, c := range goodControls {
		c.verdict = checker.VerdictPass
		t.Run(c.name, func(t *testing.T) { runControl(t, c) })
	}
}

func TestBadControlsFail(t *testing.T) {
	for _, c := range badControls {
		c.verdict = checker.VerdictFail
		t.Run(c.name, func(t *testing.T) { runControl(t, c) })
	}
}

func runControl(t *testing.T, c control) {
	t.Helper()
	res, err := checker.Check(c.h, checker.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var illegal []string
	for _, m := range res.Models {
		if m.Result != porcupine.Ok {
			illegal = append(illegal, m.Model+" "+m.Key)
		}
	}
	violate, excused := map[checker.CheckName]bool{}, map[checker.CheckName]bool{}
	for _, f := range res.Findings {
		if f.Violation() {
			violate[f.Check] = true
		} else {
			excused[f.Check] = true
		}
	}
	bad := res.Verdict != c.verdict || !sameSet(illegal, c.illegal) ||
		!sameSet(keys(violate), names(c.violate)) || !sameSet(keys(excused), names(c.excused))
	if bad {
		var b strings.Builder
		_ = res.WriteReport(&b)
		t.Errorf("want verdict %s, illegal %v, violations %v, excused %v; got:\n%s",
			c.verdict, c.illegal, c.violate, c.excused, b.String())
	}
}

func keys(m map[checker.CheckName]bool) []string {
	var s []string
	for k := range m {
		s = append(s, string(k))
	}
	return s
}

func names(cs []checker.CheckName) []string {
	var s []string
	for _, c := range cs {
		s = append(s, string(c))
	}
	return s
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	a, b = append([]string(nil), a...), append([]string(nil), b...)
	sort.Strings(a)
	sort.Strings(b)
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestVisualisationOnViolation: a rejected partition gets porcupine's HTML,
// annotated with the faults and the findings; an accepted one gets none.
func TestVisualisationOnViolation(t *testing.T) {
	dir := t.TempDir()
	h := checker.History{
		acq("A", L, 0, 10, 1),
		fault("sever", "A", 12, 18),
		fault("kill", "zk2", 14, 16),
		acq("B", L, 20, 30, 2),
		rel("A", L, 40, 50, 1, ok),
		rel("B", L, 60, 70, 2, ok),
		write("A", R, 11, 12, 1, "a", ok),
	}
	res, err := checker.Check(h, checker.Options{HTMLDir: dir})
	if err != nil {
		t.Fatal(err)
	}
	paths := res.HTML()
	if len(paths) != 1 || filepath.Dir(paths[0]) != dir {
		t.Fatalf("want one visualisation in %s, got %v", dir, paths)
	}
	raw, err := os.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"sever A", "kill zk2", "overlap", "0=A 1=B", "A lock() -\\u003e ok #1"} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("visualisation lacks %q", want)
		}
	}
}
