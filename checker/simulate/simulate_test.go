package simulate

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/zklock/zklock/checker"
)

func TestRunIsAPureFunctionOfItsChoices(t *testing.T) {
	cfg := Config{Clients: 4, Paths: 2, RWPaths: 1, Ops: 500, Unknown: 0.1, TryLock: 0.1, Loss: 0.1, Pause: 0.1}
	a := Run(cfg, rand.New(rand.NewPCG(3, 4)))
	b := Run(cfg, rand.New(rand.NewPCG(3, 4)))
	if !reflect.DeepEqual(a, b) {
		t.Fatal("same choices, different histories")
	}
	if err := a.History.Validate(); err != nil {
		t.Fatal(err)
	}
	ops, leftovers := 0, 0
	for _, r := range a.History {
		switch r.Kind {
		case checker.KindLeftover:
			leftovers++
			if len(r.Nodes) != 0 {
				t.Errorf("a correct lock left %v behind", r.Nodes)
			}
		case checker.KindFault:
		default:
			ops++
		}
	}
	if ops < cfg.Ops || leftovers != cfg.Paths || a.Pauses == 0 || a.Losses == 0 {
		t.Fatalf("%d ops, %d leftover records, %d pauses, %d losses", ops, leftovers, a.Pauses, a.Losses)
	}
}

// zeroSource is what a shrunk property test feeds: every choice 0.
type zeroSource struct{}

func (zeroSource) IntN(int) int { return 0 }

func TestRunTerminatesOnZeroChoices(t *testing.T) {
	res := Run(Config{Clients: 3, Paths: 2, RWPaths: 2, Ops: 50, Unknown: 0.5, Loss: 0.5, Pause: 0.5}, zeroSource{})
	if len(res.History) < 50 || res.Pauses+res.Losses != 0 {
		t.Fatalf("%d records, %d pauses, %d losses: zero choices should mean no faults", len(res.History), res.Pauses, res.Losses)
	}
}
