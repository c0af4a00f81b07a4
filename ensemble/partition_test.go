package ensemble_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/zklock/zklock/ensemble"
	"github.com/zklock/zklock/ensemble/ensembletest"
)

// partitionWait bounds every wait for a partition's effect; the test does
// not judge how long it took, it only logs it.
const partitionWait = 90 * time.Second

// waitFor polls cond until it returns nil or ctx ends; the error says what
// was last seen.
func waitFor(ctx context.Context, what string, cond func(context.Context) error) error {
	for {
		pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		err := cond(pctx)
		cancel()
		if err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s: %w (last: %v)", what, ctx.Err(), err)
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// notServing is a condition: server i answers srvr with "not serving".
func notServing(e *ensemble.Ensemble, i int) func(context.Context) error {
	return func(ctx context.Context) error {
		st, err := e.Srvr(ctx, i)
		if errors.Is(err, ensemble.ErrNotServing) {
			return nil
		}
		return fmt.Errorf("server %d: %+v, %v", i, st, err)
	}
}

// leaderAmong is a condition: exactly one server of group reports leader and
// every other one of group follows.
func leaderAmong(e *ensemble.Ensemble, group []int, leader *int) func(context.Context) error {
	return func(ctx context.Context) error {
		var leaders []int
		for _, i := range group {
			st, err := e.Srvr(ctx, i)
			if err != nil {
				return err
			}
			switch st.Mode {
			case ensemble.ModeLeader:
				leaders = append(leaders, i)
			case ensemble.ModeFollower:
			default:
				return fmt.Errorf("server %d in mode %s", i, st.Mode)
			}
		}
		if len(leaders) != 1 {
			return fmt.Errorf("leaders %v among %v", leaders, group)
		}
		*leader = leaders[0]
		return nil
	}
}

func others(n, i int) []int {
	var out []int
	for k := 0; k < n; k++ {
		if k != i {
			out = append(out, k)
		}
	}
	return out
}

// healAndCheck heals every link and waits for every server to serve under
// one leader.
func healAndCheck(t *testing.T, ctx context.Context, e *ensemble.Ensemble) {
	t.Helper()
	if err := e.HealAll(); err != nil {
		t.Fatal(err)
	}
	if got := e.CutLinks(); got != nil {
		t.Fatalf("CutLinks after HealAll = %v", got)
	}
	start := time.Now()
	var leader int
	all := others(e.Size(), -1)
	if err := waitFor(ctx, "one leader after the heal", leaderAmong(e, all, &leader)); err != nil {
		t.Fatal(err)
	}
	t.Logf("healed: every server serves, leader %d, %v after the heal", leader, time.Since(start).Round(time.Millisecond))
}

func TestIsolatedLeaderStepsDownMajorityElects(t *testing.T) {
	e := ensembletest.RequireLocal(t)
	ctx := ctxTimeout(t, 3*partitionWait)
	old, err := e.Leader(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Isolate(old); err != nil {
		t.Fatal(err)
	}
	cut := time.Now()
	rest := others(e.Size(), old)
	if got, want := len(e.CutLinks()), len(rest); got != want {
		t.Fatalf("CutLinks = %v, want the %d links of server %d", e.CutLinks(), want, old)
	}
	wctx, cancel := context.WithTimeout(ctx, partitionWait)
	defer cancel()
	if err := waitFor(wctx, "isolated leader steps down", notServing(e, old)); err != nil {
		t.Fatal(err)
	}
	t.Logf("isolated leader %d not serving %v after the cut", old, time.Since(cut).Round(time.Millisecond))
	var leader int
	if err := waitFor(wctx, "majority elects", leaderAmong(e, rest, &leader)); err != nil {
		t.Fatal(err)
	}
	t.Logf("majority %v elected leader %d %v after the cut", rest, leader, time.Since(cut).Round(time.Millisecond))
	// The old leader stays out for as long as the cut lasts.
	if err := notServing(e, old)(ctx); err != nil {
		t.Fatalf("isolated server serves again while cut off: %v", err)
	}
	healAndCheck(t, ctx, e)
}

func TestIsolatedFollowerStopsServing(t *testing.T) {
	e := ensembletest.RequireLocal(t)
	ctx := ctxTimeout(t, 3*partitionWait)
	leader, err := e.Leader(ctx)
	if err != nil {
		t.Fatal(err)
	}
	f := followerOf(t, e, leader)
	if err := e.Isolate(f); err != nil {
		t.Fatal(err)
	}
	cut := time.Now()
	wctx, cancel := context.WithTimeout(ctx, partitionWait)
	defer cancel()
	if err := waitFor(wctx, "minority follower stops serving", notServing(e, f)); err != nil {
		t.Fatal(err)
	}
	t.Logf("isolated follower %d not serving %v after the cut", f, time.Since(cut).Round(time.Millisecond))
	var now int
	if err := waitFor(wctx, "majority keeps a leader", leaderAmong(e, others(e.Size(), f), &now)); err != nil {
		t.Fatal(err)
	}
	healAndCheck(t, ctx, e)
}

// A bridge (two halves sharing one server) leaves every server with a
// majority it can reach: the ensemble serves throughout, through the
// bridge.
func TestBridgeKeepsServing(t *testing.T) {
	e := ensembletest.RequireLocal(t)
	ctx := ctxTimeout(t, 3*partitionWait)
	if e.Size() != 3 {
		t.Skipf("written for 3 servers, have %d", e.Size())
	}
	leader, err := e.Leader(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// The leader is the bridge: the followers lose each other only.
	fs := others(3, leader)
	if err := e.Partition([]int{fs[0], leader}, []int{leader, fs[1]}); err != nil {
		t.Fatal(err)
	}
	if got, want := e.CutLinks(), []ensemble.Link{{fs[0], fs[1]}}; !slices.Equal(got, want) {
		t.Fatalf("CutLinks = %v, want %v", got, want)
	}
	var now int
	if err := waitFor(ctx, "serving across the bridge", leaderAmong(e, others(3, -1), &now)); err != nil {
		t.Fatal(err)
	}
	healAndCheck(t, ctx, e)
}

func TestPartitionBadInput(t *testing.T) {
	e := ensembletest.RequireLocal(t)
	for _, err := range []error{e.CutLink(0, 0), e.CutLink(-1, 1), e.HealLink(0, e.Size()),
		e.Partition([]int{0}, []int{e.Size()}), e.Isolate(e.Size())} {
		if !errors.Is(err, ensemble.ErrBadIndex) {
			t.Errorf("got %v, want ErrBadIndex", err)
		}
	}
	if got := e.CutLinks(); got != nil {
		t.Errorf("bad input cut links: %v", got)
	}
	if e.TickTime() != ensemble.DefaultTickTime || e.SyncLimit() != ensemble.DefaultSyncLimit {
		t.Errorf("TickTime, SyncLimit = %v, %d; want the defaults", e.TickTime(), e.SyncLimit())
	}
}
