package zklock

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/zklock/zklock/ensemble"
	"github.com/zklock/zklock/ensemble/ensembletest"
)

// TestReconnectToLargerMinSessionTimeout: servers with other session
// timeout bounds (a rolling change of configuration) negotiate other
// timeouts on a reconnect. The session is created on a server that grants
// the 8 s asked for, then moves, when that server dies, to one whose
// minSessionTimeout is 12 s: the server negotiates 12 s (its cons shows
// it), but the session keeps counting its loss deadline from 8 s, since a
// new leader would re-arm it with the 8 s createSession stored
// (spec/tla/SessionClock.tla, LatestTimeout; code mutant latest-timeout).
// It runs its own ensemble, whose third server has the larger minimum.
func TestReconnectToLargerMinSessionTimeout(t *testing.T) {
	ensembletest.RequireLocal(t)
	ctx := ctxFor(t, 3*time.Minute)
	const asked, larger = 8 * time.Second, 12 * time.Second
	e, err := ensemble.Start(ctx, ensemble.Config{ServerConfig: [][]string{nil, nil,
		{fmt.Sprintf("minSessionTimeout=%d", larger.Milliseconds()), "maxSessionTimeout=20000"}}})
	if err != nil {
		t.Fatalf("ensemble: %v", err)
	}
	t.Cleanup(func() { e.Stop() })
	addrs := e.Addrs()
	// Create the session on a server of the default bounds: the one with
	// the larger minimum is down, and the other default one is the leader
	// (killing a follower next needs no election).
	if err := e.Kill(2); err != nil {
		t.Fatal(err)
	}
	if err := e.WaitHealthy(ctx); err != nil {
		t.Fatal(err)
	}
	leader, err := e.Leader(ctx)
	if err != nil {
		t.Fatal(err)
	}
	first := 1 - leader
	s, err := NewSession(ctx, []string{addrs[first], addrs[2]}, WithSessionTimeout(asked),
		WithEnsembleTiming(e.TickTime(), e.SyncLimit()))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := s.Timeout(); got != asked {
		t.Fatalf("negotiated %v on server %d, want %v", got, first, asked)
	}
	if err := e.Restart(ctx, 2); err != nil {
		t.Fatal(err)
	}
	if err := e.WaitHealthy(ctx); err != nil {
		t.Fatal(err)
	}
	if err := e.Kill(first); err != nil {
		t.Fatal(err)
	}
	// The session moves to server 2, which negotiates the larger timeout.
	to := fmt.Sprintf("to=%d", larger.Milliseconds())
	sid := fmt.Sprintf("sid=0x%x", s.ID())
	eventually(t, "the session reattached on server 2 with "+to, time.Minute, func() bool {
		out, err := e.FourLetter(ctx, 2, "cons")
		if err != nil {
			return false
		}
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, sid) && strings.Contains(l, to+",") {
				return true
			}
		}
		return false
	})
	eventually(t, "the session read the reattach's reply", 30*time.Second, func() bool { return s.attaches.Load() >= 2 })
	if err := s.Err(); err != nil {
		t.Fatalf("session lost over the move: %v", err)
	}
	if got := s.Timeout(); got != asked {
		t.Fatalf("Timeout %v after the reconnect to a server that negotiated %v, want %v", got, larger, asked)
	}
	at := s.lossNow()
	if deadline, _ := s.deadline(); deadline.After(at.Add(asked - asked/5)) {
		t.Fatalf("the loss deadline is %v away, past %v: it counts from the larger timeout", deadline.Sub(at), asked-asked/5)
	}
}
