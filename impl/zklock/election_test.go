package zklock

import (
	"context"
	"errors"
	"fmt"
	"path"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/zklock/zklock/ensemble/ensembletest"
	"github.com/zklock/zklock/traceevent"
)

// The election is a Mutex whose candidates are LeaderLatch nodes: these
// tests show what it adds (Leader, Observe, Proclaim, Resign) and that the
// candidates' queue behaves as the lock's, on the real ensemble.

// campaigning is a Campaign running on its own goroutine.
type campaigning struct {
	l    *Leadership
	err  error
	done chan struct{}
}

// takeOver asserts that p's candidate has not led while from leads (else
// it fails with notYet, a format for p's result), has from resign, and
// returns the leadership p's candidate then takes.
func takeOver(t *testing.T, ctx context.Context, from *Leadership, p *campaigning, notYet string) *Leadership {
	t.Helper()
	if p.returned() {
		t.Fatalf(notYet, p.err)
	}
	if err := from.Resign(ctx); err != nil {
		t.Fatal(err)
	}
	l, err := p.wait(t, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// observe starts an Observation of e, failing the test if it cannot.
func observe(t *testing.T, ctx context.Context, e *Election) *Observation {
	t.Helper()
	obs, err := e.Observe(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return obs
}

// queued starts c's Campaign on e (campaignAsync) and waits until its
// candidate waits in the queue.
func queued(t *testing.T, ctx context.Context, c *client, e *Election, value string) *campaigning {
	t.Helper()
	p := campaignAsync(ctx, e, value)
	c.trace.waitFor(t, c.name+" queued", 30*time.Second, waiting)
	return p
}

func campaignAsync(ctx context.Context, e *Election, value string) *campaigning {
	c := &campaigning{done: make(chan struct{})}
	go func() {
		c.l, c.err = e.Campaign(ctx, []byte(value))
		close(c.done)
	}()
	return c
}

func (c *campaigning) wait(t *testing.T, d time.Duration) (*Leadership, error) {
	t.Helper()
	select {
	case <-c.done:
		return c.l, c.err
	case <-time.After(d):
		t.Fatalf("Campaign did not return within %v", d)
		return nil, nil
	}
}

func (c *campaigning) returned() bool {
	select {
	case <-c.done:
		return true
	default:
		return false
	}
}

func election(t *testing.T, c *client, p string) *Election {
	t.Helper()
	e, err := NewElection(c.Session, p)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func campaign(t *testing.T, ctx context.Context, e *Election, value string) *Leadership {
	t.Helper()
	l, err := e.Campaign(ctx, []byte(value))
	if err != nil {
		t.Fatalf("Campaign(%q): %v", value, err)
	}
	return l
}

// wantLeader checks Leader against a leadership and its value.
func wantLeader(t *testing.T, ctx context.Context, e *Election, l *Leadership, value string) {
	t.Helper()
	info, err := e.Leader(ctx)
	if err != nil {
		t.Fatalf("Leader: %v", err)
	}
	if info.Node != l.Node() || string(info.Value) != value || info.Epoch != l.Epoch() || info.Vacant() || info.Since.IsZero() {
		t.Fatalf("Leader = %+v, want node %s value %q epoch %d", info, l.Node(), value, l.Epoch())
	}
}

// TestElectionBasic: one of two candidates leads, Resign hands over to the
// one waiting, Leader reports who leads with its value and epoch and
// ErrNoLeader when nobody does, and epochs only grow: a candidate that
// resigns and campaigns again queues behind the rival that was waiting.
func TestElectionBasic(t *testing.T) {
	p := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	a, b := newClient(t, "a"), newClient(t, "b")
	ea, eb := election(t, a, p), election(t, b, p)
	if _, err := ea.Leader(ctx); !errors.Is(err, ErrNoLeader) {
		t.Fatalf("Leader of an empty election = %v, want ErrNoLeader", err)
	}
	la := campaign(t, ctx, ea, "a")
	if !strings.Contains(path.Base(la.Node()), "-latch-") || !strings.HasPrefix(path.Base(la.Node()), "_c_") {
		t.Fatalf("candidate node %s is not named as Curator's LeaderLatch names it", la.Node())
	}
	wantLeader(t, ctx, eb, la, "a")
	pb := queued(t, ctx, b, eb, "b")
	if pb.returned() {
		t.Fatalf("b leads (%v) beside a", pb.err)
	}
	if err := la.Resign(ctx); err != nil {
		t.Fatal(err)
	}
	if err := la.Err(); !errors.Is(err, ErrReleased) {
		t.Fatalf("Err after Resign = %v, want ErrReleased", err)
	}
	lb, err := pb.wait(t, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if lb.Epoch() <= la.Epoch() {
		t.Fatalf("b's epoch %d not above a's %d", lb.Epoch(), la.Epoch())
	}
	wantLeader(t, ctx, ea, lb, "b")
	// a campaigns again: it queues behind b, and its epoch is higher still.
	pa := queued(t, ctx, a, ea, "a2")
	la2 := takeOver(t, ctx, lb, pa, "a leads again (%v) beside b")
	if la2.Epoch() <= lb.Epoch() {
		t.Fatalf("a's new epoch %d not above b's %d", la2.Epoch(), lb.Epoch())
	}
	wantLeader(t, ctx, eb, la2, "a2")
	if err := la2.Resign(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := eb.Leader(ctx); !errors.Is(err, ErrNoLeader) {
		t.Fatalf("Leader after every Resign = %v, want ErrNoLeader", err)
	}
	if err := la2.Resign(ctx); !errors.Is(err, ErrNotHeld) {
		t.Fatalf("second Resign = %v, want ErrNotHeld", err)
	}
}

// next receives the observation's next report.
func next(t *testing.T, o *Observation, what string) LeaderInfo {
	t.Helper()
	select {
	case info, ok := <-o.Leaders():
		if !ok {
			t.Fatalf("%s: observation ended: %v", what, o.Err())
		}
		return info
	case <-time.After(30 * time.Second):
		t.Fatalf("%s: no report within 30s", what)
	}
	return LeaderInfo{}
}

// quiet checks that the observation reports nothing for a moment.
func quiet(t *testing.T, o *Observation, d time.Duration, what string) {
	t.Helper()
	select {
	case info, ok := <-o.Leaders():
		t.Fatalf("%s: reported %+v (open %v)", what, info, ok)
	case <-time.After(d):
	}
}

// ended waits for the observation's channel to close and returns Err.
func ended(t *testing.T, o *Observation) error {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case _, ok := <-o.Leaders():
			if !ok {
				return o.Err()
			}
		case <-deadline:
			t.Fatal("observation not closed within 30s")
		}
	}
}

// TestElectionProclaim: Proclaim changes the value observers and Leader
// see (a value proclaimed again is no change), keeps Guard working, and
// writes nothing once the leadership is lost: here our node was deleted
// and a node of the same name made by someone else, which a bare setData
// would write into.
func TestElectionProclaim(t *testing.T) {
	skipTraceCheck(t, "an impostor (an untraced admin client) deletes the leader's node and creates one of its name: "+
		"Election's nodes are written by its candidates only, so the model has no step for either")
	p := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	a, o := newClient(t, "a"), newClient(t, "o")
	ea, eo := election(t, a, p), election(t, o, p)
	la := campaign(t, ctx, ea, "v1")
	obs := observe(t, ctx, eo)
	if info := next(t, obs, "first"); string(info.Value) != "v1" || info.Epoch != la.Epoch() {
		t.Fatalf("first report %+v, want v1 at epoch %d", info, la.Epoch())
	}
	proclaim := func(v string) {
		t.Helper()
		if err := la.Proclaim(ctx, []byte(v)); err != nil {
			t.Fatalf("Proclaim(%s): %v", v, err)
		}
	}
	want := func(v string) {
		t.Helper()
		if info := next(t, obs, v); string(info.Value) != v || info.Epoch != la.Epoch() {
			t.Fatalf("report %+v, want %s at epoch %d (a value proclaimed again is no change)", info, v, la.Epoch())
		}
	}
	proclaim("v2")
	want("v2")
	// The same value again wakes the observer, which reads it, re-arms its
	// watch (before it would send) and reports nothing.
	armed := o.trace.count(action(traceevent.ObserveWatch))
	proclaim("v2")
	o.trace.waitCount(t, "the observer re-armed", 30*time.Second, armed+1, action(traceevent.ObserveWatch))
	// Leaders keeps only the newest report, so a duplicate would be
	// overwritten before the reader saw it: the read's trace event says
	// whether the observer sent it.
	evs := o.trace.all()
	for i := len(evs) - 1; i >= 0; i-- {
		if evs[i].Action == traceevent.ObserveWatch {
			if evs[i].Reported {
				t.Fatalf("the observer reported v2 again after reading it unchanged: %+v", evs[i])
			}
			break
		}
	}
	proclaim("v3")
	want("v3")
	wantLeader(t, ctx, eo, la, "v3")
	if _, err := la.Guard(ctx); err != nil {
		t.Fatalf("Guard after Proclaim: %v", err)
	}
	// An impostor takes our node's name.
	adm := admin(t)
	node := la.Node()
	if err := adm.Delete(node, -1); err != nil {
		t.Fatal(err)
	}
	if _, err := adm.Create(node, []byte("impostor"), 0, zk.WorldACL(zk.PermAll)); err != nil {
		t.Fatal(err)
	}
	if err := la.Proclaim(ctx, []byte("v4")); !errors.Is(err, ErrLockLost) {
		t.Fatalf("Proclaim after the loss = %v, want ErrLockLost", err)
	}
	if data, _, err := adm.Get(node); err != nil || string(data) != "impostor" {
		t.Fatalf("impostor's data = %q, %v: Proclaim wrote after the loss", data, err)
	}
	select {
	case <-la.Done():
	default:
		t.Fatal("leadership not ended by the failed Proclaim")
	}
	if err := la.Proclaim(ctx, []byte("v5")); !errors.Is(err, ErrNotHeld) || !errors.Is(err, ErrLockLost) {
		t.Fatalf("Proclaim of an ended leadership = %v, want ErrNotHeld and ErrLockLost", err)
	}
	adm.Delete(node, -1)
}

// sessionWatches reads `wchc` from every server: the paths the session
// watches.
func sessionWatches(t *testing.T, id int64) []string {
	t.Helper()
	e := ensembletest.Ensemble()
	if e == nil {
		t.Skip("external ensemble: no wchc")
	}
	var out []string
	key := fmt.Sprintf("0x%x", id)
	for i := 0; i < e.Size(); i++ {
		txt, err := e.FourLetter(context.Background(), i, "wchc")
		if err != nil {
			t.Fatalf("wchc on server %d: %v", i, err)
		}
		in := false
		for _, line := range strings.Split(txt, "\n") {
			switch {
			case strings.HasPrefix(line, "0x"):
				in = strings.TrimSpace(line) == key
			case in && strings.TrimSpace(line) != "":
				out = append(out, strings.TrimSpace(line))
			}
		}
	}
	return out
}

// wantWatches waits until the observer's session has exactly the data
// watches want (wchc lists data watches, not children watches).
func wantWatches(t *testing.T, id int64, want ...string) {
	t.Helper()
	var got []string
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if got = sessionWatches(t, id); slices.Equal(got, want) {
			return
		}
	}
	t.Fatalf("observer's data watches %q, want %q", got, want)
}

// TestElectionObserve: an observer reports a vacancy, each new leader once
// in epoch order (not the candidates queuing behind it), and the vacancy
// again; it holds one watch, on the leader's node or on the path; its
// channel closes with the reason when its ctx ends or its session closes,
// and no goroutine is left.
func TestElectionObserve(t *testing.T) {
	p := lockPath(t)
	runtime.GC()
	before := runtime.NumGoroutine()
	func() {
		ctx := ctxFor(t, time.Minute)
		a, b, o := newClient(t, "a"), newClient(t, "b"), newClient(t, "o")
		defer func() {
			for _, c := range []*client{a, b, o} {
				c.Close()
				c.net.Close()
			}
		}()
		ea, eb, eo := election(t, a, p), election(t, b, p), election(t, o, p)
		octx, cancel := context.WithCancel(ctx)
		obs, err := eo.Observe(octx)
		if err != nil {
			t.Fatal(err)
		}
		if info := next(t, obs, "empty"); !info.Vacant() || info.Epoch != 0 {
			t.Fatalf("first report %+v, want a vacancy", info)
		}
		la := campaign(t, ctx, ea, "a")
		if info := next(t, obs, "a leads"); info.Epoch != la.Epoch() || string(info.Value) != "a" || info.Node != la.Node() {
			t.Fatalf("report %+v, want a at epoch %d", info, la.Epoch())
		}
		wantWatches(t, o.ID(), a.abs(la.Node()))
		pb := queued(t, ctx, b, eb, "b")
		quiet(t, obs, 300*time.Millisecond, "b queued behind a")
		la.Resign(ctx)
		lb, err := pb.wait(t, 30*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if info := next(t, obs, "b leads"); info.Epoch != lb.Epoch() || string(info.Value) != "b" {
			t.Fatalf("report %+v, want b at epoch %d", info, lb.Epoch())
		}
		wantWatches(t, o.ID(), a.abs(lb.Node()))
		lb.Resign(ctx)
		if info := next(t, obs, "vacancy"); !info.Vacant() {
			t.Fatalf("report %+v, want a vacancy", info)
		}
		// The vacancy's watch is a children watch, which wchc does not
		// show: the one notification of the next candidate shows it.
		wantWatches(t, o.ID())
		before := o.net.Stats().Notifications
		la = campaign(t, ctx, ea, "a2")
		if info := next(t, obs, "a leads again"); info.Epoch != la.Epoch() || info.Epoch <= lb.Epoch() {
			t.Fatalf("report %+v, want a at epoch %d", info, la.Epoch())
		}
		if n := o.net.Stats().Notifications - before; n != 1 {
			t.Fatalf("the observer got %d notifications of a candidate after a vacancy, want 1", n)
		}
		wantWatches(t, o.ID(), a.abs(la.Node()))
		cancel()
		if err := ended(t, obs); !errors.Is(err, context.Canceled) {
			t.Fatalf("Err after ctx ended = %v, want context.Canceled", err)
		}
		obs2 := observe(t, ctx, eo)
		next(t, obs2, "second observation")
		o.Close()
		if err := ended(t, obs2); !errors.Is(err, ErrClosed) {
			t.Fatalf("Err after Close = %v, want ErrClosed", err)
		}
	}()
	goroutinesSettle(t, before, "closing every session")
}

// TestElectionLeaderExpires: the leader's session expires: its Leadership
// ends with ErrLockLost, the next candidate leads, and the observer reports
// its epoch. A candidate waiting behind it whose own session expires at
// the same time fails its Campaign and never leads nor is reported.
func TestElectionLeaderExpires(t *testing.T) {
	p := lockPath(t)
	ctx := ctxFor(t, 2*time.Minute)
	a, b := newClient(t, "a", WithSessionTimeout(shortTimeout)), newClient(t, "b")
	c, o := newClient(t, "c", WithSessionTimeout(shortTimeout)), newClient(t, "o")
	ea, eb, ec, eo := election(t, a, p), election(t, b, p), election(t, c, p), election(t, o, p)
	la := campaign(t, ctx, ea, "a")
	obs := observe(t, ctx, eo)
	if info := next(t, obs, "a leads"); info.Epoch != la.Epoch() {
		t.Fatalf("report %+v, want a at epoch %d", info, la.Epoch())
	}
	pb := queued(t, ctx, b, eb, "b")
	pc := queued(t, ctx, c, ec, "c")
	cid := c.ID()
	a.net.BlackholeUntilHealed()
	c.net.BlackholeUntilHealed()
	defer a.net.Heal()
	defer c.net.Heal()
	lb, err := pb.wait(t, time.Minute)
	if err != nil {
		t.Fatalf("b after a's expiry: %v", err)
	}
	select {
	case <-la.Done():
	default:
		t.Fatal("a's leadership did not end before b leads")
	}
	if err := la.Err(); !errors.Is(err, ErrLockLost) || !errors.Is(err, ErrSessionLost) {
		t.Fatalf("a's Err = %v, want ErrLockLost and ErrSessionLost", err)
	}
	if _, err := pc.wait(t, time.Minute); !errors.Is(err, ErrSessionLost) {
		t.Fatalf("c's Campaign after its expiry = %v, want ErrSessionLost", err)
	}
	if info := next(t, obs, "b leads"); info.Epoch != lb.Epoch() {
		t.Fatalf("report %+v, want b at epoch %d", info, lb.Epoch())
	}
	// c's client gives up at its loss deadline, before the server expires
	// its session: until then c's node stands in the queue (and would
	// lead, though c knows it does not). Wait for the expiry.
	adm := admin(t)
	eventually(t, "c's node removed with its session", time.Minute, func() bool {
		for _, n := range nodes(t, adm, p) {
			if _, st, err := adm.Get(p + "/" + n); err == nil && st.EphemeralOwner == cid {
				return false
			}
		}
		return true
	})
	if err := lb.Resign(ctx); err != nil {
		t.Fatal(err)
	}
	if info := next(t, obs, "vacancy"); !info.Vacant() {
		t.Fatalf("report %+v after b resigned, want a vacancy (c's session expired)", info)
	}
}

// TestElectionResignRetry: a Resign that cannot reach the server before
// its ctx ends fails; a second Resign waits for the delete and returns nil
// with the node gone. A Resign whose ctx had already ended deletes in the
// background.
func TestElectionResignRetry(t *testing.T) {
	p := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	adm := admin(t)
	a := newClient(t, "a")
	ea := election(t, a, p)
	la := campaign(t, ctx, ea, "a")
	a.net.Blackhole(1500 * time.Millisecond)
	short, stop := context.WithTimeout(ctx, 200*time.Millisecond)
	defer stop()
	if err := la.Resign(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Resign unable to reach the server = %v, want DeadlineExceeded", err)
	}
	if err := la.Resign(ctx); err != nil {
		t.Fatalf("Resign retried: %v", err)
	}
	if left := nodes(t, adm, p); len(left) != 0 {
		t.Fatalf("nodes left after the retried Resign: %v", left)
	}
	if err := la.Resign(ctx); !errors.Is(err, ErrNotHeld) {
		t.Fatalf("third Resign = %v, want ErrNotHeld", err)
	}
	lb := campaign(t, ctx, ea, "b")
	done, cancel := context.WithCancel(ctx)
	cancel()
	if err := lb.Resign(done); err != nil && !errors.Is(err, context.Canceled) {
		t.Fatalf("Resign with an ended ctx = %v", err)
	}
	eventually(t, "the background delete", 10*time.Second, func() bool { return len(nodes(t, adm, p)) == 0 })
}

// TestElectionStrangers: children of the election path that are not
// "latch-" candidates, a Mutex's lock node among them, are ignored: Leader
// finds no leader among them, a candidate leads beside a Mutex holder, and
// a second candidate waits for the first, never for or beside a stranger.
func TestElectionStrangers(t *testing.T) {
	skipTraceCheck(t, "strangers' children appear in listings the model does not make")
	p := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	adm := admin(t)
	createStrangers(t, adm, p, strangerNames)
	h, a, b := newClient(t, "holder"), newClient(t, "a"), newClient(t, "b")
	m, _ := NewMutex(h.Session, p)
	held, err := m.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ea, eb := election(t, a, p), election(t, b, p)
	if _, err := ea.Leader(ctx); !errors.Is(err, ErrNoLeader) {
		t.Fatalf("Leader among strangers and a lock node = %v, want ErrNoLeader", err)
	}
	la := campaign(t, ctx, ea, "a") // the lock node ahead is no candidate
	pb := campaignAsync(ctx, eb, "b")
	b.trace.waitFor(t, "b queued", 30*time.Second, func(ev TraceEvent) bool {
		return waiting(ev) && ev.Target == path.Base(la.Node())
	})
	if pb.returned() {
		t.Fatalf("b leads (%v) beside a", pb.err)
	}
	wantLeader(t, ctx, eb, la, "a")
	if names, err := m.Contenders(ctx); err != nil || len(names) != 1 || names[0] != held.Node() {
		t.Fatalf("Mutex Contenders = %q, %v; want the holder's node only", names, err)
	}
	if err := la.Resign(ctx); err != nil {
		t.Fatal(err)
	}
	lb, err := pb.wait(t, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	lb.Resign(ctx)
	if err := held.Err(); err != nil {
		t.Fatalf("the Mutex's lease beside the election: %v", err)
	}
	held.Unlock(ctx)
}

// TestElectionBadInput: bad input is a typed error, before anything is
// sent.
func TestElectionBadInput(t *testing.T) {
	skipTraceCheck(t, "nothing is sent")
	ctx := ctxFor(t, 30*time.Second)
	if _, err := NewElection(nil, "/e"); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("NewElection(nil session) = %v, want ErrInvalidArgument", err)
	}
	c := newClient(t, "c")
	if _, err := NewElection(c.Session, "e/"); !errors.Is(err, ErrInvalidPath) {
		t.Errorf("NewElection(bad path) = %v, want ErrInvalidPath", err)
	}
	var nilE *Election
	if _, err := nilE.Campaign(ctx, nil); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("Campaign on a nil Election = %v, want ErrInvalidArgument", err)
	}
	e := election(t, c, lockPath(t))
	var nilCtx context.Context
	if _, err := e.Campaign(nilCtx, nil); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("Campaign(nil ctx) = %v, want ErrInvalidArgument", err)
	}
	if _, err := e.Campaign(ctx, make([]byte, MaxNodeData+1)); !errors.Is(err, ErrDataTooLarge) {
		t.Errorf("Campaign(huge value) = %v, want ErrDataTooLarge", err)
	}
	if _, err := e.Leader(nilCtx); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("Leader(nil ctx) = %v, want ErrInvalidArgument", err)
	}
	if _, err := e.Observe(nilCtx); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("Observe(nil ctx) = %v, want ErrInvalidArgument", err)
	}
}

// TestElectionNoHerd: with four candidates queued and two observers, the
// leader's Resign notifies each observer once, the next candidate and the
// one after it (its watch on the node two ahead) at most, and no
// candidate further back.
func TestElectionNoHerd(t *testing.T) {
	p := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	lc := newClient(t, "leader")
	lead := campaign(t, ctx, election(t, lc, p), "leader")
	var cands []*client
	var waits []*campaigning
	for i := 0; i < 4; i++ {
		c := newClient(t, fmt.Sprintf("c%d", i))
		cands = append(cands, c)
		waits = append(waits, campaignAsync(ctx, election(t, c, p), c.name))
		c.trace.waitFor(t, c.name+" queued", 30*time.Second, waiting)
	}
	var obsClients []*client
	var obs []*Observation
	for i := 0; i < 2; i++ {
		c := newClient(t, fmt.Sprintf("o%d", i))
		o, err := election(t, c, p).Observe(ctx)
		if err != nil {
			t.Fatal(err)
		}
		next(t, o, "the first leader")
		obsClients, obs = append(obsClients, c), append(obs, o)
	}
	all := append(append([]*client(nil), cands...), obsClients...)
	before := make([]int64, len(all))
	for i, c := range all {
		before[i] = c.net.Stats().Notifications
	}
	if err := lead.Resign(ctx); err != nil {
		t.Fatal(err)
	}
	l0, err := waits[0].wait(t, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range obs {
		if info := next(t, o, "the next leader"); info.Epoch != l0.Epoch() {
			t.Fatalf("observer reported %+v, want epoch %d", info, l0.Epoch())
		}
	}
	time.Sleep(300 * time.Millisecond) // a stray notification would show by now
	got := make([]int64, len(all))
	for i, c := range all {
		got[i] = c.net.Stats().Notifications - before[i]
	}
	if got[0] != 1 || got[1] > 1 || got[2] != 0 || got[3] != 0 || got[4] != 1 || got[5] != 1 {
		t.Fatalf("notifications of one Resign (c0..c3, o0, o1) = %v, want [1 <=1 0 0 1 1]", got)
	}
	for _, w := range waits[1:] {
		if w.returned() {
			t.Fatalf("a candidate behind the new leader returned: %v", w.err)
		}
	}
	l0.Resign(ctx)
}
