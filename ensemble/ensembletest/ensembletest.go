// Package ensembletest gives a test binary one ZooKeeper ensemble, shared by
// all its tests:
//
//	func TestMain(m *testing.M) { os.Exit(ensembletest.Main(m)) }
//
//	func TestSomething(t *testing.T) {
//		servers := ensembletest.Require(t) // skips under -short
//		...
//	}
//
// Main starts a local 3-node ensemble unless -short is given (then tests that
// call Require skip, and only a call to Servers, from a runnable example,
// starts the ensemble) or ZKLOCK_SERVERS=host:port,... names an
// external ensemble (then tests that kill or pause servers, which call
// RequireLocal, skip). If a test fails, the server logs are kept and their
// paths printed.
//
// RequireTLS gives a test a TLS-only server (see ensemble.Config.TLS) and a
// client configuration that trusts it, like httptest.NewTLSServer: one per
// test binary, started on first use, stopped by Main.
package ensembletest

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/zklock/zklock/ensemble"
)

// EnvServers is the environment variable that points tests at an external
// ensemble, as printed by `zkensemble up`.
const EnvServers = "ZKLOCK_SERVERS"

// Timeouts for starting the ensemble and for bringing it back to health
// between tests; generous because three JVMs share two cores with the tests.
const (
	StartTimeout = 2 * time.Minute
	HealTimeout  = time.Minute
)

// Set by Main before any test runs, or by the first Servers call under
// -short; read-only afterwards.
var (
	mainRan bool
	mu      sync.Mutex
	servers []string
	ens     *ensemble.Ensemble
	lazy    *ensemble.Config // under -short: what Servers starts on first use
	lazyErr error
)

// Main runs the tests of m against a local 3-node ensemble (see the package
// documentation) and returns the exit code for os.Exit.
func Main(m *testing.M) int { return MainConfig(m, ensemble.Config{}) }

// MainConfig is Main with a custom configuration for the local ensemble.
func MainConfig(m *testing.M, cfg ensemble.Config) int {
	flag.Parse()
	mainRan = true
	if testing.Short() {
		// Tests skip; runnable examples, which cannot, start the ensemble
		// on first use through Servers.
		lazy = &cfg
		return stop(m.Run())
	}
	if env := os.Getenv(EnvServers); env != "" {
		servers = splitServers(env)
		return stopTLS(m.Run())
	}
	if err := start(cfg); err != nil {
		fmt.Fprintf(os.Stderr, "ensembletest: cannot start a ZooKeeper ensemble: %v\n"+
			"ensembletest: install Debian's zookeeper package, set %s=host:port,... or run with -short\n",
			err, EnvServers)
		return 1
	}
	return stop(m.Run())
}

func start(cfg ensemble.Config) error {
	ctx, cancel := context.WithTimeout(context.Background(), StartTimeout)
	defer cancel()
	e, err := ensemble.Start(ctx, cfg)
	if err != nil {
		return err
	}
	ens, servers = e, e.Addrs()
	return nil
}

// stop stops the local ensemble, if one was started, keeping its logs when
// the tests failed.
func stop(code int) int {
	code = stopTLS(code)
	mu.Lock()
	e := ens
	mu.Unlock()
	if e == nil {
		return code
	}
	var err error
	if code != 0 {
		fmt.Fprintln(os.Stderr, "ensembletest: tests failed; ZooKeeper server logs kept:")
		for _, p := range e.LogPaths() {
			fmt.Fprintln(os.Stderr, "  "+p)
		}
		err = e.StopKeepLogs()
	} else {
		err = e.Stop()
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "ensembletest: stopping the ensemble: %v\n", err)
		if code == 0 {
			code = 1
		}
	}
	return code
}

func splitServers(s string) []string {
	var out []string
	for _, a := range strings.Split(s, ",") {
		if a = strings.TrimSpace(a); a != "" {
			out = append(out, a)
		}
	}
	return out
}

// Servers returns the ensemble's client addresses. Under -short, where Main
// starts nothing, the first call starts the ensemble (for runnable examples,
// which cannot skip); it returns nil if that fails.
func Servers() []string {
	mu.Lock()
	defer mu.Unlock()
	if servers == nil && lazy != nil && lazyErr == nil {
		if lazyErr = start(*lazy); lazyErr != nil {
			fmt.Fprintf(os.Stderr, "ensembletest: cannot start a ZooKeeper ensemble: %v\n", lazyErr)
		}
	}
	return append([]string(nil), servers...)
}

// Ensemble returns the local ensemble, or nil if the ensemble is external
// or none was started.
func Ensemble() *ensemble.Ensemble {
	mu.Lock()
	defer mu.Unlock()
	return ens
}

// Require skips t under -short and otherwise returns the ensemble's client
// addresses. With a local ensemble it first makes sure the ensemble is whole
// and healthy, and if t fails it logs the server log paths.
func Require(t testing.TB) []string {
	t.Helper()
	if testing.Short() {
		t.Skip("needs a ZooKeeper ensemble; skipped under -short")
	}
	if !mainRan {
		t.Fatal("ensembletest: no ensemble: add func TestMain(m *testing.M) { os.Exit(ensembletest.Main(m)) }")
	}
	e := Ensemble()
	if e == nil {
		return Servers()
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("ZooKeeper server logs: %s", strings.Join(e.LogPaths(), " "))
		}
	})
	heal(t)
	return Servers()
}

// RequireLocal is Require for tests that kill, pause or restart servers: it
// skips t when the ensemble is external, and heals the ensemble (restarts,
// resumes, waits for a leader) when t ends so that the next test finds it
// whole.
func RequireLocal(t testing.TB) *ensemble.Ensemble {
	t.Helper()
	Require(t)
	if Ensemble() == nil {
		t.Skipf("needs a local ensemble to kill and pause servers; %s names an external one", EnvServers)
	}
	t.Cleanup(func() { heal(t) })
	return ens
}

func heal(t testing.TB) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), HealTimeout)
	defer cancel()
	if err := Ensemble().Heal(ctx); err != nil {
		t.Fatalf("ensembletest: ensemble not healthy: %v", err)
	}
}

// Environment variables giving an external ensemble's timing (zoo.cfg's
// tickTime in milliseconds and syncLimit), which clients need for their
// loss timers; unset, the local ensemble's defaults are assumed.
const (
	EnvTickTime  = "ZKLOCK_TICK_TIME_MS"
	EnvSyncLimit = "ZKLOCK_SYNC_LIMIT"
)

// Timing returns the servers' tickTime and syncLimit: the local ensemble's,
// or for an external one $ZKLOCK_TICK_TIME_MS and $ZKLOCK_SYNC_LIMIT,
// defaulting to what cmd/zkensemble starts (ensemble's defaults).
func Timing() (tickTime time.Duration, syncLimit int) {
	if e := Ensemble(); e != nil {
		return e.TickTime(), e.SyncLimit()
	}
	tickTime, syncLimit = ensemble.DefaultTickTime, ensemble.DefaultSyncLimit
	if ms, err := strconv.Atoi(os.Getenv(EnvTickTime)); err == nil && ms > 0 {
		tickTime = time.Duration(ms) * time.Millisecond
	}
	if n, err := strconv.Atoi(os.Getenv(EnvSyncLimit)); err == nil && n > 0 {
		syncLimit = n
	}
	return tickTime, syncLimit
}
