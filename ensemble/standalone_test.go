package ensemble_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/zklock/zklock/ensemble"
)

func TestConfigErrors(t *testing.T) {
	ctx := context.Background()
	for _, cfg := range []ensemble.Config{
		{Servers: -1},
		{Servers: 256},
		{TickTime: time.Microsecond},
		{SyncLimit: -1},
		{ExtraConfig: []string{"no equals sign"}},
		{ServerConfig: [][]string{nil, {"no equals sign"}}},
		{Servers: 1, ServerConfig: [][]string{nil, nil}},
		{Version: "3.7"},
		{Version: "3.9.4"},
	} {
		if _, err := ensemble.Start(ctx, cfg); !errors.Is(err, ensemble.ErrBadConfig) {
			t.Errorf("Start(%+v): %v, want ErrBadConfig", cfg, err)
		}
	}
	cfg := ensemble.Config{ClassPath: []string{"/nonexistent/zookeeper.jar"}}
	if _, err := ensemble.Start(ctx, cfg); !errors.Is(err, ensemble.ErrNotInstalled) {
		t.Errorf("missing jar: %v, want ErrNotInstalled", err)
	}
}

// TestPinnedZooKeeper39 checks that the 3.9 server's pins name the server
// and the version the ensemble claims to run.
func TestPinnedZooKeeper39(t *testing.T) {
	sums, err := ensemble.PinnedZooKeeper39()
	if err != nil {
		t.Fatal(err)
	}
	for _, jar := range []string{"zookeeper-3.9.4.jar", "zookeeper-jute-3.9.4.jar", "slf4j-simple-2.0.13.jar"} {
		if sums[jar] == "" {
			t.Errorf("%s is not pinned", jar)
		}
	}
}

// TestStandaloneLifecycle starts its own one-server ensemble (N=1 runs
// ZooKeeper standalone) and checks that Stop leaves no process and no
// directory behind.
func TestStandaloneLifecycle(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a ZooKeeper server")
	}
	ctx := ctxTimeout(t, 60*time.Second)
	dir := t.TempDir()
	start := time.Now()
	e, err := ensemble.Start(ctx, ensemble.Config{Servers: 1, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Stop()
	t.Logf("standalone server healthy %v after Start", time.Since(start))
	if st, err := e.Srvr(ctx, 0); err != nil || st.Mode != ensemble.ModeStandalone {
		t.Fatalf("srvr: %+v, %v", st, err)
	}
	if l, err := e.Leader(ctx); err != nil || l != 0 {
		t.Fatalf("Leader() = %d, %v", l, err)
	}
	// One server has no links to cut.
	if err := e.Isolate(0); !errors.Is(err, ensemble.ErrNoLinks) || e.HasLinks() {
		t.Fatalf("Isolate on a standalone server: %v (HasLinks %v), want ErrNoLinks", err, e.HasLinks())
	}
	if err := e.Kill(0); err != nil {
		t.Fatal(err)
	}
	if err := e.WaitHealthy(ctxTimeout(t, 200*time.Millisecond)); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("WaitHealthy with the only server killed: %v", err)
	}
	if err := e.Restart(ctx, 0); err != nil {
		t.Fatal(err)
	}
	if err := e.WaitHealthy(ctx); err != nil {
		t.Fatal(err)
	}
	root := e.Dir()
	if pids := processesUnder(t, root); len(pids) != 1 {
		t.Fatalf("processes of the ensemble: %v, want one", pids)
	}
	if err := e.Stop(); err != nil {
		t.Fatal(err)
	}
	if pids := processesUnder(t, root); len(pids) != 0 {
		t.Fatalf("processes %v alive after Stop", pids)
	}
	if _, err := os.Stat(root); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("%s after Stop: %v", root, err)
	}
	if err := e.Stop(); err != nil {
		t.Fatalf("second Stop: %v", err)
	}
	if err := e.Restart(ctx, 0); !errors.Is(err, ensemble.ErrStopped) {
		t.Fatalf("Restart after Stop: %v, want ErrStopped", err)
	}
}

const helperEnv = "ENSEMBLE_TEST_HELPER_DIR"

// runHelper is the child process of TestServersDieWithTheirParent: it
// starts a standalone server, prints the ensemble's State and waits to be
// killed.
func runHelper() int {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	e, err := ensemble.Start(ctx, ensemble.Config{Servers: 1, Dir: os.Getenv(helperEnv)})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if err := json.NewEncoder(os.Stdout).Encode(e.State()); err != nil {
		return 1
	}
	time.Sleep(time.Minute)
	return 1
}

// TestServersDieWithTheirParent kills a process that started a server
// without letting it clean up, as a test timeout does, and checks that the
// server dies too.
func TestServersDieWithTheirParent(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a ZooKeeper server")
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+dir)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var st ensemble.State
	if err := json.NewDecoder(bufio.NewReader(out)).Decode(&st); err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("helper: %v", err)
	}
	if !st.Servers[0].Running() {
		t.Fatalf("server %+v not running while its parent lives", st.Servers[0])
	}
	cmd.Process.Kill()
	cmd.Wait()
	waitNoProcessesUnder(t, st.Root, 10*time.Second)
	if err := ensemble.Teardown(st); err != nil {
		t.Fatal(err)
	}
}

// TestDetachedTeardown starts a detached server, as zkensemble up does, and
// stops it from its State alone, as zkensemble down does.
func TestDetachedTeardown(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a ZooKeeper server")
	}
	ctx := ctxTimeout(t, 60*time.Second)
	e, err := ensemble.Start(ctx, ensemble.Config{Servers: 1, Dir: t.TempDir(), Detached: true})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Stop()
	b, err := json.Marshal(e.State())
	if err != nil {
		t.Fatal(err)
	}
	var st ensemble.State
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	if !st.Detached || !st.Servers[0].Running() {
		t.Fatalf("state %+v", st)
	}
	if err := ensemble.Teardown(st); err != nil {
		t.Fatal(err)
	}
	if st.Servers[0].Running() {
		t.Fatal("server running after Teardown")
	}
	if _, err := os.Stat(st.Root); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("%s after Teardown: %v", st.Root, err)
	}
	if err := ensemble.Teardown(st); err != nil {
		t.Fatalf("second Teardown: %v", err)
	}
	bad := st
	bad.Root = t.TempDir()
	if err := ensemble.Teardown(bad); err == nil {
		t.Fatal("Teardown removed a directory that is not an ensemble's")
	}
}
