package sessiontimingload_test

import (
	"testing"

	"pgregory.net/rapid"

	"github.com/zklock/zklock/model/internal/proptest"
	"github.com/zklock/zklock/model/lossclock"
	"github.com/zklock/zklock/model/sessiontimingload"
)

// draw draws constants beyond the TLC configs': any bound, lag, delay and
// heartbeat, healthy or not.
func draw(t *rapid.T, merge lossclock.Merge, healthy bool) sessiontimingload.Constants {
	return sessiontimingload.Constants{
		Timeout: rapid.IntRange(1, 16).Draw(t, "Timeout"),
		Drift:   rapid.IntRange(0, 3).Draw(t, "Drift"),
		Clock: lossclock.Config{Lag: rapid.IntRange(0, 4).Draw(t, "Lag"),
			MaxAcks: rapid.IntRange(2, 6).Draw(t, "MaxAcks"), Merge: merge},
		Delay:       rapid.IntRange(1, 3).Draw(t, "Delay"),
		Beat:        rapid.IntRange(1, 3).Draw(t, "Beat"),
		MaxInFlight: rapid.IntRange(1, 4).Draw(t, "MaxInFlight"),
		MaxTime:     rapid.IntRange(1, 40).Draw(t, "MaxTime"),
		Healthy:     healthy,
	}
}

func walk(t *rapid.T, sp *sessiontimingload.Spec, props []proptest.Property[sessiontimingload.State]) {
	proptest.WalkChecking(t, proptest.Spec[sessiontimingload.State]{
		Init: sp.Init, Next: sp.Next, Actions: len(sp.Actions),
		ActionName: sp.ActionName, LabelString: sp.LabelString, Format: sp.Format,
	}, props, rapid.IntRange(20, 400).Draw(t, "steps"), nil)
}

// TestRandomWalksProveNoMore: under any timing and any constants, the
// thinned clock (and the old merge) never prove a later send time than
// every acknowledgement would.
func TestRandomWalksProveNoMore(t *testing.T) {
	for _, merge := range []lossclock.Merge{lossclock.Thin, lossclock.Oldest} {
		t.Run(string(merge), func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				sp, err := sessiontimingload.New(draw(t, merge, rapid.Bool().Draw(t, "Healthy")))
				if err != nil {
					t.Fatal(err)
				}
				walk(t, sp, []proptest.Property[sessiontimingload.State]{
					{Name: "TypeOK", Inv: sp.TypeOK}, {Name: "ProvesNoMore", Inv: sp.ProvesNoMore}})
			})
		})
	}
}

// TestMergesCaught is the walks' positive control: the "newer" merge
// proves too much, and with a bound of two and a sync every tick the old
// merge loses a healthy session; random walks find both and shrink them.
func TestMergesCaught(t *testing.T) {
	for _, tc := range []struct {
		merge   lossclock.Merge
		healthy bool
		prop    string
	}{{lossclock.Newer, false, "ProvesNoMore"}, {lossclock.Oldest, true, "NoSpuriousLoss"}} {
		t.Run(string(tc.merge), func(t *testing.T) {
			sp, err := sessiontimingload.New(sessiontimingload.Constants{Timeout: 10, Drift: 2,
				Clock: lossclock.Config{Lag: 2, MaxAcks: 2, Merge: tc.merge}, Delay: 1, Beat: 1,
				MaxInFlight: 2, MaxTime: 20, Healthy: tc.healthy})
			if err != nil {
				t.Fatal(err)
			}
			props := []proptest.Property[sessiontimingload.State]{
				{Name: "ProvesNoMore", Inv: sp.ProvesNoMore}, {Name: "NoSpuriousLoss", Inv: sp.NoSpuriousLoss}}
			proptest.Caught(t, tc.prop, func(rt *rapid.T) {
				walk(rt, sp, proptest.Only(props, tc.prop))
			})
		})
	}
}
