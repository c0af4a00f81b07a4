package zklock

import (
	"context"
	"errors"
	"fmt"
	"path"
	"strings"
	"testing"
	"time"
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
