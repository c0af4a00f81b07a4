package zklock

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/zklock/zklock/ensemble"
	"github.com/zklock/zklock/ensemble/ensembletest"
)

// followerCut is the setup of the tests where a holder's session lives on
// a follower that is cut off from the ZooKeeper leader, while the client
// waiting for its room is connected to the leader itself.
type followerCut struct {
	e                *ensemble.Ensemble
	leader, follower int
	onFollower       *Session  // connected to the follower alone
	onLeader         *Session  // connected to the leader alone, traced
	trace            *traceLog // onLeader's trace
}

// newFollowerCut starts the two sessions of a followerCut on the local
// ensemble (it skips t against an external one). Each session has a
// single server and no proxy in between, so that when the follower is cut
// off the holder keeps talking to it, as a client of a partitioned
// follower does. The cut-off follower answers pings for syncLimit x
// tickTime (2.5 s on the test ensemble) after the cut; with ZooKeeper's
// shipped defaults (tickTime 2 s, syncLimit 5) it serves 10 s, longer than
// many sessions last.
func newFollowerCut(t *testing.T, ctx context.Context) *followerCut {
	t.Helper()
	e := ensembletest.RequireLocal(t)
	leader, err := e.Leader(ctx)
	if err != nil {
		t.Fatal(err)
	}
	f := &followerCut{e: e, leader: leader, follower: (leader + 1) % e.Size(), trace: &traceLog{}}
	addrs := e.Addrs()
	session := func(name, addr string, tl *traceLog) *Session {
		opts := []SessionOption{WithSessionTimeout(shortTimeout), timing(),
			WithLogger(slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn})))}
		if tl != nil {
			opts = append(opts, WithTracer(tl.add))
		}
		s, err := NewSession(ctx, []string{addr}, opts...)
		if err != nil {
			t.Fatalf("session for %s on %s: %v", name, addr, err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	f.onFollower = session("holder", addrs[f.follower], nil)
	f.onLeader = session("contender", addrs[f.leader], f.trace)
	return f
}

// cut isolates the follower from the rest of the ensemble and returns
// when; the ensemble is whole again when t ends (RequireLocal) or at heal.
func (f *followerCut) cut(t *testing.T) time.Time {
	t.Helper()
	if err := f.e.Isolate(f.follower); err != nil {
		t.Fatal(err)
	}
	at := time.Now()
	t.Logf("ZooKeeper leader %d, holder on follower %d, cut off at %s", f.leader, f.follower, at.Format("15:04:05.000"))
	return at
}

func (f *followerCut) heal(t *testing.T) {
	t.Helper()
	if err := f.e.HealAll(); err != nil {
		t.Fatal(err)
	}
}

// lossThenGrant waits until both the holder's lease has ended and the
// contender's acquisition p has returned, and returns when the lease
// ended. It fails t if p failed or ctx ends first, and reports whether
// the lease ended before p was granted: the order is what matters, not
// how long either took.
func lossThenGrant(t *testing.T, ctx context.Context, cut time.Time, lease *Lease, p *pending) (endedFirst bool) {
	t.Helper()
	var ended time.Time
	done, granted := lease.Done(), p.done // each set to nil once seen
	for done != nil || granted != nil {
		select {
		case <-done:
			done = nil
			ended = time.Now()
			t.Logf("holder's lease ended %v after the cut: %v", ended.Sub(cut).Round(time.Millisecond), lease.Err())
		case <-granted:
			granted = nil
			if p.err != nil {
				t.Fatalf("contender's acquisition: %v", p.err)
			}
			t.Logf("contender granted %v after the cut (token %d)", p.at.Sub(cut).Round(time.Millisecond), p.val.Token())
		case <-ctx.Done():
			t.Fatalf("holder's lease ended: %v, contender granted: %v, by the end of the wait", !ended.IsZero(), p.returned())
		}
	}
	if !ended.Before(p.at) {
		t.Errorf("both believed they held for %v: the holder's lease ended after the contender was granted",
			ended.Sub(p.at).Round(time.Millisecond))
		return false
	}
	return true
}

// TestFollowerCutOffFromLeader: a holder whose session lives on a follower
// that is cut off from the leader must stop believing it holds the lock
// before the leader, having expired that session, grants the lock to a
// client connected to it. The follower keeps answering the holder's pings
// for up to syncLimit x tickTime after the cut, and the leader hears none of
// them: a loss timer that trusts every acknowledged ping keeps the lease
// alive that much too long.
//
// Measured on the earlier loss timer (every acknowledged ping restarted
// it), 3 runs with 2 s sessions: both believed they held the lock for
// 1.20-1.47 s. The loss rule now counts only from requests a sync proved
// the leader heard of (lossClock); the mutant trust-follower-pings of
// cmd/mutants puts the earlier rule back and this test kills it.
func TestFollowerCutOffFromLeader(t *testing.T) {
	ctx := ctxFor(t, 2*time.Minute)
	f := newFollowerCut(t, ctx)
	path := lockPath(t)
	hm, err := NewMutex(f.onFollower, path)
	if err != nil {
		t.Fatal(err)
	}
	lease, err := hm.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	cm, err := NewMutex(f.onLeader, path)
	if err != nil {
		t.Fatal(err)
	}
	p := lockAsync(ctx, cm.Lock)
	f.trace.waitFor(t, "contender waiting behind the holder", time.Minute, waiting)
	cut := f.cut(t)
	lossThenGrant(t, ctx, cut, lease, p)
	f.heal(t)
	if err := p.val.Unlock(ctx); err != nil {
		t.Logf("contender's Unlock: %v", err)
	}
}
