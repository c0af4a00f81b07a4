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
// Main starts a local 3-node ensemble unless -short is given (then it starts
// nothing and Require skips) or ZKLOCK_SERVERS=host:port,... names an
// external ensemble (then tests that kill or pause servers, which call
// RequireLocal, skip). If a test fails, the server logs are kept and their
// paths printed.
package ensembletest

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
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

// Set by Main before any test runs and read-only afterwards.
var (
	mainRan bool
	servers []string
	ens     *ensemble.Ensemble
)

// Main runs the tests of m against a local 3-node ensemble (see the package
// documentation) and returns the exit code for os.Exit.
func Main(m *testing.M) int { return MainConfig(m, ensemble.Config{}) }

// MainConfig is Main with a custom configuration for the local ensemble.
func MainConfig(m *testing.M, cfg ensemble.Config) int {
	flag.Parse()
	mainRan = true
	if testing.Short() {
		return m.Run()
	}
	if env := os.Getenv(EnvServers); env != "" {
		servers = splitServers(env)
		return m.Run()
	}
	ctx, cancel := context.WithTimeout(context.Background(), StartTimeout)
	e, err := ensemble.Start(ctx, cfg)
	cancel()
	if err != nil {
		fmt.Fprintf(os.Stderr, "ensembletest: cannot start a ZooKeeper ensemble: %v\n"+
			"ensembletest: install Debian's zookeeper package, set %s=host:port,... or run with -short\n",
			err, EnvServers)
		return 1
	}
	ens, servers = e, e.Addrs()
	code := m.Run()
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

// Servers returns the ensemble's client addresses, or nil under -short.
func Servers() []string { return append([]string(nil), servers...) }

// Ensemble returns the local ensemble, or nil if the ensemble is external
// or none was started.
func Ensemble() *ensemble.Ensemble { return ens }

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
	if ens == nil {
		return Servers()
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("ZooKeeper server logs: %s", strings.Join(ens.LogPaths(), " "))
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
	if ens == nil {
		t.Skipf("needs a local ensemble to kill and pause servers; %s names an external one", EnvServers)
	}
	t.Cleanup(func() { heal(t) })
	return ens
}

func heal(t testing.TB) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), HealTimeout)
	defer cancel()
	if err := ens.Heal(ctx); err != nil {
		t.Fatalf("ensembletest: ensemble not healthy: %v", err)
	}
}
