package checker_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/zklock/zklock/checker"
	"github.com/zklock/zklock/checker/simulate"
)

// benchConfig gives about 100k operations, at least 1% of them with unknown
// outcomes (cut-off acquires, releases and writes), session losses and failed
// TryLocks, from 8 clients on the given number of lock paths.
func benchConfig(ops, paths, rwPaths int) simulate.Config {
	return simulate.Config{Clients: 8, Paths: paths, RWPaths: rwPaths, Ops: ops, Unknown: 0.014, TryLock: 0.05, Loss: 0.01}
}

var (
	benchMu      sync.Mutex
	benchHistory = map[[3]int]checker.History{}
)

func benchHistoryFor(ops, paths, rwPaths int) checker.History {
	benchMu.Lock()
	defer benchMu.Unlock()
	k := [3]int{ops, paths, rwPaths}
	if h, ok := benchHistory[k]; ok {
		return h
	}
	h := simulate.Run(benchConfig(ops, paths, rwPaths), rand.New(rand.NewPCG(1, uint64(paths)))).History
	benchHistory[k] = h
	return h
}

func unknownShare(h checker.History) (ops, unknown int) {
	for _, r := range h {
		switch r.Kind {
		case checker.KindFault, checker.KindLeftover:
			continue
		}
		ops++
		if r.Outcome == checker.OutcomeUnknown {
			unknown++
		}
	}
	return ops, unknown
}

// BenchmarkCheck100k checks a 100k-operation history with 1% unknown outcomes, all
// on one exclusive lock path (one porcupine search of the whole lock history),
// spread over four, and on one read/write path (readers make porcupine backtrack
// more).
func BenchmarkCheck100k(b *testing.B) {
	for _, c := range []struct{ paths, rw int }{{1, 0}, {4, 0}, {1, 1}} {
		name := fmt.Sprintf("paths=%d", c.paths)
		if c.rw > 0 {
			name += ",rw"
		}
		b.Run(name, func(b *testing.B) {
			h := benchHistoryFor(100000, c.paths, c.rw)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				res, err := checker.Check(h, checker.Options{})
				if err != nil || res.Verdict != checker.VerdictPass {
					b.Fatalf("%v %v", err, res)
				}
			}
		})
	}
}

// TestCheck100k runs the benchmark's case once and logs the time. It asserts no
// time: these are noisy two-core machines.
func TestCheck100k(t *testing.T) {
	if testing.Short() {
		t.Skip("100k-operation check skipped in -short mode")
	}
	n := 100000
	if raceEnabled {
		n = 10000
	}
	for _, paths := range []int{1, 4} {
		h := benchHistoryFor(n, paths, 0)
		ops, unk := unknownShare(h)
		if ops < n || unk*100 < ops {
			t.Fatalf("history has %d operations, %d unknown: want >= %d and >= 1%%", ops, unk, n)
		}

		var buf bytes.Buffer
		if _, err := h.WriteTo(&buf); err != nil {
			t.Fatal(err)
		}
		size := buf.Len()
		t0 := time.Now()
		if _, err := checker.Load(&buf); err != nil {
			t.Fatal(err)
		}
		load := time.Since(t0)

		res, err := checker.Check(h, checker.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != checker.VerdictPass {
			t.Fatalf("%s", report(res))
		}
		t.Logf("paths=%d: %d ops, %d unknown (%.2f%%): Check %v (Load of %d MB: %v)",
			paths, ops, unk, 100*float64(unk)/float64(ops), res.Elapsed.Round(time.Millisecond), size>>20, load.Round(time.Millisecond))
		for _, m := range res.Models {
			t.Logf("  %-8s %-16s %6d ops %4d unknown %v", m.Model, m.Key, m.Operations, m.Unknown, m.Elapsed.Round(time.Millisecond))
		}
	}
}
