package ensemble_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklock/zklock/ensemble"
	"github.com/zklock/zklock/ensemble/ensembletest"
)

func TestLeaderAndModes(t *testing.T) {
	e := ensembletest.RequireLocal(t)
	ctx := ctxTimeout(t, 30*time.Second)
	leader, err := e.Leader(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < e.Size(); i++ {
		st, err := e.Srvr(ctx, i)
		if err != nil {
			t.Fatal(err)
		}
		want := ensemble.ModeFollower
		if i == leader {
			want = ensemble.ModeLeader
		}
		if st.Mode != want || !strings.HasPrefix(st.Version, e.Version()+".") {
			t.Errorf("server %d: %+v, want mode %s and version %s.x", i, st, want, e.Version())
		}
	}
	for i, a := range e.Addrs() {
		if strings.HasSuffix(a, ":2181") || !strings.HasPrefix(a, "127.0.0.1:") {
			t.Errorf("server %d listens on %s", i, a)
		}
	}
}

func TestKillLeaderElectsNewLeaderAndRestartRejoins(t *testing.T) {
	e := ensembletest.RequireLocal(t)
	ctx := ctxTimeout(t, 60*time.Second)
	old, err := e.Leader(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Kill(old); err != nil {
		t.Fatal(err)
	}
	if e.Running(old) {
		t.Fatalf("server %d running after Kill", old)
	}
	if err := e.Kill(old); !errors.Is(err, ensemble.ErrNotRunning) {
		t.Fatalf("second Kill: %v, want ErrNotRunning", err)
	}
	start := time.Now()
	if err := e.WaitHealthy(ctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("new leader elected %v after the kill", time.Since(start))
	leader, err := e.Leader(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if leader == old {
		t.Fatalf("leader is still the killed server %d", old)
	}
	var live []string
	for i, a := range e.Addrs() {
		if i != old {
			live = append(live, a)
		}
	}
	c := ensembletest.Connect(t, live, 4*time.Second)
	if _, err := c.Create("/kill-leader", []byte("x"), 0, zk.WorldACL(zk.PermAll)); err != nil && !errors.Is(err, zk.ErrNodeExists) {
		t.Fatal(err)
	}

	if err := e.Restart(ctx, old); err != nil {
		t.Fatal(err)
	}
	if err := e.WaitHealthy(ctx); err != nil {
		t.Fatal(err)
	}
	// Same port, same data: the restarted server serves the node created
	// while it was down.
	only := ensembletest.Connect(t, []string{e.Addrs()[old]}, 4*time.Second)
	if _, err := only.Sync("/kill-leader"); err != nil {
		t.Fatal(err)
	}
	if ok, _, err := only.Exists("/kill-leader"); err != nil || !ok {
		t.Fatalf("restarted server: exists = %v, %v", ok, err)
	}
}

func TestPauseAndResumeFollower(t *testing.T) {
	e := ensembletest.RequireLocal(t)
	ctx := ctxTimeout(t, 60*time.Second)
	leader, err := e.Leader(ctx)
	if err != nil {
		t.Fatal(err)
	}
	f := followerOf(t, e, leader)
	if err := e.Pause(f); err != nil {
		t.Fatal(err)
	}
	if !e.Paused(f) || !e.Running(f) {
		t.Fatalf("Paused = %v, Running = %v after Pause", e.Paused(f), e.Running(f))
	}
	short, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
	_, err = e.FourLetter(short, f, "ruok")
	cancel()
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("ruok to a paused server: %v, want DeadlineExceeded", err)
	}
	// A paused follower is not waited for and does not stop the others.
	if err := e.WaitHealthy(ctx); err != nil {
		t.Fatal(err)
	}
	if err := e.Resume(f); err != nil {
		t.Fatal(err)
	}
	if err := e.WaitHealthy(ctx); err != nil {
		t.Fatal(err)
	}
	if st, err := e.Srvr(ctx, f); err != nil || st.Mode != ensemble.ModeFollower {
		t.Fatalf("resumed follower: %+v, %v", st, err)
	}
}

func TestPauseLeaderElectsAnother(t *testing.T) {
	e := ensembletest.RequireLocal(t)
	ctx := ctxTimeout(t, 60*time.Second)
	old, err := e.Leader(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Pause(old); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := e.WaitHealthy(ctx); err != nil {
		t.Fatal(err)
	}
	leader, err := e.Leader(ctx)
	if err != nil || leader == old {
		t.Fatalf("leader %d, %v while %d is paused", leader, err, old)
	}
	t.Logf("server %d took over %v after server %d was paused", leader, time.Since(start), old)
	if err := e.Resume(old); err != nil {
		t.Fatal(err)
	}
	if err := e.WaitHealthy(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestFourLetterWords(t *testing.T) {
	e := ensembletest.RequireLocal(t)
	ctx := ctxTimeout(t, 30*time.Second)
	c := ensembletest.Connect(t, e.Addrs(), 4*time.Second)
	if _, err := c.Create("/wchp-probe", nil, 0, zk.WorldACL(zk.PermAll)); err != nil && !errors.Is(err, zk.ErrNodeExists) {
		t.Fatal(err)
	}
	if _, _, _, err := c.GetW("/wchp-probe"); err != nil {
		t.Fatal(err)
	}
	// The watch lives on the server the client is connected to.
	found := false
	for i := 0; i < e.Size(); i++ {
		out, err := e.FourLetter(ctx, i, "wchp")
		if err != nil {
			t.Fatal(err)
		}
		found = found || strings.Contains(out, "/wchp-probe")
	}
	if !found {
		t.Error("no server lists /wchp-probe in wchp")
	}
	for _, cmd := range []string{"cons", "mntr", "wchc", "ruok"} {
		out, err := e.FourLetter(ctx, 0, cmd)
		if err != nil || out == "" {
			t.Errorf("%s: %q, %v", cmd, out, err)
		}
	}
	if _, err := e.FourLetter(ctx, 0, "toolong"); !errors.Is(err, ensemble.ErrBadCommand) {
		t.Errorf("bad command: %v", err)
	}
	if _, err := e.FourLetter(ctx, 9, "srvr"); !errors.Is(err, ensemble.ErrBadIndex) {
		t.Errorf("bad index: %v", err)
	}
}
