package checker_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/zklock/zklock/checker"
	"github.com/zklock/zklock/checker/simulate"
)

// A search that runs out of time is reported as undecided, never as a pass.
func TestTimeoutIsUnknownNotPass(t *testing.T) {
	sim := simulate.Run(simulate.Config{Clients: 6, Paths: 2, Ops: 5000, Unknown: 0.02, Loss: 0.02},
		rand.New(rand.NewPCG(7, 7)))
	res, err := checker.Check(sim.History, checker.Options{Timeout: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != checker.VerdictUnknown {
		t.Fatalf("verdict %s, want %s", res.Verdict, checker.VerdictUnknown)
	}
	for _, m := range res.Models {
		if m.Result != porcupine.Unknown {
			t.Errorf("%s %s: %s, want Unknown", m.Model, m.Key, m.Result)
		}
	}

	// A violation found by a direct check still fails the run.
	h := append(sim.History, checker.Record{Kind: checker.KindLeftover, Path: "/locks/p0", Call: res.Horizon,
		Nodes: []string{"/locks/p0/_c_orphan-lock-0000099999"}})
	res, err = checker.Check(h, checker.Options{Timeout: time.Nanosecond})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != checker.VerdictFail {
		t.Fatalf("verdict %s, want %s", res.Verdict, checker.VerdictFail)
	}
}

// Larger simulated runs than the property tests draw, with every fault at once.
func TestSimulatedRunsPass(t *testing.T) {
	n := 20
	if testing.Short() {
		n = 5
	}
	for seed := 0; seed < n; seed++ {
		for _, noFence := range []bool{false, true} {
			cfg := simulate.Config{Clients: 6, Paths: 3, RWPaths: 1, Ops: 3000, Unknown: 0.05, TryLock: 0.1,
				Loss: 0.05, Pause: 0.03, NoFence: noFence}
			sim := simulate.Run(cfg, rand.New(rand.NewPCG(uint64(seed), 99)))
			res, err := checker.Check(sim.History, checker.Options{})
			if err != nil {
				t.Fatal(err)
			}
			want := checker.VerdictPass
			if sim.StaleObservable > 0 {
				want = checker.VerdictFail
			}
			if res.Verdict != want && !(sim.StaleAccepted > 0 && sim.StaleObservable == 0) {
				t.Fatalf("seed %d, no fence %v: %d stale writes (%d observable), verdict %s:\n%s",
					seed, noFence, sim.StaleAccepted, sim.StaleObservable, res.Verdict, report(res))
			}
			if sim.Pauses == 0 {
				t.Fatalf("seed %d injected no pause", seed)
			}
		}
	}
}
