package checker_test

import (
	"testing"

	"github.com/zklock/zklock/checker"
)

// Times in these histories are nanoseconds: the graces are DefaultNotifyGrace
// (1 s) and DefaultRewindGrace (2 s).
const sec = int64(1e9)

func rewoundAcq(client, path string, call, ret, token int64) checker.Record {
	r := acq(client, path, call, ret, token)
	r.Rewound = true
	return r
}

var operatorGood = []control{
	{
		// The holder watches its node: its loss comes with the next grant.
		name:    "operator-delete: the holder's belief ends within one notification",
		excused: []checker.CheckName{checker.CheckOverlap},
		h: checker.History{
			acq("A", L, 0, 10, 1),
			fault(checker.FaultOperatorDelete, "A", 50, 60),
			acq("B", L, 20, 70, 2),
			lost("A", L, 10, 80, 1),
			rel("B", L, 100, 110, 2, ok),
		},
	},
	{
		name:    "wipe: the holder ends at its first contact; the later token is lower and said",
		excused: []checker.CheckName{checker.CheckOverlap, checker.CheckTokenOrder},
		h: checker.History{
			acq("A", L, 0, 10, 9),
			fault(checker.FaultWipe, checker.TargetAll, 50, 3*sec),
			rewoundAcq("B", L, 3*sec+10, 3*sec+20, 5),
			lost("A", L, 10, 4*sec, 9),
			rel("B", L, 5*sec, 5*sec+10, 5, ok),
		},
	},
}

func init() {
	operatorGood = append(operatorGood, control{
		// A's belief outlasts the wipe (within the grace) and ends after
		// B's new-history grant: their tokens are of two histories.
		name:    "wipe: a tenure of the old history ends after the wipe, a lower token follows",
		excused: []checker.CheckName{checker.CheckTokenOrder},
		h: checker.History{
			acq("A", L, 0, 10, 9),
			fault(checker.FaultWipe, checker.TargetAll, 50, 3*sec),
			lost("A", L, 10, 3*sec+100, 9),
			rewoundAcq("B", L, 3*sec+200, 3*sec+300, 5),
			rel("B", L, 4*sec, 4*sec+10, 5, ok),
		},
	})
}

var operatorBad = []control{
	{
		// go-zookeeper's zk.Lock: nothing tells the holder.
		name:    "operator-delete: the holder believes on, a second past the next grant",
		illegal: []string{"mutex " + L},
		violate: []checker.CheckName{checker.CheckOverlap},
		h: checker.History{
			acq("A", L, 0, 10, 1),
			fault(checker.FaultOperatorDelete, "A", 50, 60),
			acq("B", L, 20, 70, 2),
			rel("A", L, 60+2*sec, 60+2*sec+10, 1, ok),
			rel("B", L, 3*sec, 3*sec+10, 2, ok),
		},
	},
	{
		name:    "operator-delete of another client's node excuses nothing",
		illegal: []string{"mutex " + L},
		violate: []checker.CheckName{checker.CheckOverlap},
		h: checker.History{
			acq("A", L, 0, 10, 1),
			fault(checker.FaultOperatorDelete, "C", 50, 60),
			acq("B", L, 20, 70, 2),
			rel("A", L, 80, 90, 1, ok),
			rel("B", L, 100, 110, 2, ok),
		},
	},
	{
		// The lost record's call is after the wipe here only to show that
		// the overlap check alone judges the window: the wipe voids what
		// the holder knew, so the linearizability check places its loss
		// anywhere after its acquire.
		name:    "wipe: the holder waits for its loss deadline, past the window",
		violate: []checker.CheckName{checker.CheckOverlap, checker.CheckRewindBelief},
		excused: []checker.CheckName{checker.CheckTokenOrder},
		h: checker.History{
			acq("A", L, 0, 10, 9),
			fault(checker.FaultWipe, checker.TargetAll, 50, 3*sec),
			rewoundAcq("B", L, 3*sec+10, 3*sec+20, 5),
			lost("A", L, 3*sec+100, 9*sec, 9),
			rel("B", L, 10*sec, 10*sec+10, 5, ok),
		},
	},
	{
		// Nobody was granted meanwhile: the belief alone is judged.
		name:    "wipe: the holder believes long after the ensemble's return",
		violate: []checker.CheckName{checker.CheckRewindBelief},
		h: checker.History{
			acq("A", L, 0, 10, 9),
			fault(checker.FaultWipe, checker.TargetAll, 50, 3*sec),
			lost("A", L, 10, 9*sec, 9),
		},
	},
	{
		name:    "wipe: a lower token handed out without saying so",
		illegal: []string{"mutex " + L},
		violate: []checker.CheckName{checker.CheckTokenSaid},
		excused: []checker.CheckName{checker.CheckTokenOrder},
		h: checker.History{
			acq("A", L, 0, 10, 9),
			rel("A", L, 20, 30, 9, ok),
			fault(checker.FaultWipe, checker.TargetAll, 50, 3*sec),
			acq("B", L, 3*sec+10, 3*sec+20, 5),
			rel("B", L, 5*sec, 5*sec+10, 5, ok),
		},
	},
}

func TestOperatorControls(t *testing.T) {
	for _, c := range operatorGood {
		c.verdict = checker.VerdictPass
		t.Run(c.name, func(t *testing.T) { runControl(t, c) })
	}
	for _, c := range operatorBad {
		c.verdict = checker.VerdictFail
		t.Run(c.name, func(t *testing.T) { runControl(t, c) })
	}
}

// A register kept in the ensemble goes back with a wipe (the wipe's Nodes
// name it): its writes are judged within one history. One the wipe does
// not name (a resource outside the ensemble) must still refuse the lower
// token.
func TestWipeTakesBackItsRegisters(t *testing.T) {
	wipe := fault(checker.FaultWipe, checker.TargetAll, 50, 3*sec)
	wipe.Nodes = []string{"zk:/data/a", "zk:/data/s"}
	runControl(t, control{
		name:    "a wiped register starts over",
		verdict: checker.VerdictPass,
		excused: []checker.CheckName{checker.CheckStaleWrite, checker.CheckTokenOrder},
		h: checker.History{
			acq("A", L, 0, 10, 9),
			write("A", "zk:/data/a", 20, 30, 9, "a", ok),
			rel("A", L, 40, 45, 9, ok),
			wipe,
			rewoundAcq("B", L, 3*sec+10, 3*sec+20, 5),
			read("B", "zk:/data/a", 3*sec+30, 3*sec+40, ""),
			write("B", "zk:/data/a", 3*sec+50, 3*sec+60, 5, "b", ok),
			rel("B", L, 3*sec+70, 3*sec+80, 5, ok),
		},
	})
	runControl(t, control{
		name:    "a semaphore holder's part of a wiped register starts over",
		verdict: checker.VerdictPass,
		excused: []checker.CheckName{checker.CheckStaleWrite},
		h: checker.History{
			write("A", "zk:/data/s@A", 20, 30, 9, "a", ok),
			wipe,
			read("A", "zk:/data/s@A", 3*sec+30, 3*sec+40, ""),
			write("A", "zk:/data/s@A", 3*sec+50, 3*sec+60, 5, "b", ok),
		},
	})
	runControl(t, control{
		name:    "a register outside the ensemble does not",
		verdict: checker.VerdictFail,
		illegal: []string{"register mem:a"},
		violate: []checker.CheckName{checker.CheckStaleWrite},
		excused: []checker.CheckName{checker.CheckTokenOrder},
		h: checker.History{
			acq("A", L, 0, 10, 9),
			write("A", "mem:a", 20, 30, 9, "a", ok),
			rel("A", L, 40, 45, 9, ok),
			wipe,
			rewoundAcq("B", L, 3*sec+10, 3*sec+20, 5),
			write("B", "mem:a", 3*sec+50, 3*sec+60, 5, "b", ok),
			rel("B", L, 3*sec+70, 3*sec+80, 5, ok),
		},
	})
}

// A register kept in the ensemble goes back with a restore to the value
// and token of the backup, which the history does not show: the first read
// shows it, and the reads after must agree with it.
func TestRestoreTakesBackItsRegisters(t *testing.T) {
	restore := fault(checker.FaultRestore, checker.TargetAll, 50, 3*sec)
	restore.Nodes = []string{"zk:/data/a"}
	before := checker.History{
		acq("A", L, 0, 10, 9),
		write("A", "zk:/data/a", 20, 30, 9, "a", ok),
		write("A", "zk:/data/a", 31, 35, 9, "a2", ok),
		rel("A", L, 40, 45, 9, ok),
		restore,
		rewoundAcq("B", L, 3*sec+10, 3*sec+20, 5),
	}
	runControl(t, control{
		name:    "a restored register reads the backup's value",
		verdict: checker.VerdictPass,
		excused: []checker.CheckName{checker.CheckStaleWrite, checker.CheckTokenOrder},
		h: append(append(checker.History(nil), before...),
			read("B", "zk:/data/a", 3*sec+30, 3*sec+40, "a"),
			read("B", "zk:/data/a", 3*sec+41, 3*sec+45, "a"),
			write("B", "zk:/data/a", 3*sec+50, 3*sec+60, 5, "b", ok),
			rel("B", L, 3*sec+70, 3*sec+80, 5, ok)),
	})
	runControl(t, control{
		name:    "a read served across the restore is in neither history",
		verdict: checker.VerdictPass,
		excused: []checker.CheckName{checker.CheckTokenOrder},
		h: append(append(checker.History(nil), before...),
			read("B", "zk:/data/a", 40, 3*sec+5, "a"),
			read("B", "zk:/data/a", 3*sec+30, 3*sec+40, "a"),
			rel("B", L, 3*sec+70, 3*sec+80, 5, ok)),
	})
	runControl(t, control{
		name:    "a restored register that reads two values with no write between is not linearizable",
		verdict: checker.VerdictFail,
		illegal: []string{"register zk:/data/a@restore 1"},
		excused: []checker.CheckName{checker.CheckTokenOrder},
		h: append(append(checker.History(nil), before...),
			read("B", "zk:/data/a", 3*sec+30, 3*sec+40, "a"),
			read("B", "zk:/data/a", 3*sec+41, 3*sec+45, "a2"),
			rel("B", L, 3*sec+70, 3*sec+80, 5, ok)),
	})
}
