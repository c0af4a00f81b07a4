package connloss_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/connloss"
	"github.com/zklock/zklock/model/internal/proptest"
	"github.com/zklock/zklock/model/predlock"
	"github.com/zklock/zklock/model/recipe"
	"github.com/zklock/zklock/model/sharedlock"
	"github.com/zklock/zklock/model/zk"
)

type pred = connloss.State[predlock.State]

// invariants lifts the recipe's invariants, by name, onto the wrapped
// state.
func invariants[S any](m map[string]func(*S) bool) []proptest.Property[connloss.State[S]] {
	var ps []proptest.Property[connloss.State[S]]
	for name, f := range m {
		ps = append(ps, proptest.Property[connloss.State[S]]{Name: name, Inv: func(s *connloss.State[S]) bool { return f(&s.Lock) }})
	}
	return ps
}

// walker is the random walks' view of sp.
func walker[S any, K zk.Kind](sp *connloss.Spec[S, K]) proptest.Spec[connloss.State[S]] {
	return proptest.Spec[connloss.State[S]]{Init: sp.Init, Next: sp.Next, Actions: sp.Actions(),
		ActionName: sp.ActionName, LabelString: sp.LabelString, Format: sp.Format}
}

// walks checks, on random walks of 50-600 steps from Init, that every
// property ps returns for the drawn module holds.
func walks[S any, K zk.Kind](t *testing.T, draw func(t *rapid.T) (*connloss.Spec[S, K], []proptest.Property[connloss.State[S]])) {
	rapid.Check(t, func(t *rapid.T) {
		sp, ps := draw(t)
		proptest.WalkChecking(t, walker(sp), append(ps, proptest.Property[connloss.State[S]]{Name: "LTypeOK", Inv: sp.TypeOK}),
			rapid.IntRange(50, 600).Draw(t, "steps"), nil)
	})
}

// wrap wraps r with a drawn budget (up to 6 lost calls).
func wrap[S any, K zk.Kind](t *rapid.T, r connloss.Recipe[S, K], err error) *connloss.Spec[S, K] {
	if err != nil {
		t.Fatal(err)
	}
	sp, err := connloss.New(r, rapid.IntRange(0, 6).Draw(t, "MaxLost"), false)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// TestRandomWalksPredecessorLock: random walks of PredecessorLockConnLoss
// under random constants (up to 6 clients, 4 requests, 5 faults) keep
// every safety property of PredecessorLock that holds for the constants.
func TestRandomWalksPredecessorLock(t *testing.T) {
	walks(t, func(t *rapid.T) (*connloss.Spec[predlock.State, zk.NoKind], []proptest.Property[pred]) {
		k := predlock.Constants{Constants: proptest.DrawConstants(t), Fencing: rapid.Bool().Draw(t, "Fencing"),
			GrantRule: rapid.SampledFrom([]predlock.GrantRule{predlock.GrantReread, predlock.GrantChecked}).Draw(t, "GrantRule")}
		r, err := predlock.New(k, predlock.Base)
		sp := wrap(t, r, err)
		invs := map[string]func(*predlock.State) bool{"MutualExclusion": r.MutualExclusion, "NoHerd": r.NoHerd,
			"NoOrphans": (*predlock.State).NoOrphans, "GrantsInSequenceOrder": r.GrantsInSequenceOrder, "KnownNodeExists": r.KnownNodeExists}
		if !k.WithPause {
			invs["NaiveExclusion"] = r.NaiveExclusion
		}
		ps := append(invariants(invs), proptest.Property[pred]{Name: "TokensIncrease",
			Act: func(s, t *pred) bool { return r.TokensIncrease(&s.Lock, &t.Lock) }})
		return sp, ps
	})
}

// TestRandomWalksSharedLock: the same for SharedLockConnLoss, every safety
// property of SharedLock (WriterExclusion only without pauses).
func TestRandomWalksSharedLock(t *testing.T) {
	walks(t, func(t *rapid.T) (*connloss.Spec[sharedlock.State, sharedlock.Kind], []proptest.Property[connloss.State[sharedlock.State]]) {
		k := sharedlock.Constants{Constants: proptest.DrawConstants(t), WithDowngrade: rapid.Bool().Draw(t, "WithDowngrade")}
		r, err := sharedlock.New(k, sharedlock.Base)
		sp := wrap(t, r, err)
		invs := map[string]func(*sharedlock.State) bool{"MutualExclusion": r.MutualExclusion, "NoHerd": r.NoHerd,
			"NoOrphans": (*sharedlock.State).NoOrphans, "GrantsInSequenceOrder": r.GrantsInSequenceOrder,
			"KnownNodeExists": r.KnownNodeExists, "ReadersNotBlockedByReaders": r.ReadersNotBlockedByReaders}
		if !k.WithPause {
			invs["WriterExclusion"] = r.WriterExclusion
		}
		ps := invariants(invs)
		return sp, ps
	})
}

// two is SharedLock with two clients, one request each, no fault,
// downgrade on, wrapped with a budget of maxLost.
func two(t *testing.T, maxLost int, waits bool) *connloss.Spec[sharedlock.State, sharedlock.Kind] {
	t.Helper()
	k := sharedlock.Constants{Constants: recipe.Constants{Clients: []string{"c1", "c2"}, MaxRequests: 1, MaxSeq: 3}, WithDowngrade: true}
	r, err := sharedlock.New(k, sharedlock.Base)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := connloss.New(r, maxLost, waits)
	if err != nil {
		t.Fatal(err)
	}
	return sp
}

// lost returns the label of sp's lost call named name for client c.
func lost[S any, K zk.Kind](t *testing.T, sp *connloss.Spec[S, K], name string, c int16) model.Label {
	t.Helper()
	for a := 0; a < sp.Actions(); a++ {
		if l := (model.Label{Action: uint8(a), Client: c}); !sp.IsBase(l) && sp.ActionName(l) == name {
			return l
		}
	}
	t.Fatalf("no lost call %s", name)
	return model.Label{}
}

// run takes the steps from Init, failing t on one that is not enabled.
func run[S any, K zk.Kind](t *testing.T, sp *connloss.Spec[S, K], steps ...model.Label) connloss.State[S] {
	t.Helper()
	s := sp.Init()
	for _, l := range steps {
		var u connloss.State[S]
		if g := sp.Step(&s, l, &u); g != model.Enabled {
			t.Fatalf("%s not enabled (%s) in\n%s", sp.LabelString(l), g, sp.Format(&s))
		}
		s = u
	}
	return s
}

// step is client c's action a (arg: RequestLock's kind).
func step(a uint8, c, arg int16) model.Label { return model.Label{Action: a, Client: c, Arg: arg} }

// writerHolds: c1 holds the write lock, c2 (a reader) queued behind it and
// chose the writer's node to watch.
var writerHolds = []model.Label{
	step(recipe.ActRequestLock, 0, 1), step(recipe.ActCreateOk, 0, 0), step(recipe.ActListChildren, 0, 0), step(recipe.ActGrant, 0, 0),
	step(recipe.ActRequestLock, 1, 0), step(recipe.ActCreateOk, 1, 0), step(recipe.ActListChildren, 1, 0),
}
