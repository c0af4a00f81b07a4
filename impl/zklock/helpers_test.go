package zklock

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"path"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklock/zklock/ensemble"
	"github.com/zklock/zklock/ensemble/ensembletest"
	"github.com/zklock/zklock/faultinject"
	"github.com/zklock/zklock/traceevent"
)

// Session timeouts the tests ask for. The test ensemble ticks every 500 ms
// with syncLimit 5, so timeouts lie between 1 s and 10 s, and the loss rule
// needs the drift margin (a fifth) plus a sync lag of 3 s below them. Fault
// tests use a short one so that expiry comes quickly; everyone else a long
// one so that a loaded machine does not lose sessions by accident.
const (
	shortTimeout = 5 * time.Second
	longTimeout  = 8 * time.Second
)

// timing tells a session the test ensemble's tickTime and syncLimit.
func timing() SessionOption { return WithEnsembleTiming(ensembletest.Timing()) }

// client is one test session behind its own proxies, with its trace.
type client struct {
	*Session
	net   *faultinject.Set
	trace *traceLog
	name  string
}

func newClient(t testing.TB, name string, opts ...SessionOption) *client {
	t.Helper()
	servers := ensembletest.Require(t)
	set, err := faultinject.NewSet(servers)
	if err != nil {
		t.Fatalf("proxies for %s: %v", name, err)
	}
	tl := &traceLog{}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	all := append([]SessionOption{WithSessionTimeout(longTimeout), timing(), WithTracer(tl.add),
		WithLogger(slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn})))}, opts...)
	s, err := NewSession(ctx, set.Addrs(), all...)
	if err != nil {
		set.Close()
		t.Fatalf("session for %s: %v", name, err)
	}
	c := &client{Session: s, net: set, trace: tl, name: name}
	t.Cleanup(func() {
		s.Close()
		set.Close()
	})
	traceTest(t, c)
	return c
}

// testWriter sends the session's warnings to the test log, and drops them
// once the test has ended (background work may log after that).
type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	defer func() { recover() }() // t.Log after the test ended panics
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// lockPath is a fresh lock path for one test.
func lockPath(t testing.TB) string {
	var b [4]byte
	rand.Read(b[:])
	name := regexp.MustCompile(`[^A-Za-z0-9_-]`).ReplaceAllString(t.Name(), "_")
	return "/zklock-test/" + name + "-" + hex.EncodeToString(b[:])
}

func ctxFor(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// traceLog keeps a client's trace events and lets a test wait for one.
type traceLog struct {
	mu     sync.Mutex
	events []TraceEvent
	wake   chan struct{}
}

func (l *traceLog) add(ev TraceEvent) {
	l.mu.Lock()
	l.events = append(l.events, ev)
	if l.wake != nil {
		close(l.wake)
		l.wake = nil
	}
	l.mu.Unlock()
}

func (l *traceLog) all() []TraceEvent {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]TraceEvent(nil), l.events...)
}

func (l *traceLog) count(match func(TraceEvent) bool) int {
	n := 0
	for _, ev := range l.all() {
		if match(ev) {
			n++
		}
	}
	return n
}

// waitFor waits until an event matches, and returns it.
func (l *traceLog) waitFor(t testing.TB, what string, d time.Duration, match func(TraceEvent) bool) TraceEvent {
	t.Helper()
	var found TraceEvent
	l.waitUntil(t, what, d, func(evs []TraceEvent) bool {
		for _, ev := range evs {
			if match(ev) {
				found = ev
				return true
			}
		}
		return false
	})
	return found
}

// waitCount waits until n events match.
func (l *traceLog) waitCount(t testing.TB, what string, d time.Duration, n int, match func(TraceEvent) bool) {
	t.Helper()
	l.waitUntil(t, what, d, func(evs []TraceEvent) bool {
		got := 0
		for _, ev := range evs {
			if match(ev) {
				got++
			}
		}
		return got >= n
	})
}

func (l *traceLog) waitUntil(t testing.TB, what string, d time.Duration, done func([]TraceEvent) bool) {
	t.Helper()
	deadline := time.After(d)
	for {
		l.mu.Lock()
		evs := append([]TraceEvent(nil), l.events...)
		if l.wake == nil {
			l.wake = make(chan struct{})
		}
		wake := l.wake
		l.mu.Unlock()
		if done(evs) {
			return
		}
		select {
		case <-wake:
		case <-deadline:
			t.Fatalf("no trace event %s within %v; trace:\n%s", what, d, l.dump())
		}
	}
}

func (l *traceLog) dump() string {
	var b strings.Builder
	for _, ev := range l.all() {
		fmt.Fprintf(&b, "  %s node=%s target=%s result=%s token=%d\n", ev.Action, ev.Node, ev.Target, ev.Result, ev.Token)
	}
	return b.String()
}

func action(name traceevent.Action) func(TraceEvent) bool {
	return func(ev TraceEvent) bool { return ev.Action == name }
}

// waiting matches the event after which a contender sleeps until notified.
func waiting(ev TraceEvent) bool {
	return ev.Action == traceevent.WatchPredecessor && ev.Result == traceevent.ResultExists
}

// adminClient is a plain go-zookeeper connection for looking at the server
// side. Its reads see every write acknowledged before them: it may be
// connected to a follower that has not yet applied what another session
// just wrote (CI read an empty lock a moment after a grant), so each read
// first syncs, which ZooKeeper defines as bringing the server this client
// is connected to up to date with the leader. A failed sync is left to the
// read that follows it to report.
type adminClient struct{ *ensembletest.Client }

func admin(t testing.TB) *adminClient {
	return &adminClient{ensembletest.Connect(t, ensembletest.Require(t), longTimeout)}
}

// Get is zk.Conn.Get after a sync.
func (a *adminClient) Get(p string) ([]byte, *zk.Stat, error) {
	a.Sync(p)
	return a.Client.Get(p)
}

// Exists is zk.Conn.Exists after a sync.
func (a *adminClient) Exists(p string) (bool, *zk.Stat, error) {
	a.Sync(p)
	return a.Client.Exists(p)
}

// Children is zk.Conn.Children after a sync.
func (a *adminClient) Children(p string) ([]string, *zk.Stat, error) {
	a.Sync(p)
	return a.Client.Children(p)
}

// nodes lists the lock nodes under a lock path; a missing path is empty.
func nodes(t testing.TB, a *adminClient, lock string) []string {
	t.Helper()
	names, _, err := a.Children(lock)
	if errors.Is(err, zk.ErrNoNode) {
		return nil
	}
	if err != nil {
		t.Fatalf("children of %s: %v", lock, err)
	}
	return names
}

// eventually polls cond until it holds.
func eventually(t testing.TB, what string, d time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v", what, d)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// async is a blocking call (Lock, Acquire, Campaign) running on its own
// goroutine: its result, and when it returned.
type async[T any] struct {
	val  T
	err  error
	at   time.Time // when the call returned
	call int64     // when it was called, on a history's clock (rapid_test.go)
	done chan struct{}
}

// pending is a Lock or an Acquire in flight.
type pending = async[*Lease]

// goAsync runs f(ctx) on its own goroutine.
func goAsync[T any](ctx context.Context, f func(context.Context) (T, error)) *async[T] {
	p := &async[T]{done: make(chan struct{})}
	go func() {
		p.val, p.err = f(ctx)
		p.at = time.Now()
		close(p.done)
	}()
	return p
}

// lockAsync runs Lock (or Acquire) on its own goroutine.
func lockAsync(ctx context.Context, lock func(context.Context) (*Lease, error)) *pending {
	return goAsync(ctx, lock)
}

// wait returns the call's result, failing t if it does not return within d.
func (p *async[T]) wait(t testing.TB, d time.Duration) (T, error) {
	t.Helper()
	select {
	case <-p.done:
		return p.val, p.err
	case <-time.After(d):
		t.Fatalf("the call did not return within %v", d)
		var zero T
		return zero, nil
	}
}

func (p *async[T]) returned() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

func seqOf(t testing.TB, node string) int64 {
	c, ok := parseChild(path.Base(node))
	if !ok {
		t.Fatalf("node %s has no sequence number", node)
	}
	return c.seq
}

// holdLock takes lock with a Mutex on a client of its own, named holder,
// and returns the client and the lease.
func holdLock(t testing.TB, ctx context.Context, lock string) (*client, *Lease) {
	t.Helper()
	h := newClient(t, "holder")
	m, _ := NewMutex(h.Session, lock)
	held, err := m.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return h, held
}

// killZooKeeperLeader kills the ensemble's leader process and waits (up to
// d) until another server leads; it logs how long the election took and
// returns when the leader was killed.
func killZooKeeperLeader(t *testing.T, ctx context.Context, e *ensemble.Ensemble, d time.Duration) time.Time {
	t.Helper()
	leader, err := e.Leader(ctx)
	if err != nil {
		t.Fatal(err)
	}
	killed := time.Now()
	if err := e.Kill(leader); err != nil {
		t.Fatal(err)
	}
	eventually(t, "a new ZooKeeper leader", d, func() bool {
		l, err := e.Leader(ctx)
		return err == nil && l != leader
	})
	t.Logf("a new ZooKeeper leader %v after the kill", time.Since(killed).Round(time.Millisecond))
	return killed
}
