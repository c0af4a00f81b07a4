package proptest

import (
	"fmt"

	"pgregory.net/rapid"

	"github.com/zklock/zklock/model/recipe"
)

// DrawConstants draws the constants both lock specs have, beyond the TLC
// configs' (3 clients, one or two requests, MaxSeq <= 6, MaxFaults <= 2):
// 1-6 clients, 1-4 requests, MaxSeq 1-20, MaxFaults 0-5, every switch
// random.
func DrawConstants(t *rapid.T) recipe.Constants {
	n := rapid.IntRange(1, 6).Draw(t, "clients")
	k := recipe.Constants{
		MaxRequests:   rapid.IntRange(1, 4).Draw(t, "MaxRequests"),
		MaxSeq:        rapid.IntRange(1, 20).Draw(t, "MaxSeq"),
		MaxFaults:     rapid.IntRange(0, 5).Draw(t, "MaxFaults"),
		WithExpiry:    rapid.Bool().Draw(t, "WithExpiry"),
		WithReplyLoss: rapid.Bool().Draw(t, "WithReplyLoss"),
		WithPause:     rapid.Bool().Draw(t, "WithPause"),
		WithCancel:    rapid.Bool().Draw(t, "WithCancel"),
		AsyncDelete:   rapid.Bool().Draw(t, "AsyncDelete"),
	}
	for c := 1; c <= n; c++ {
		k.Clients = append(k.Clients, fmt.Sprintf("c%d", c))
	}
	return k
}

// Small returns the constants of the positive controls (TestMutantsCaught):
// four clients, two requests each, MaxSeq 6, MaxFaults faults, and the
// switches the control needs.
func Small(maxFaults int, replyLoss, cancel bool) recipe.Constants {
	return recipe.Constants{Clients: []string{"c1", "c2", "c3", "c4"}, MaxRequests: 2, MaxSeq: 6,
		MaxFaults: maxFaults, WithReplyLoss: replyLoss, WithCancel: cancel}
}
