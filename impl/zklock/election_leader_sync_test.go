package zklock

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestElectionLeaderSyncsFirst: Election.Leader syncs before it reads, so
// it sees every change acknowledged before the call, even on a server
// that has not applied it. The reader's session lives on a follower that
// is then cut off from the ZooKeeper leader, which goes on with the rest:
// a resigns there and b leads (both acknowledged by a majority without the
// follower). The follower still answers reads for syncLimit ticks, from
// before a resigned; the sync it cannot pass on to the leader does not
// complete, so Leader must not report a: it reports b or fails (here the
// bounded wait ends first). Without the sync it read a from the follower.
func TestElectionLeaderSyncsFirst(t *testing.T) {
	ctx := ctxFor(t, 2*time.Minute)
	f := newFollowerCut(t, ctx)
	p := lockPath(t)
	ea, err := NewElection(f.onLeader, p)
	if err != nil {
		t.Fatal(err)
	}
	eb, err := NewElection(f.onLeader, p)
	if err != nil {
		t.Fatal(err)
	}
	er, err := NewElection(f.onFollower, p)
	if err != nil {
		t.Fatal(err)
	}
	la := campaign(t, ctx, ea, "a")
	pb := campaignAsync(ctx, eb, "b")
	f.trace.waitFor(t, "b queued", 30*time.Second, waiting)
	// The follower has applied a's lead: the reader sees it before the cut.
	wantLeader(t, ctx, er, la, "a")
	f.cut(t)
	defer f.heal(t)
	lb := takeOver(t, ctx, la, pb, "b led while a did: %v")
	rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	info, err := er.Leader(rctx)
	switch {
	case err == nil && info.Epoch == la.Epoch():
		t.Fatalf("Leader on the cut-off follower reported a (epoch %d), who resigned before the call; b leads (epoch %d)", info.Epoch, lb.Epoch())
	case err == nil && info.Epoch != lb.Epoch():
		t.Fatalf("Leader reported %+v, want b (epoch %d) or an error", info, lb.Epoch())
	case err != nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, ErrSessionLost) && !errors.Is(err, ErrSessionExpired):
		t.Fatalf("Leader on the cut-off follower = %v, want b, the context's end or the session's loss", err)
	}
	t.Logf("Leader on the cut-off follower: %+v, %v", info, err)
	if err := lb.Resign(ctx); err != nil {
		t.Logf("b's Resign: %v", err)
	}
}
