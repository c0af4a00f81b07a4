package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/zklock/zklock/ensemble/ensembletest"
	"github.com/zklock/zklock/impl/zklock"
)

// newSession is a session on the test ensemble, closed when t ends.
func newSession(t *testing.T, ctx context.Context, servers []string) *zklock.Session {
	t.Helper()
	s, err := zklock.NewSession(ctx, servers, zklock.WithEnsembleTiming(ensembletest.Timing()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// childrenAre waits until p has n children.
func childrenAre(t *testing.T, s *zklock.Session, p string, n int) []string {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		names, _, err := s.Conn().Children(s.Chroot() + p)
		if err == nil && len(names) == n {
			return names
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: children %v (%v), want %d", p, names, err, n)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// electionOf makes an election at p with a leader (value "alpha") and a
// candidate in line behind it ("beta"), each on a session of its own.
func electionOf(t *testing.T, ctx context.Context, servers []string, p string) *zklock.Leadership {
	t.Helper()
	e, _ := zklock.NewElection(newSession(t, ctx, servers), p)
	lead, err := e.Campaign(ctx, []byte("alpha"))
	if err != nil {
		t.Fatal(err)
	}
	e2, _ := zklock.NewElection(newSession(t, ctx, servers), p)
	cctx, cancel := context.WithCancel(ctx)
	t.Cleanup(cancel)
	go e2.Campaign(cctx, []byte("beta"))
	childrenAre(t, newSession(t, ctx, servers), p, 2)
	return lead
}

// semaphoreOf makes a semaphore of max 1 at p: a holder, an acquirer that
// waits at max holding the internal lock, and one queued behind it on
// that lock, each on a session of its own. It returns the holder's lease.
func semaphoreOf(t *testing.T, ctx context.Context, servers []string, p string) *zklock.Lease {
	t.Helper()
	m, _ := zklock.NewSemaphore(newSession(t, ctx, servers), p, 1)
	held, err := m.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	admin := newSession(t, ctx, servers)
	for i, wait := range []struct{ leases, locks int }{{2, 1}, {2, 2}} {
		w, _ := zklock.NewSemaphore(newSession(t, ctx, servers), p, 1)
		wctx, cancel := context.WithCancel(ctx)
		t.Cleanup(cancel)
		go w.Acquire(wctx)
		childrenAre(t, admin, p+"/leases", wait.leases)
		childrenAre(t, admin, p+"/locks", wait.locks)
		_ = i
	}
	return held
}

func inspectOut(t *testing.T, ctx context.Context, servers []string, args ...string) []byte {
	t.Helper()
	var out, errs bytes.Buffer
	if rc := run(ctx, append(append([]string{"inspect"}, connect(servers)...), args...), &out, &errs); rc != 0 {
		t.Fatalf("inspect %v: exit %d: %s", args, rc, errs.String())
	}
	return out.Bytes()
}

// An election's path shows who leads (value, epoch, since when) and the
// candidate in line behind it, in text and in --json (ElectionView, its
// kind and the candidates' connection status, no other field).
func TestInspectElection(t *testing.T) {
	servers := ensembletest.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	p := fmt.Sprintf("/zklock-inspect/%d", time.Now().UnixNano())
	lead := electionOf(t, ctx, servers, p)
	text := string(inspectOut(t, ctx, servers, p))
	for _, want := range []string{"election, 2 candidate(s)", `value "alpha"`, fmt.Sprintf("epoch 0x%x", lead.Epoch()),
		"LEADS", "waits for #1 (its predecessor), which leads", " yes "} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
	t.Logf("\n%s", text)
	var j struct {
		Kind zklock.Kind `json:"kind"`
		zklock.ElectionView
		connection
	}
	dec := json.NewDecoder(bytes.NewReader(inspectOut(t, ctx, servers, "--json", p)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		t.Fatalf("--json is not an ElectionView with its kind and connection status: %v", err)
	}
	c := j.Candidates
	if j.Kind != zklock.KindElection || j.Leader == nil || string(j.Leader.Value) != "alpha" || j.Leader.Epoch != lead.Epoch() ||
		j.Leader.Node != filepath.Base(lead.Node()) || j.Leader.Since.IsZero() || len(c) != 2 || !c[0].Holds || c[1].WaitsFor != c[0].Name {
		t.Fatalf("--json: %+v", j)
	}
	if len(j.Connected) != 2 || !j.Connected[c[0].Name] || !j.Connected[c[1].Name] {
		t.Fatalf("--json: connected %v (unknown: %q), want both candidates connected", j.Connected, j.ConnectedUnknown)
	}
}

// A semaphore's path shows its lease holders, the lease of the acquirer
// that holds its internal lock (waiting at max), and the acquirers queued
// on that lock, in text and in --json.
func TestInspectSemaphore(t *testing.T) {
	servers := ensembletest.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	p := fmt.Sprintf("/zklock-inspect/%d", time.Now().UnixNano())
	held := semaphoreOf(t, ctx, servers, p)
	text := string(inspectOut(t, ctx, servers, p))
	for _, want := range []string{"semaphore, 1 lease(s) held, 2 acquirer(s) on its internal lock", "HOLDS", "acquiring",
		"#2 is the internal lock holder's", "HOLDS (acquiring a lease)", "waits for #1 (its predecessor), which holds"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
	t.Logf("\n%s", text)
	var j struct {
		Kind zklock.Kind `json:"kind"`
		zklock.SemaphoreView
		connection
	}
	dec := json.NewDecoder(bytes.NewReader(inspectOut(t, ctx, servers, "--json", p)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		t.Fatalf("--json is not a SemaphoreView with its kind and connection status: %v", err)
	}
	l, a := j.Leases, j.Acquirers
	if j.Kind != zklock.KindSemaphore || len(l) != 2 || l[0].Name != filepath.Base(held.Node()) || !l[0].Holds || l[0].Token != held.Token() ||
		l[1].Holds || j.Acquiring != l[1].Name || len(a) != 2 || !a[0].Holds || a[1].WaitsFor != a[0].Name || a[0].Session != l[1].Session {
		t.Fatalf("--json: %+v", j)
	}
	if len(j.Connected) != 4 || slices.Contains(mapValues(j.Connected), false) {
		t.Fatalf("--json: connected %v (unknown: %q), want 4 nodes connected", j.Connected, j.ConnectedUnknown)
	}
}

func mapValues(m map[string]bool) []bool {
	var out []bool
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// The terminal view of an election and a semaphore in tmux: a Proclaim
// (a data change, on the leader's data watch) and the semaphore holder's
// release each redraw the screen, and the lines fit the pane.
func TestInspectKindsWatchInTmux(t *testing.T) {
	servers := ensembletest.Require(t)
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("tmux is missing: make setup installs it")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	base := fmt.Sprintf("/zklock-inspect/%d", time.Now().UnixNano())
	lead := electionOf(t, ctx, servers, base+"/election")
	held := semaphoreOf(t, ctx, servers, base+"/semaphore")
	bin := filepath.Join(t.TempDir(), "zklock")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	sock := filepath.Join(t.TempDir(), "tmux.sock")
	tmux := func(args ...string) string {
		out, err := exec.Command("tmux", append([]string{"-S", sock}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	cmd := strings.Join(append(append([]string{bin, "inspect", "--watch"}, connect(servers)...), base+"/election", base+"/semaphore"), " ")
	tmux("new-session", "-d", "-s", "inspect", "-x", "120", "-y", "50", cmd)
	defer exec.Command("tmux", "-S", sock, "kill-server").Run()
	pane := func(want ...string) string {
		deadline := time.Now().Add(time.Minute)
		for {
			p := tmux("capture-pane", "-p", "-J", "-t", "inspect") // -J: a wrapped line joined
			ok := true
			for _, w := range want {
				ok = ok && strings.Contains(p, w)
			}
			if ok {
				return p
			}
			if time.Now().After(deadline) {
				t.Fatalf("no %q in the pane:\n%s", want, p)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	first := pane(`value "alpha"`, "1 lease(s) held, 2 acquirer(s)")
	if err := lead.Proclaim(ctx, []byte("gamma")); err != nil {
		t.Fatal(err)
	}
	pane(`value "gamma"`)
	if err := held.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	last := pane(`value "gamma"`, "1 lease(s) held, 1 acquirer(s)")
	if strings.Contains(last, `value "alpha"`) {
		t.Fatalf("the old frame is still on screen:\n%s", last)
	}
	for _, line := range strings.Split(last, "\n") {
		if len(line) >= 120 {
			t.Errorf("a line fills the pane (wrapped?): %q", line)
		}
	}
	t.Logf("first frame:\n%s\nafter Proclaim and the holder's release:\n%s", first, last)
}
