package zklock

// Elections through outages: the ensemble down or stopped past a session, and replies lost.

import (
	"errors"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklock/zklock/ensemble/ensembletest"
	"github.com/zklock/zklock/faultinject"
	"github.com/zklock/zklock/traceevent"
)

// TestElectionEnsembleDownLongerThanSession guards against Curator's
// CURATOR-696 (two leaders once the ensemble had been unreachable for
// longer than the leader's session): every connection of the leader and of
// the candidate waiting behind it is cut for longer than their session
// timeout, then restored. Both learn of their sessions' loss on their own
// clocks: the leader's Done closes with ErrLockLost, the waiter's Campaign
// fails and it never leads. The processes campaign again on new sessions:
// exactly one leads, its node is owned by its current session (its
// ephemeralOwner is the session id, not a lost session's), and no node of
// a lost session is left. At no instant do two candidates believe they
// lead.
func TestElectionEnsembleDownLongerThanSession(t *testing.T) {
	p := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	adm := admin(t)
	a := newClient(t, "a", WithSessionTimeout(shortTimeout))
	b := newClient(t, "b", WithSessionTimeout(shortTimeout))
	la := campaign(t, ctx, election(t, a, p), "a")
	start := time.Now()
	lost := doneAt(la)
	pb := campaignTimed(ctx, election(t, b, p), "b")
	b.trace.waitFor(t, "b queued", 30*time.Second, waiting)
	down := time.Now()
	a.net.BlackholeUntilHealed()
	b.net.BlackholeUntilHealed()
	defer a.net.Heal()
	defer b.net.Heal()
	var lostAt time.Time
	select {
	case lostAt = <-lost:
	case <-time.After(2 * shortTimeout):
		t.Fatal("a still leads twice its session timeout into the outage")
	}
	if err := la.Err(); !errors.Is(err, ErrLockLost) || !errors.Is(err, ErrSessionLost) {
		t.Fatalf("a's Err = %v, want ErrLockLost and ErrSessionLost", err)
	}
	if _, err := pb.wait(t, 2*shortTimeout); !errors.Is(err, ErrSessionLost) {
		t.Fatalf("b's Campaign through the outage = %v, want ErrSessionLost", err)
	}
	// Down past the timeout, so that the server expires both sessions
	// before the connections come back.
	if d := shortTimeout + time.Second - time.Since(down); d > 0 {
		time.Sleep(d)
	}
	a.net.Heal()
	b.net.Heal()
	t.Logf("a stepped down %v into an outage of %v", lostAt.Sub(down).Round(time.Millisecond), time.Since(down).Round(time.Millisecond))
	tenures := []tenure{{"a", start, lostAt}}
	// Both campaign again, on new sessions.
	a2, b2 := newClient(t, "a2"), newClient(t, "b2")
	pa2 := campaignTimed(ctx, election(t, a2, p), "a2")
	pb2 := campaignTimed(ctx, election(t, b2, p), "b2")
	var first *Leadership
	var firstC *client
	var second *async[*Leadership]
	select {
	case <-pa2.done:
		first, firstC, second = pa2.val, a2, pb2
		if pa2.err != nil {
			t.Fatalf("a2: %v", pa2.err)
		}
		tenures = append(tenures, tenure{who: "a2", from: pa2.at})
	case <-pb2.done:
		first, firstC, second = pb2.val, b2, pa2
		if pb2.err != nil {
			t.Fatalf("b2: %v", pb2.err)
		}
		tenures = append(tenures, tenure{who: "b2", from: pb2.at})
	case <-time.After(30 * time.Second):
		t.Fatal("nobody leads after the outage")
	}
	time.Sleep(300 * time.Millisecond)
	if second.returned() {
		t.Fatalf("both lead after the outage (second: %v)", second.err)
	}
	_, st, err := adm.Get(first.Node())
	if err != nil {
		t.Fatalf("the leader's node %s: %v", first.Node(), err)
	}
	if st.EphemeralOwner != firstC.ID() {
		t.Fatalf("the leader's node is owned by session %#x, not its current one %#x", st.EphemeralOwner, firstC.ID())
	}
	for _, n := range nodes(t, adm, p) {
		if _, st, err := adm.Get(p + "/" + n); err == nil && (st.EphemeralOwner == a.ID() || st.EphemeralOwner == b.ID()) {
			t.Fatalf("node %s of a lost session is left", n)
		}
	}
	wantLeader(t, ctx, election(t, firstC, p), first, firstC.name)
	endFirst := doneAt(first)
	if err := first.Resign(ctx); err != nil {
		t.Fatal(err)
	}
	tenures[1].till = <-endFirst
	l2, err := second.wait(t, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	tenures = append(tenures, tenure{who: "second", from: second.at})
	for i := 1; i < len(tenures); i++ {
		if !tenures[i-1].till.Before(tenures[i].from) {
			t.Fatalf("%s led from %v while %s led until %v", tenures[i].who, tenures[i].from, tenures[i-1].who, tenures[i-1].till)
		}
	}
	if err := l2.Resign(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestElectionEnsembleStoppedLongerThanSession is CURATOR-696 as it
// happened: the whole ensemble is down (every server killed) for longer
// than the leader's session timeout, then started again. The servers
// bring the old sessions back with fresh timeouts, so the lost leader's
// node stands again until the server expires it. The leader and the
// candidate waiting behind it learn of their loss on their own clocks
// while the servers are down (the leader's Done closes with ErrLockLost
// and ErrSessionLost, the waiter's Campaign fails) and their sessions do
// not come back to life on the restart. A candidate on a new session
// leads only once the old node has gone, its node is owned by its current
// session, and it never leads while the lost leader believed it led.
func TestElectionEnsembleStoppedLongerThanSession(t *testing.T) {
	e := ensembletest.RequireLocal(t)
	p := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	a := newClient(t, "a", WithSessionTimeout(shortTimeout))
	b := newClient(t, "b", WithSessionTimeout(shortTimeout))
	la := campaign(t, ctx, election(t, a, p), "a")
	lost := doneAt(la)
	pb := campaignTimed(ctx, election(t, b, p), "b")
	b.trace.waitFor(t, "b queued", 30*time.Second, waiting)
	down := time.Now()
	for i := 0; i < e.Size(); i++ {
		if err := e.Kill(i); err != nil {
			t.Fatal(err)
		}
	}
	var lostAt time.Time
	select {
	case lostAt = <-lost:
	case <-time.After(2 * shortTimeout):
		t.Fatal("a still leads twice its session timeout into the outage")
	}
	if err := la.Err(); !errors.Is(err, ErrLockLost) || !errors.Is(err, ErrSessionLost) {
		t.Fatalf("a's Err = %v, want ErrLockLost and ErrSessionLost", err)
	}
	if _, err := pb.wait(t, 2*shortTimeout); !errors.Is(err, ErrSessionLost) {
		t.Fatalf("b's Campaign through the outage = %v, want ErrSessionLost", err)
	}
	if d := shortTimeout + 250*time.Millisecond - time.Since(down); d > 0 {
		time.Sleep(d)
	}
	if err := e.Heal(ctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("a stepped down %v into the outage; the ensemble was back %v after it began",
		lostAt.Sub(down).Round(time.Millisecond), time.Since(down).Round(time.Millisecond))
	adm := admin(t)
	t.Logf("nodes once the ensemble is back: %v", nodes(t, adm, p))
	a2 := newClient(t, "a2")
	p2 := campaignTimed(ctx, election(t, a2, p), "a2")
	l2, err := p2.wait(t, 30*time.Second)
	if err != nil {
		t.Fatalf("a2 after the outage: %v", err)
	}
	t.Logf("a2 led %v after the outage began", p2.at.Sub(down).Round(time.Millisecond))
	if !lostAt.Before(p2.at) {
		t.Fatalf("a2 led from %v while a believed it led until %v", p2.at, lostAt)
	}
	_, st, err := adm.Get(l2.Node())
	if err != nil {
		t.Fatalf("a2's node %s: %v", l2.Node(), err)
	}
	if st.EphemeralOwner != a2.ID() {
		t.Fatalf("a2's node is owned by session %#x, not its current one %#x", st.EphemeralOwner, a2.ID())
	}
	if got := nodes(t, adm, p); len(got) != 1 {
		t.Fatalf("nodes %v while a2 leads, want only a2's", got)
	}
	if a.Err() == nil || b.Err() == nil {
		t.Fatalf("a lost session came back: a %v, b %v", a.Err(), b.Err())
	}
	if err := l2.Resign(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestElectionProclaimReplyLost: the leader's Proclaim reaches the server
// and is applied, but its reply is lost with the connection. Proclaim
// returns an error matching zk.ErrConnectionClosed (written or not, it
// cannot say) and we still lead; the observer reports the new value; and
// the trace, which the model checks at cleanup, has the Proclaim as
// "lost", which the model takes as applied. Left out of the trace, the
// observer's report would be of a write nobody made.
func TestElectionProclaimReplyLost(t *testing.T) {
	p := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	a, o := newClient(t, "a"), newClient(t, "o")
	ea, eo := election(t, a, p), election(t, o, p)
	la := campaign(t, ctx, ea, "v1")
	obs := observe(t, ctx, eo)
	if info := next(t, obs, "first"); string(info.Value) != "v1" {
		t.Fatalf("first report %+v, want v1", info)
	}
	cut := a.net.CutAfterRequest(faultinject.OpMulti)
	perr := la.Proclaim(ctx, []byte("v2"))
	report, err := cut.Wait(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !report.ReplyDropped || report.Err != 0 {
		t.Fatalf("the cut did not drop a successful multi reply: %+v", report)
	}
	if !errors.Is(perr, zk.ErrConnectionClosed) {
		t.Fatalf("Proclaim with its reply lost: %v, want zk.ErrConnectionClosed", perr)
	}
	if info := next(t, obs, "v2"); string(info.Value) != "v2" || info.Epoch != la.Epoch() {
		t.Fatalf("report %+v, want v2 at epoch %d", info, la.Epoch())
	}
	lost := func(ev TraceEvent) bool {
		return ev.Action == traceevent.Proclaim && ev.Result == traceevent.ResultLost
	}
	if n := a.trace.count(lost); n != 1 {
		t.Fatalf("%d lost Proclaims traced, want 1; trace:\n%s", n, a.trace.dump())
	}
	select {
	case <-la.Done():
		t.Fatalf("the leadership ended with a lost Proclaim reply: %v", la.Err())
	default:
	}
	if err := la.Proclaim(ctx, []byte("v3")); err != nil {
		t.Fatalf("Proclaim after the lost reply: %v", err)
	}
	if info := next(t, obs, "v3"); string(info.Value) != "v3" {
		t.Fatalf("report %+v, want v3", info)
	}
	if err := la.Resign(ctx); err != nil {
		t.Fatal(err)
	}
}

// A Resign whose delete reply is lost retries the delete, which finds the
// node gone: its first delete landed. The trace's Release must not take
// the zxid of the leader's last Proclaim for the delete's (the wire keeps
// the zxid of the last write naming the node, and a Proclaim's multi
// checks the node first): the delete would then precede b's join, whose
// listing shows the node, and a chaos campaign's trace was judged INVALID
// for it.
func TestElectionResignReplyLost(t *testing.T) {
	p := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	a, b := newClient(t, "a"), newClient(t, "b")
	ea, eb := election(t, a, p), election(t, b, p)
	la := campaign(t, ctx, ea, "v1")
	if err := la.Proclaim(ctx, []byte("v2")); err != nil {
		t.Fatal(err)
	}
	proclaimed := a.trace.waitFor(t, "the Proclaim", 10*time.Second, action(traceevent.Proclaim)).Zxid
	cb := queued(t, ctx, b, eb, "b")
	cut := a.net.CutAfterRequest(faultinject.OpDelete)
	rerr := la.Resign(ctx)
	report, err := cut.Wait(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !report.ReplyDropped || report.Err != 0 {
		t.Fatalf("the cut did not drop a successful delete reply: %+v", report)
	}
	if rerr != nil {
		t.Fatalf("Resign with its delete reply lost: %v, want nil (the retry finds the node gone)", rerr)
	}
	lb, err := cb.wait(t, 30*time.Second)
	if err != nil {
		t.Fatalf("b's Campaign after a's Resign: %v", err)
	}
	rel := a.trace.waitFor(t, "the Release", 10*time.Second, action(traceevent.Release))
	if rel.Zxid != 0 && rel.Zxid <= proclaimed {
		t.Fatalf("Release traced at zxid %d, not after the Proclaim's %d; trace:\n%s", rel.Zxid, proclaimed, a.trace.dump())
	}
	if err := lb.Resign(ctx); err != nil {
		t.Fatal(err)
	}
}
