package predlock_test

import (
	"testing"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/recipe"
)

// BenchmarkNext measures Next alone (no fingerprints, no explorer) on the
// first 30,000 states of a breadth-first search of a three-client config
// with every fault, in ns per state; compare runs with benchstat, no test
// depends on the time.
func BenchmarkNext(b *testing.B) {
	sp, err := predlock.New(constants(), predlock.Base)
	if err != nil {
		b.Fatal(err)
	}
	seen := map[string]bool{}
	frontier := []predlock.State{sp.Init()}
	var all []predlock.State
	for len(frontier) > 0 && len(all) < 30000 {
		var next []predlock.State
		for i := range frontier {
			all = append(all, frontier[i])
			sp.Next(&frontier[i], func(_ model.Label, t *predlock.State) {
				k := string(t.AppendEncoding(nil))
				if !seen[k] {
					seen[k] = true
					next = append(next, *t)
				}
			})
		}
		frontier = next
	}
	b.ResetTimer()
	n := 0
	for range b.N {
		for i := range all {
			sp.Next(&all[i], func(model.Label, *predlock.State) { n++ })
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(all)), "ns/state")
}

// constants are PredecessorLock.Safety's, with every fault and fencing.
func constants() predlock.Constants {
	return predlock.Constants{Constants: recipe.Constants{Clients: []string{"c1", "c2", "c3"}, MaxRequests: 2, MaxSeq: 6, MaxFaults: 2,
		WithExpiry: true, WithReplyLoss: true, WithPause: true, WithCancel: true}, Fencing: true}
}
