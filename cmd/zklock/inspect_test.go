package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklock/zklock/ensemble/ensembletest"
	"github.com/zklock/zklock/faultinject"
	"github.com/zklock/zklock/impl/zklock"
)

func TestMain(m *testing.M) { os.Exit(ensembletest.Main(m)) }

// connect is the connect flags for the test ensemble.
func connect(servers []string) []string {
	tick, limit := ensembletest.Timing()
	return []string{"--servers", strings.Join(servers, ","), "--session-timeout", "8s",
		"--tick-time", tick.String(), "--sync-limit", fmt.Sprint(limit)}
}

// queueOf holds path with a writer and queues a reader and a writer behind
// it, each on a session of its own; it returns the holder's lease.
func queueOf(t *testing.T, ctx context.Context, servers []string, path string) *zklock.Lease {
	t.Helper()
	session := func() *zklock.Session {
		s, err := zklock.NewSession(ctx, servers, zklock.WithEnsembleTiming(ensembletest.Timing()))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	rw, _ := zklock.NewRWMutex(session(), path)
	held, err := rw.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, read := range []bool{true, false} {
		w, _ := zklock.NewRWMutex(session(), path)
		lock := w.Lock
		if read {
			lock = w.RLock
		}
		wctx, cancel := context.WithCancel(ctx)
		t.Cleanup(cancel)
		go lock(wctx)
		want := 2
		if !read {
			want = 3
		}
		deadline := time.Now().Add(time.Minute)
		for {
			names, _ := w.Contenders(ctx)
			if len(names) >= want {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("waiters not queued: %v", names)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	return held
}

// inspect reads a queue the way the locks do: the writer holds; the
// reader waits for it (the last writer ahead); the second writer waits
// for the reader, its predecessor, which waits too; every node has its
// token, session and this process's identity; a stranger's child is
// listed apart. The same in --json, which decodes into LockView.
func TestInspect(t *testing.T) {
	servers := ensembletest.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	path := fmt.Sprintf("/zklock-inspect/%d", time.Now().UnixNano())
	queueOf(t, ctx, servers, path)
	// A stranger's child: not a contender.
	s, err := zklock.NewSession(ctx, servers, zklock.WithEnsembleTiming(ensembletest.Timing()))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Conn().Create(path+"/notes", nil, 0, zk.WorldACL(zk.PermAll)); err != nil {
		t.Fatal(err)
	}
	defer s.Conn().Delete(path+"/notes", -1)

	var out, errs bytes.Buffer
	if rc := run(ctx, append(append([]string{"inspect"}, connect(servers)...), path), &out, &errs); rc != 0 {
		t.Fatalf("exit %d: %s", rc, errs.String())
	}
	text := out.String()
	for _, want := range []string{"3 contender(s)", "HOLDS", " yes ", "waits for #1 (the last writer ahead), which holds",
		"waits for #2 (its predecessor), which waits too", fmt.Sprintf("pid %d", os.Getpid()), "not contenders: notes"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
	t.Logf("\n%s", text)

	out.Reset()
	if rc := run(ctx, append(append([]string{"inspect", "--json"}, connect(servers)...), path), &out, &errs); rc != 0 {
		t.Fatalf("--json: exit %d: %s", rc, errs.String())
	}
	// The schema is impl/zklock's LockView and the connection status:
	// every field the command prints must be one of those documented.
	var j struct {
		Kind zklock.Kind `json:"kind"`
		zklock.LockView
		Connected        map[string]bool `json:"connected"`
		ConnectedUnknown string          `json:"connected_unknown"`
	}
	dec := json.NewDecoder(&out)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		t.Fatalf("--json is not a LockView with its connection status: %v", err)
	}
	v := j.LockView
	if j.Kind != zklock.KindLock {
		t.Fatalf("--json: kind %q, want %q", j.Kind, zklock.KindLock)
	}
	if len(j.Connected) != 3 && j.ConnectedUnknown == "" {
		t.Fatalf("--json: connected %v for 3 contenders, and no reason why not", j.Connected)
	}
	n := v.Nodes
	if v.Path != path || len(n) != 3 || len(v.Other) != 1 {
		t.Fatalf("--json: %+v", v)
	}
	if !n[0].Holds || n[0].Mode != zklock.ModeWrite || n[1].Mode != zklock.ModeRead || n[1].WaitsFor != n[0].Name || n[2].WaitsFor != n[1].Name {
		t.Fatalf("--json queue: %+v", n)
	}
	for _, x := range n {
		if x.Token == 0 || x.Session == 0 || x.Identity == nil || x.Identity.PID != os.Getpid() {
			t.Fatalf("--json node %+v: want token, session and our identity", x)
		}
	}
}

// --watch prints again when the queue changes: once at start, and again
// when the holder releases (on the watch, not a timer: nothing else
// changes, and the test waits for the second view before it ends).
func TestInspectWatch(t *testing.T) {
	servers := ensembletest.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	path := fmt.Sprintf("/zklock-inspect/%d", time.Now().UnixNano())
	held := queueOf(t, ctx, servers, path)
	wctx, stop := context.WithCancel(ctx)
	out := &syncBuffer{}
	done := make(chan int)
	go func() {
		done <- run(wctx, append(append([]string{"inspect", "--watch"}, connect(servers)...), path), out, out)
	}()
	waitFor(t, out, "3 contender(s)")
	if err := held.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	waitFor(t, out, "2 contender(s)")
	stop()
	if rc := <-done; rc != 0 {
		t.Fatalf("exit %d:\n%s", rc, out.String())
	}
}

func waitFor(t *testing.T, b *syncBuffer, s string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !strings.Contains(b.String(), s) {
		if time.Now().After(deadline) {
			t.Fatalf("no %q in:\n%s", s, b.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// A holder whose client is cut off (its connection severed, reconnects
// blackholed) keeps its node until the server expires its session:
// inspect says its session is not connected, while the others are.
func TestInspectDisconnectedHolder(t *testing.T) {
	servers := ensembletest.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	path := fmt.Sprintf("/zklock-inspect/%d", time.Now().UnixNano())
	net, err := faultinject.NewSet(servers)
	if err != nil {
		t.Fatal(err)
	}
	defer net.Close()
	s, err := zklock.NewSession(ctx, net.Addrs(), zklock.WithSessionTimeout(8*time.Second), zklock.WithEnsembleTiming(ensembletest.Timing()))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	m, _ := zklock.NewMutex(s, path)
	if _, err := m.Lock(ctx); err != nil {
		t.Fatal(err)
	}
	net.BlackholeUntilHealed()
	net.Sever()
	var out, errs bytes.Buffer
	deadline := time.Now().Add(6 * time.Second) // within the session timeout: the node is still there
	for {
		out.Reset()
		if rc := run(ctx, append(append([]string{"inspect"}, connect(servers)...), path), &out, &errs); rc != 0 {
			t.Fatalf("exit %d: %s", rc, errs.String())
		}
		if strings.Contains(out.String(), " no ") {
			break
		}
		if time.Now().After(deadline) || !strings.Contains(out.String(), "1 contender(s)") {
			t.Fatalf("the cut-off holder not shown as disconnected:\n%s", out.String())
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("\n%s", out.String())
	// --json says the same: the holder's node maps to false.
	out.Reset()
	if rc := run(ctx, append(append([]string{"inspect", "--json"}, connect(servers)...), path), &out, &errs); rc != 0 {
		t.Fatalf("--json: exit %d: %s", rc, errs.String())
	}
	var j struct {
		Nodes     []zklock.NodeView `json:"nodes"`
		Connected map[string]bool   `json:"connected"`
	}
	if err := json.Unmarshal(out.Bytes(), &j); err != nil || len(j.Nodes) != 1 {
		t.Fatalf("--json: %v: %s", err, out.String())
	}
	if c, ok := j.Connected[j.Nodes[0].Name]; !ok || c {
		t.Fatalf("--json: the cut-off holder's connected = %v (known %v), want false: %s", c, ok, out.String())
	}
}

// The live view as a person sees it: zklock inspect --watch in a tmux
// pane 120 columns wide. Each change redraws the screen from the top (no
// frame left above the new one), and the lines fit the pane; the pane is
// read back with capture-pane. tmux is one of make setup's packages.
func TestInspectWatchInTmux(t *testing.T) {
	servers := ensembletest.Require(t)
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Fatal("tmux is missing: make setup installs it")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	path := fmt.Sprintf("/zklock-inspect/%d", time.Now().UnixNano())
	held := queueOf(t, ctx, servers, path)
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
	cmd := strings.Join(append(append([]string{bin, "inspect", "--watch"}, connect(servers)...), path), " ")
	tmux("new-session", "-d", "-s", "inspect", "-x", "120", "-y", "20", cmd)
	defer exec.Command("tmux", "-S", sock, "kill-server").Run()
	pane := func(want string) string {
		deadline := time.Now().Add(time.Minute)
		for {
			p := tmux("capture-pane", "-p", "-t", "inspect")
			if strings.Contains(p, want) {
				return p
			}
			if time.Now().After(deadline) {
				t.Fatalf("no %q in the pane:\n%s", want, p)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	first := pane("3 contender(s)")
	if err := held.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	second := pane("2 contender(s)")
	if strings.Contains(second, "3 contender(s)") {
		t.Fatalf("the old frame is still on screen:\n%s", second)
	}
	for _, line := range strings.Split(second, "\n") {
		if len(line) >= 120 {
			t.Errorf("a line fills the pane (wrapped?): %q", line)
		}
	}
	t.Logf("first frame:\n%s\nafter the holder's release:\n%s", first, second)
}
