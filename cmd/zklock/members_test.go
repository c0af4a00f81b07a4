package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/zklock/zklock/ensemble"
	"github.com/zklock/zklock/ensemble/ensembletest"
	"github.com/zklock/zklock/impl/zklock"
)

// holdOn holds a Mutex at p on a session attached to the one server addr.
func holdOn(t *testing.T, ctx context.Context, addr, p string) *zklock.Lease {
	t.Helper()
	s := newSession(t, ctx, []string{addr})
	m, _ := zklock.NewMutex(s, p)
	l, err := m.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// lockConnected is --json's connection status of a lock path.
func lockConnected(t *testing.T, out []byte) (nodes []zklock.NodeView, c connection) {
	t.Helper()
	var j struct {
		Nodes []zklock.NodeView `json:"nodes"`
		connection
	}
	if err := json.Unmarshal(out, &j); err != nil {
		t.Fatalf("--json: %v: %s", err, out)
	}
	return j.Nodes, j.connection
}

// Given one server of three, inspect still sees a holder attached to
// another member as connected: it asks every member the ensemble's
// configuration names, not only those of --servers.
func TestInspectConnectedOnOtherMember(t *testing.T) {
	servers := ensembletest.Require(t)
	if len(servers) < 2 {
		t.Skip("needs an ensemble of several servers")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	p := fmt.Sprintf("/zklock-inspect/%d", time.Now().UnixNano())
	holdOn(t, ctx, servers[1], p)
	text := string(inspectOut(t, ctx, servers[:1], p))
	if !strings.Contains(text, " yes ") || strings.Contains(text, "unknown") {
		t.Fatalf("a holder attached to %s, inspect given %s: not shown connected:\n%s", servers[1], servers[0], text)
	}
	nodes, c := lockConnected(t, inspectOut(t, ctx, servers[:1], "--json", p))
	if len(nodes) != 1 || !c.Connected[nodes[0].Name] || c.ConnectedUnknown != "" {
		t.Fatalf("--json: connected %v (unknown %q), want the holder connected", c.Connected, c.ConnectedUnknown)
	}
}

// With one member stopped, the rows of sessions attached to the others
// are still known (connected); only what no answering member lists could
// be unknown, and the stopped member is named as the reason.
func TestInspectConnectedMemberDown(t *testing.T) {
	e := ensembletest.RequireLocal(t)
	servers := ensembletest.Servers()
	if len(servers) != 3 {
		t.Skip("needs an ensemble of three")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	down := -1
	for i := range servers {
		if st, err := e.Srvr(ctx, i); err == nil && st.Mode == ensemble.ModeFollower {
			down = i
			break
		}
	}
	if down < 0 {
		t.Fatal("no follower found")
	}
	var up []string
	for i, s := range servers {
		if i != down {
			up = append(up, s)
		}
	}
	a := fmt.Sprintf("/zklock-inspect/%d-a", time.Now().UnixNano())
	b := fmt.Sprintf("/zklock-inspect/%d-b", time.Now().UnixNano())
	holdOn(t, ctx, up[0], a)
	holdOn(t, ctx, up[1], b)
	if err := e.Kill(down); err != nil {
		t.Fatal(err)
	}
	text := string(inspectOut(t, ctx, servers, a, b))
	if strings.Count(text, " yes ") != 2 || strings.Contains(text, " ? ") {
		t.Fatalf("member %s stopped: the holders on %v not both shown connected:\n%s", servers[down], up, text)
	}
	t.Logf("\n%s", text)
	for _, p := range []string{a, b} {
		nodes, c := lockConnected(t, inspectOut(t, ctx, servers, "--json", p))
		if len(nodes) != 1 || !c.Connected[nodes[0].Name] {
			t.Fatalf("--json %s: connected %v (unknown %q), want the holder connected", p, c.Connected, c.ConnectedUnknown)
		}
	}
}
