package checker_test

import (
	"testing"

	"github.com/zklock/zklock/checker"
)

// Builders for an election's records: a leadership is an acquire on the
// election path carrying its campaign value, its token the epoch.

const E = "/elections/a"

func campaign(client string, call, ret, epoch int64, value string) checker.Record {
	r := acq(client, E, call, ret, epoch)
	r.Value = value
	return r
}

func proclaim(client string, call, ret, epoch int64, value string, o checker.Outcome) checker.Record {
	return checker.Record{Kind: checker.KindProclaim, Client: client, Session: "s-" + client, Path: E,
		Call: call, Return: ret, Outcome: o, Token: epoch, Value: value}
}

// observe is a report observer received at `at`: epoch 0 is a vacancy.
func observe(observer string, at, epoch int64, value string) checker.Record {
	r := checker.Record{Kind: checker.KindObserve, Client: observer, Session: "s-" + observer, Path: E,
		Call: at, Return: at, Token: epoch, Value: value}
	if epoch != 0 {
		r.Node = node(E, "leader", epoch)
	}
	return r
}

func init() {
	goodControls = append(goodControls, control{
		name: "election: a leader proclaims, resigns, the next leads; observers follow",
		h: checker.History{
			observe("O", 1, 0, ""),
			campaign("A", 0, 10, 1, "a0"),
			observe("O", 11, 1, "a0"),
			proclaim("A", 20, 30, 1, "a1", ok),
			observe("O", 25, 1, "a1"), // seen before the proclaim returned
			campaign("B", 5, 60, 2, "b0"),
			proclaim("A", 35, 45, 1, "a2", failed), // lost before it: nothing written
			rel("A", E, 50, 55, 1, ok),
			observe("O", 58, 0, ""),
			observe("O", 61, 2, "b0"),
			observe("P", 62, 2, "b0"), // a second observer, which saw only the last
			acqNot("C", E, 40, 70, failed),
			rel("B", E, 80, 90, 2, ok),
		},
	}, control{
		name: "election: a campaign that timed out led for a moment",
		h: checker.History{
			acqNot("C", E, 0, 50, failed),
			{Kind: checker.KindAcquire, Client: "C", Session: "s-C", Path: E, Mode: checker.ModeExclusive,
				Call: 60, Return: 70, Outcome: checker.OutcomeFailed, Value: "c0"},
			observe("O", 65, 3, "c0"),
		},
	})
	badControls = append(badControls, control{
		name:    "election: an observer reports an epoch going back",
		violate: []checker.CheckName{checker.CheckObservedOrder},
		h: checker.History{
			campaign("A", 0, 10, 1, "a0"),
			rel("A", E, 20, 25, 1, ok),
			campaign("B", 5, 30, 2, "b0"),
			observe("O", 31, 2, "b0"),
			observe("O", 32, 1, "a0"),
			rel("B", E, 40, 45, 2, ok),
		},
	}, control{
		name:    "election: an observer reports the same value twice (observer-reports-stale)",
		violate: []checker.CheckName{checker.CheckObservedOrder},
		h: checker.History{
			campaign("A", 0, 10, 1, "a0"),
			observe("O", 11, 1, "a0"),
			proclaim("A", 20, 30, 1, "a0", ok), // proclaimed again, unchanged
			observe("O", 31, 1, "a0"),
		},
	}, control{
		name:    "election: an observer reports a vacancy twice",
		violate: []checker.CheckName{checker.CheckObservedOrder},
		h: checker.History{
			observe("O", 1, 0, ""),
			observe("O", 2, 0, ""),
		},
	}, control{
		name:    "election: an observer reports a failed proclaim's value (proclaim-unchecked)",
		violate: []checker.CheckName{checker.CheckObservedValue},
		h: checker.History{
			campaign("A", 0, 10, 1, "a0"),
			proclaim("A", 20, 30, 1, "a1", failed),
			observe("O", 31, 1, "a1"),
		},
	}, control{
		name:    "election: an observer reports a value under another leader's epoch",
		violate: []checker.CheckName{checker.CheckObservedValue},
		h: checker.History{
			campaign("A", 0, 10, 1, "a0"),
			rel("A", E, 20, 25, 1, ok),
			campaign("B", 5, 30, 2, "b0"),
			observe("O", 31, 2, "a0"),
			rel("B", E, 40, 45, 2, ok),
		},
	}, control{
		name:    "election: an observer reports a value before it was proclaimed",
		violate: []checker.CheckName{checker.CheckObservedValue},
		h: checker.History{
			campaign("A", 0, 10, 1, "a0"),
			observe("O", 15, 1, "a1"),
			proclaim("A", 20, 30, 1, "a1", ok),
		},
	}, control{
		name:    "election: an observer reports a value nobody wrote",
		violate: []checker.CheckName{checker.CheckObservedValue},
		h: checker.History{
			campaign("A", 0, 10, 1, "a0"),
			observe("O", 15, 1, "x"),
		},
	})
}

// TestElectionSummary: the report counts the election's records.
func TestElectionSummary(t *testing.T) {
	h := checker.History{
		campaign("A", 0, 10, 1, "a0"),
		proclaim("A", 20, 30, 1, "a1", ok),
		proclaim("A", 35, 40, 1, "a2", unknown),
		observe("O", 5, 0, ""),
		observe("O", 11, 1, "a0"),
		observe("O", 31, 1, "a1"),
	}
	res, err := checker.Check(h, checker.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := "1 leaderships, 2 proclaims (1 ok), 3 observer reports (1 vacancies) in 1 observations, 1 epochs seen"
	if res.Election == nil || res.Election.String() != want {
		t.Fatalf("election summary %v, want %s", res.Election, want)
	}
	if res.Verdict != checker.VerdictPass {
		t.Fatalf("verdict %s: %v", res.Verdict, res.Findings)
	}
}

// TestElectionRecordsValidate: an observe names its observation's session,
// and a proclaim its leadership's epoch.
func TestElectionRecordsValidate(t *testing.T) {
	bad := []checker.Record{
		{Kind: checker.KindObserve, Client: "O", Path: E, Token: 1, Node: "n"},
		{Kind: checker.KindObserve, Client: "O", Session: "s", Path: E, Token: 1},
		{Kind: checker.KindProclaim, Client: "A", Path: E, Value: "v", Outcome: ok},
		{Kind: checker.KindProclaim, Client: "A", Path: E, Token: 1, Value: "v"},
	}
	for i, r := range bad {
		if err := (checker.History{r}).Validate(); err == nil {
			t.Errorf("record %d (%+v) validated", i, r)
		}
	}
}
