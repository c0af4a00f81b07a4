package ensembletest

import (
	"context"
	"crypto/tls"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/zklock/zklock/ensemble"
)

// A test binary's TLS ensemble: started by the first RequireTLS, shared by
// every test of the binary after it, stopped when Main returns.
var (
	tlsOnce sync.Once
	tlsEns  *ensemble.Ensemble
	tlsErr  error
)

// RequireTLS is Require for a TLS-only ensemble (see ensemble.Config.TLS):
// it returns the secure client addresses and a client configuration that
// trusts them, like httptest.NewTLSServer's Client. The ensemble is one
// standalone server of the binary's version, started on first use (a few
// seconds) and stopped by Main; it is local even when ZKLOCK_SERVERS names
// an external ensemble. Under -short t is skipped; if t fails, the server
// log is kept and its path logged.
func RequireTLS(t testing.TB) (servers []string, client *tls.Config) {
	t.Helper()
	e := RequireTLSEnsemble(t)
	return e.Addrs(), e.ClientTLS()
}

// RequireTLSEnsemble is RequireTLS returning the ensemble itself, for
// tests that kill, pause or restart its server: it is healed when t ends.
func RequireTLSEnsemble(t testing.TB) *ensemble.Ensemble {
	t.Helper()
	if testing.Short() {
		t.Skip("needs a ZooKeeper ensemble; skipped under -short")
	}
	if !mainRan {
		t.Fatal("ensembletest: no ensemble: add func TestMain(m *testing.M) { os.Exit(ensembletest.Main(m)) }")
	}
	tlsOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), StartTimeout)
		defer cancel()
		tlsEns, tlsErr = ensemble.Start(ctx, ensemble.Config{Servers: 1, TLS: true})
	})
	if tlsErr != nil {
		t.Fatalf("ensembletest: cannot start a TLS ensemble: %v", tlsErr)
	}
	e := tlsEns
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("ZooKeeper TLS server log: %s", strings.Join(e.LogPaths(), " "))
		}
		healTLS(t, e)
	})
	healTLS(t, e)
	return e
}

func healTLS(t testing.TB, e *ensemble.Ensemble) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), HealTimeout)
	defer cancel()
	if err := e.Heal(ctx); err != nil {
		t.Fatalf("ensembletest: TLS ensemble not healthy: %v", err)
	}
}

// stopTLS stops the TLS ensemble if a test started one, keeping its log
// when the tests failed.
func stopTLS(code int) int {
	e := tlsEns
	if e == nil {
		return code
	}
	var err error
	if code != 0 {
		fmt.Fprintln(os.Stderr, "ensembletest: tests failed; ZooKeeper TLS server log kept:", strings.Join(e.LogPaths(), " "))
		err = e.StopKeepLogs()
	} else {
		err = e.Stop()
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "ensembletest: stopping the TLS ensemble: %v\n", err)
		if code == 0 {
			code = 1
		}
	}
	return code
}
