package zklock

import (
	"context"
	"errors"
	"path"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklock/zklock/ensemble/ensembletest"
	"github.com/zklock/zklock/faultinject"
	"github.com/zklock/zklock/traceevent"
)

// The election under the faults the lock's tests survive, on the real
// ensemble: a paused leader, a lost create reply, the ZooKeeper leader
// killed, an observer's reconnect, a leader on a cut-off follower and a
// loss longer than the session (Curator's CURATOR-696).

// campaignTimed runs Campaign on its own goroutine.
func campaignTimed(ctx context.Context, e *Election, value string) *async[*Leadership] {
	return goAsync(ctx, func(ctx context.Context) (*Leadership, error) { return e.Campaign(ctx, []byte(value)) })
}

// doneAt returns a channel that receives the time l's Done closed (l a
// Leadership or a Lease).
func doneAt(l interface{ Done() <-chan struct{} }) <-chan time.Time {
	ch := make(chan time.Time, 1)
	go func() {
		<-l.Done()
		ch <- time.Now()
	}()
	return ch
}

// fencedHolder is what a lease and a leadership share: their end, and the
// writes fenced by them.
type fencedHolder interface {
	Err() error
	Guard(ctx context.Context, ops ...any) ([]zk.MultiResponse, error)
	Check() (*zk.CheckVersionRequest, error)
}

// fencedResource creates the resource node p-resource with a guarded write
// of h (holding as writer), removed when the test ends, and returns its path
// with the Check h takes now, while it holds, and a channel that receives
// the time h's Done closed: what fencedOut needs once h is paused past its
// session and resumes.
func fencedResource(t *testing.T, ctx context.Context, adm *adminClient, h interface {
	fencedHolder
	Done() <-chan struct{}
}, p, writer string) (resource string, check *zk.CheckVersionRequest, lost <-chan time.Time) {
	t.Helper()
	resource = p + "-resource"
	if _, err := h.Guard(ctx, &zk.CreateRequest{Path: resource, Data: []byte(writer), Acl: zk.WorldACL(zk.PermAll)}); err != nil {
		t.Fatalf("%s's guarded create of the resource: %v", writer, err)
	}
	t.Cleanup(func() { adm.Delete(resource, -1) })
	check, err := h.Check()
	if err != nil {
		t.Fatal(err)
	}
	return resource, check, doneAt(h)
}

// fencedOut asserts that old, a holder whose session expired while it was
// paused, is fenced out now that it resumed: its Err says ErrLockLost and
// ErrSessionLost, its Guard and Check say ErrNotHeld, and a multi headed by
// check (the Check it took while holding, sent late by a connection that
// still works) is refused by the server, leaving resource as newWriter
// wrote it.
func fencedOut(t *testing.T, ctx context.Context, adm *adminClient, old fencedHolder, check *zk.CheckVersionRequest, resource, newWriter string) {
	t.Helper()
	if err := old.Err(); !errors.Is(err, ErrLockLost) || !errors.Is(err, ErrSessionLost) {
		t.Fatalf("a's Err = %v, want ErrLockLost and ErrSessionLost", err)
	}
	if _, err := old.Guard(ctx, &zk.SetDataRequest{Path: resource, Data: []byte("a late"), Version: -1}); !errors.Is(err, ErrNotHeld) {
		t.Fatalf("a's Guard after it resumed = %v, want ErrNotHeld", err)
	}
	if _, err := old.Check(); !errors.Is(err, ErrNotHeld) {
		t.Fatalf("a's Check after it resumed = %v, want ErrNotHeld", err)
	}
	if _, err := adm.Multi(check, &zk.SetDataRequest{Path: resource, Data: []byte("a late"), Version: -1}); err == nil {
		t.Fatalf("a multi headed by a's old Check was applied after %s took over", newWriter)
	}
	if data, _, err := adm.Get(resource); err != nil || string(data) != newWriter {
		t.Fatalf("resource = %q (%v), want %s's write", data, err, newWriter)
	}
}

// TestElectionLeaderPausedFenced: a leader whose process stops answering
// (its connection blackholed past its session timeout, as for the lock
// holder of TestHolderSessionExpires) steps down on its own loss clock
// before the candidate waiting behind it leads, with a higher epoch. Once
// it resumes, its fenced writes are refused: Guard says ErrNotHeld, and a
// multi headed by the Check it took while leading fails on the server,
// leaving the resource as the new leader wrote it. Its Done is closed with
// ErrLockLost and ErrSessionLost. A leader that went on acting on a
// leadership it believed it held, as a paused LeaderLatch does until its
// connection-state listener runs, is what this guards against.
func TestElectionLeaderPausedFenced(t *testing.T) {
	p := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	adm := admin(t)
	a := newClient(t, "a", WithSessionTimeout(shortTimeout))
	b := newClient(t, "b")
	ea, eb := election(t, a, p), election(t, b, p)
	la := campaign(t, ctx, ea, "a")
	resource, check, lost := fencedResource(t, ctx, adm, la, p, "a")
	pb := campaignTimed(ctx, eb, "b")
	b.trace.waitFor(t, "b queued behind a", 30*time.Second, waiting)
	paused := time.Now()
	a.net.BlackholeUntilHealed()
	defer a.net.Heal()
	lb, err := pb.wait(t, 30*time.Second)
	if err != nil {
		t.Fatalf("b after a's pause: %v", err)
	}
	var lostAt time.Time
	select {
	case lostAt = <-lost:
	default:
		t.Fatal("b leads while a's leadership has not ended: two leaders")
	}
	if !lostAt.Before(pb.at) {
		t.Fatalf("a stepped down %v after b began to lead", lostAt.Sub(pb.at))
	}
	t.Logf("a stepped down %v after the pause, %v before b led", lostAt.Sub(paused).Round(time.Millisecond), pb.at.Sub(lostAt).Round(time.Millisecond))
	if lb.Epoch() <= la.Epoch() {
		t.Fatalf("b's epoch %d is not above a's %d", lb.Epoch(), la.Epoch())
	}
	if _, err := lb.Guard(ctx, &zk.SetDataRequest{Path: resource, Data: []byte("b"), Version: -1}); err != nil {
		t.Fatalf("b's guarded write: %v", err)
	}
	a.net.Heal() // a resumes
	fencedOut(t, ctx, adm, la, check, resource, "b")
	if err := lb.Resign(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestElectionCreateReplyLost: the server makes Campaign's candidate node
// but the reply never reaches us. Campaign finds the node by its uuid, as
// Lock does (TestCreateReplyLost): it leads exactly once, with exactly one
// node of its own, and no duplicate is left behind; contended, it waits
// behind the leader with that one node.
func TestElectionCreateReplyLost(t *testing.T) {
	for _, contended := range []bool{false, true} {
		name := map[bool]string{false: "free", true: "contended"}[contended]
		t.Run(name, func(t *testing.T) {
			p := lockPath(t)
			ctx := ctxFor(t, time.Minute)
			adm := admin(t)
			h := newClient(t, "leader")
			// The parents exist already: the cut create is the one that
			// succeeds.
			lh := campaign(t, ctx, election(t, h, p), "h")
			if !contended {
				if err := lh.Resign(ctx); err != nil {
					t.Fatal(err)
				}
			}
			c := newClient(t, "cut")
			ec := election(t, c, p)
			cut := c.net.CutAfterRequest(faultinject.OpCreate2)
			pc := campaignTimed(ctx, ec, "c")
			report, err := cut.Wait(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if !report.ReplyDropped || report.Err != 0 {
				t.Fatalf("the cut did not drop a successful create reply: %+v", report)
			}
			if contended {
				c.trace.waitFor(t, "queued after the cut", 30*time.Second, waiting)
				if got := ours(nodes(t, adm, p), c.trace); got != 1 {
					t.Fatalf("%d nodes of ours while waiting, want 1", got)
				}
				if pc.returned() {
					t.Fatalf("Campaign returned (%v) while the leader leads", pc.err)
				}
				if err := lh.Resign(ctx); err != nil {
					t.Fatal(err)
				}
			}
			lc, err := pc.wait(t, 30*time.Second)
			if err != nil {
				t.Fatalf("Campaign after a lost create reply: %v", err)
			}
			if n := c.trace.count(action(traceevent.CreateReplyLost)); n != 1 {
				t.Fatalf("%d CreateReplyLost steps, want 1; trace:\n%s", n, c.trace.dump())
			}
			c.trace.waitFor(t, "own node found", time.Second, func(ev TraceEvent) bool {
				return ev.Action == traceevent.FindOwnNode && ev.Result == traceevent.ResultFound
			})
			if got := nodes(t, adm, p); len(got) != 1 || got[0] != path.Base(lc.Node()) {
				t.Fatalf("nodes %v while leading, want exactly our %s", got, path.Base(lc.Node()))
			}
			wantLeader(t, ctx, ec, lc, "c")
			if err := lc.Resign(ctx); err != nil {
				t.Fatal(err)
			}
			eventually(t, "no node left after Resign", 5*time.Second, func() bool {
				return len(nodes(t, adm, p)) == 0
			})
		})
	}
}

// TestElectionZooKeeperLeaderKilled: the ZooKeeper ensemble's leader
// server dies while a candidate leads, another waits and an observer
// observes. As for the lock (TestLeaderKilled), a session survives the
// ensemble's election within the room its timeout leaves: the leader keeps
// leading (a Guard succeeds on the new quorum) and the waiter does not
// lead beside it; if the leader's session were lost after all, its Done
// must close before the waiter leads. The observer reports no other
// leader meanwhile, keeps its channel open, and reports the waiter once
// the leader resigns.
func TestElectionZooKeeperLeaderKilled(t *testing.T) {
	e := ensembletest.RequireLocal(t)
	p := lockPath(t)
	ctx := ctxFor(t, 2*time.Minute)
	room := []SessionOption{WithSessionTimeout(10 * time.Second), WithDriftMargin(time.Second)}
	a, b, o := newClient(t, "a", room...), newClient(t, "b", room...), newClient(t, "o", room...)
	ea, eb, eo := election(t, a, p), election(t, b, p), election(t, o, p)
	la := campaign(t, ctx, ea, "a")
	lost := doneAt(la)
	obs := observe(t, ctx, eo)
	if info := next(t, obs, "a leads"); info.Epoch != la.Epoch() {
		t.Fatalf("report %+v, want a at epoch %d", info, la.Epoch())
	}
	pb := campaignTimed(ctx, eb, "b")
	b.trace.waitFor(t, "b queued", 30*time.Second, waiting)
	killed := killZooKeeperLeader(t, ctx, e, 30*time.Second)
	if _, err := la.Guard(ctx); err != nil {
		// The session was lost after all: then a stepped down before b
		// led, never beside it.
		t.Logf("a's leadership did not survive the election: %v", err)
		lb, err := pb.wait(t, 30*time.Second)
		if err != nil {
			t.Fatalf("b after a's loss: %v", err)
		}
		select {
		case at := <-lost:
			if !at.Before(pb.at) {
				t.Fatalf("a stepped down %v after b led", at.Sub(pb.at))
			}
		default:
			t.Fatal("b leads while a's leadership has not ended")
		}
		if info := next(t, obs, "b leads"); info.Epoch != lb.Epoch() {
			t.Fatalf("report %+v, want b at epoch %d", info, lb.Epoch())
		}
		lb.Resign(ctx)
		return
	}
	t.Logf("a's guard succeeded %v after the kill", time.Since(killed).Round(time.Millisecond))
	if pb.returned() {
		t.Fatalf("b's Campaign returned (%v) while a leads", pb.err)
	}
	// Any report now is a's again (a look after the observer's reconnect
	// that found the same leader is not reported).
	select {
	case info, ok := <-obs.Leaders():
		if !ok {
			t.Fatalf("the observation ended across the ZooKeeper election: %v", obs.Err())
		}
		if info.Epoch != la.Epoch() {
			t.Fatalf("observer reported %+v while a leads", info)
		}
	case <-time.After(500 * time.Millisecond):
	}
	if err := la.Resign(ctx); err != nil {
		t.Fatal(err)
	}
	lb, err := pb.wait(t, 30*time.Second)
	if err != nil {
		t.Fatalf("b after a resigned: %v", err)
	}
	for {
		info := next(t, obs, "b leads")
		if info.Vacant() {
			continue // a's node went before the observer saw b's
		}
		if info.Epoch != lb.Epoch() {
			t.Fatalf("report %+v, want b at epoch %d", info, lb.Epoch())
		}
		break
	}
	if err := lb.Resign(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestElectionObserverAcrossReconnect: an observer's connection is severed
// and stays down while the leader resigns and the next candidate leads.
// After the reconnect the observer reports the new leader, with a higher
// epoch; it never reports an older epoch than one it has reported, and its
// channel stays open (Err nil).
func TestElectionObserverAcrossReconnect(t *testing.T) {
	p := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	a, b, o := newClient(t, "a"), newClient(t, "b"), newClient(t, "o")
	ea, eb, eo := election(t, a, p), election(t, b, p), election(t, o, p)
	la := campaign(t, ctx, ea, "a")
	obs := observe(t, ctx, eo)
	if info := next(t, obs, "a leads"); info.Epoch != la.Epoch() {
		t.Fatalf("report %+v, want a at epoch %d", info, la.Epoch())
	}
	pb := campaignTimed(ctx, eb, "b")
	b.trace.waitFor(t, "b queued", 30*time.Second, waiting)
	// Down and kept down: the reconnect finds nothing to talk to until
	// the heal, well within o's session timeout.
	o.net.BlackholeUntilHealed()
	if n := o.net.Sever(); n == 0 {
		t.Fatal("the observer had no connection to sever")
	}
	if err := la.Resign(ctx); err != nil {
		t.Fatal(err)
	}
	lb, err := pb.wait(t, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if lb.Epoch() <= la.Epoch() {
		t.Fatalf("b's epoch %d is not above a's %d", lb.Epoch(), la.Epoch())
	}
	time.Sleep(time.Second)
	o.net.Heal()
	last := la.Epoch()
	for {
		info := next(t, obs, "b leads after the reconnect")
		if info.Vacant() {
			continue
		}
		if info.Epoch < last {
			t.Fatalf("report %+v: epoch %d after %d", info, info.Epoch, last)
		}
		last = info.Epoch
		if info.Epoch == lb.Epoch() {
			if string(info.Value) != "b" {
				t.Fatalf("report %+v, want b's value", info)
			}
			break
		}
	}
	quiet(t, obs, 300*time.Millisecond, "nothing more while b leads")
	if err := obs.Err(); err != nil {
		t.Fatalf("observation Err = %v while it runs", err)
	}
	if err := o.Err(); err != nil {
		t.Fatalf("the observer's session: %v", err)
	}
	if err := lb.Resign(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestElectionLeaderOnCutOffFollower: as TestFollowerCutOffFromLeader for a
// lock holder: the leader's session lives on a follower that is cut off
// from the ZooKeeper leader, which keeps answering its pings for syncLimit
// x tickTime. The leader must step down (Done closes, ErrLockLost) before
// the candidate connected to the ZooKeeper leader leads, once the leader
// has expired the cut-off session. A loss clock that trusts a follower's
// pings would let both lead for a second or more.
func TestElectionLeaderOnCutOffFollower(t *testing.T) {
	ctx := ctxFor(t, time.Minute)
	f := newFollowerCut(t, ctx)
	p := lockPath(t)
	el, err := NewElection(f.onFollower, p)
	if err != nil {
		t.Fatal(err)
	}
	ec, err := NewElection(f.onLeader, p)
	if err != nil {
		t.Fatal(err)
	}
	ll := campaign(t, ctx, el, "leader")
	pc := campaignTimed(ctx, ec, "candidate")
	f.trace.waitFor(t, "the candidate waits behind the leader", 30*time.Second, waiting)
	cut := f.cut(t)
	var ended time.Time
	done, camp := ll.Done(), pc.done
	for done != nil || camp != nil {
		select {
		case <-done:
			done = nil
			ended = time.Now()
			t.Logf("the leader stepped down %v after the cut: %v", ended.Sub(cut).Round(time.Millisecond), ll.Err())
		case <-camp:
			camp = nil
			if pc.err != nil {
				t.Fatalf("the candidate's Campaign: %v", pc.err)
			}
			t.Logf("the candidate leads %v after the cut (epoch %d)", pc.at.Sub(cut).Round(time.Millisecond), pc.val.Epoch())
		case <-ctx.Done():
			t.Fatalf("leader stepped down: %v, candidate leads: %v, by the end of the wait", !ended.IsZero(), pc.returned())
		}
	}
	if !ended.Before(pc.at) {
		t.Errorf("both led %s for %v: the leader stepped down after the candidate was elected",
			p, ended.Sub(pc.at).Round(time.Millisecond))
	}
	if err := ll.Err(); !errors.Is(err, ErrLockLost) {
		t.Errorf("the leader's Err = %v, want ErrLockLost", err)
	}
	if pc.val.Epoch() <= ll.Epoch() {
		t.Errorf("the candidate's epoch %d is not above the leader's %d", pc.val.Epoch(), ll.Epoch())
	}
	f.heal(t)
	if err := pc.val.Resign(ctx); err != nil {
		t.Logf("the candidate's Resign: %v", err)
	}
}

// tenure is when one candidate believed it led (or one acquirer believed
// it held a lease): from its Campaign's (Acquire's) return until its Done
// closed or it let go (zero while it still leads or holds).
type tenure struct {
	who        string
	from, till time.Time
}
