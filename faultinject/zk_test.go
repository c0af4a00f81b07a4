package faultinject

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklock/zklock/ensemble/ensembletest"
)

// These tests run go-zookeeper's client through a Set against the real
// ensemble, and check the server side through a second, direct client.

func newSet(t *testing.T, servers []string, opts ...Option) *Set {
	t.Helper()
	s, err := NewSet(servers, opts...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Error(err)
		}
	})
	return s
}

func TestSeverKeepsTheSession(t *testing.T) {
	servers := ensembletest.Require(t)
	set := newSet(t, servers)
	c := ensembletest.Connect(t, set.Addrs(), 4*time.Second)
	sid := c.SessionID()
	path, err := c.Create("/sever-", nil, zk.FlagEphemeral|zk.FlagSequence, zk.WorldACL(zk.PermAll))
	if err != nil {
		t.Fatal(err)
	}
	if n := set.Sever(); n != 1 {
		t.Fatalf("Sever() = %d, want the client's one connection (states %v, stats %+v)", n, c.States(), set.Stats())
	}
	c.WaitState(t, zk.StateDisconnected, 10*time.Second)
	c.WaitState(t, zk.StateHasSession, 10*time.Second)
	if got := c.SessionID(); got != sid {
		t.Fatalf("session %x after reconnect, want %x", got, sid)
	}
	if ok, _, err := c.Exists(path); err != nil || !ok {
		t.Fatalf("ephemeral %s after reconnect: exists = %v, %v", path, ok, err)
	}
}

func TestBlackholePastSessionTimeoutExpiresSession(t *testing.T) {
	servers := ensembletest.Require(t)
	set := newSet(t, servers)
	const timeout = 2 * time.Second
	c := ensembletest.Connect(t, set.Addrs(), timeout)
	path, err := c.Create("/blackhole-", nil, zk.FlagEphemeral|zk.FlagSequence, zk.WorldACL(zk.PermAll))
	if err != nil {
		t.Fatal(err)
	}
	observer := ensembletest.Connect(t, servers, 4*time.Second)
	const window = 3 * timeout
	set.Blackhole(window)
	start := time.Now()
	c.WaitState(t, zk.StateExpired, window+20*time.Second)
	if d := time.Since(start); d < window {
		t.Fatalf("client saw expiry %v into a %v blackhole", d, window)
	}
	// The observer's server may lag behind the one that told the client.
	if _, err := observer.Sync(path); err != nil && !errors.Is(err, zk.ErrNoNode) {
		t.Fatal(err)
	}
	if ok, _, err := observer.Exists(path); err != nil || ok {
		t.Fatalf("ephemeral of the expired session: exists = %v, %v", ok, err)
	}
}

func TestCutAfterCreateLosesTheReplyNotTheNode(t *testing.T) {
	servers := ensembletest.Require(t)
	set := newSet(t, servers)
	c := ensembletest.Connect(t, set.Addrs(), 4*time.Second)
	cut := set.CutAfterRequest(OpCreate)
	path := "/cut-create"
	observer := ensembletest.Connect(t, servers, 4*time.Second)
	if err := observer.Delete(path, -1); err != nil && !errors.Is(err, zk.ErrNoNode) {
		t.Fatal(err)
	}
	_, err := c.Create(path, []byte("x"), 0, zk.WorldACL(zk.PermAll))
	if !errors.Is(err, zk.ErrConnectionClosed) {
		t.Fatalf("Create through the cut: %v, want ErrConnectionClosed", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	rep, err := cut.Wait(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.ReplyDropped || rep.Err != 0 || rep.Op != OpCreate {
		t.Fatalf("cut report %+v, want a successful create reply dropped", rep)
	}
	if _, err := observer.Sync(path); err != nil {
		t.Fatal(err)
	}
	_, stat, err := observer.Get(path)
	if err != nil {
		t.Fatalf("node the server created: %v", err)
	}
	if stat.Czxid != rep.Zxid {
		t.Errorf("node czxid %x, dropped reply zxid %x", stat.Czxid, rep.Zxid)
	}
	// The client reconnects and sees the node it was told nothing about.
	if _, err := c.Create(path, nil, 0, zk.WorldACL(zk.PermAll)); !errors.Is(err, zk.ErrNodeExists) {
		t.Fatalf("second create: %v, want ErrNodeExists", err)
	}
}

func TestDelayAddsLatencyToRealRequests(t *testing.T) {
	servers := ensembletest.Require(t)
	set := newSet(t, servers)
	c := ensembletest.Connect(t, set.Addrs(), 10*time.Second)
	rtt := func() time.Duration {
		start := time.Now()
		if _, _, err := c.Get("/"); err != nil {
			t.Fatal(err)
		}
		return time.Since(start)
	}
	base := rtt()
	const d = 150 * time.Millisecond
	set.Delay(d)
	delayed := rtt()
	set.Delay(0)
	t.Logf("getData round trip: %v plain, %v with %v delay each way", base, delayed, d)
	if delayed < 2*d {
		t.Fatalf("delayed round trip %v, want >= %v", delayed, 2*d)
	}
}

func TestNotificationsAreCounted(t *testing.T) {
	servers := ensembletest.Require(t)
	set := newSet(t, servers)
	c := ensembletest.Connect(t, set.Addrs(), 4*time.Second)
	other := ensembletest.Connect(t, servers, 4*time.Second)
	path := "/notify"
	if _, err := other.Create(path, nil, 0, zk.WorldACL(zk.PermAll)); err != nil && !errors.Is(err, zk.ErrNodeExists) {
		t.Fatal(err)
	}
	// c's server may not have applied other's create yet.
	if _, err := c.Sync(path); err != nil {
		t.Fatal(err)
	}
	_, _, ch, err := c.GetW(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Set(path, []byte("changed"), -1); err != nil {
		t.Fatal(err)
	}
	select {
	case ev := <-ch:
		if ev.Type != zk.EventNodeDataChanged {
			t.Fatalf("watch event %+v", ev)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no watch event")
	}
	st := set.Stats()
	if st.Notifications != 1 || st.Requests[OpGetData] != 1 || st.Requests[OpCreateSession] != 1 {
		t.Fatalf("stats %+v, want 1 notification, 1 getData, 1 connect", st)
	}
}
