package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/zklock/zklock/ensemble"
	"github.com/zklock/zklock/ensemble/ensembletest"
)

// sharedEnsemble starts one local ensemble for every mutant's tests, which
// reach it through ZKLOCK_SERVERS instead of each test binary starting its
// own: three JVMs starting on two cores cost more than most killers take to
// run. A test that kills or pauses servers (ensembletest.RequireLocal)
// skips against it; run reruns such a killer with an ensemble of its own.
// If ZKLOCK_SERVERS is set already, that ensemble is used as it is.
func sharedEnsemble() (env []string, stop func(), err error) {
	if os.Getenv(ensembletest.EnvServers) != "" {
		return nil, func() {}, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), ensembletest.StartTimeout)
	defer cancel()
	start := time.Now()
	e, err := ensemble.Start(ctx, ensemble.Config{})
	if err != nil {
		return nil, nil, fmt.Errorf("shared ensemble: %w", err)
	}
	fmt.Fprintf(os.Stderr, "mutants: shared ensemble %s up after %v\n",
		strings.Join(e.Addrs(), ","), time.Since(start).Round(time.Millisecond))
	env = []string{
		ensembletest.EnvServers + "=" + strings.Join(e.Addrs(), ","),
		ensembletest.EnvTickTime + "=" + strconv.FormatInt(e.TickTime().Milliseconds(), 10),
		ensembletest.EnvSyncLimit + "=" + strconv.Itoa(e.SyncLimit()),
	}
	return env, func() {
		if err := e.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "mutants: stopping the shared ensemble:", err)
		}
	}, nil
}

// withoutServers is the environment with no ZKLOCK_SERVERS, so that the
// test binary starts a local ensemble of its own (one it may kill servers
// of).
func withoutServers(env []string) []string {
	var out []string
	for _, kv := range env {
		if !strings.HasPrefix(kv, ensembletest.EnvServers+"=") {
			out = append(out, kv)
		}
	}
	return out
}
