package ensemble

import (
	"context"
	_ "embed" // the pinned 3.9 server travels with the package
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/zklock/zklock/internal/mavenjars"
)

// The server versions an ensemble can run. Clients see the same wire
// protocol from both; what differs is the server's own code (session
// tracking, leader election, request pipelines), which is what a lock's
// correctness under faults depends on, so tests and campaigns run on both.
const (
	// Version38 is Debian's `zookeeper` package (3.8.0 on Debian 12).
	Version38 = "3.8"
	// Version39 is Apache ZooKeeper 3.9.4 from Maven Central, its jars pinned
	// by sha256 in zk39/checksums.sha256 and cached under .cache/zookeeper.
	Version39 = "3.9"
)

// VersionEnv names the environment variable that picks the version when
// Config.Version is empty: ZKLOCK_ZK=3.8 (the default) or ZKLOCK_ZK=3.9.
const VersionEnv = "ZKLOCK_ZK"

// Versions lists every version this package can run.
func Versions() []string { return []string{Version38, Version39} }

var (
	//go:embed zk39/pom.xml
	zk39Pom []byte
	//go:embed zk39/checksums.sha256
	zk39Sums []byte
)

// zk39 is ZooKeeper 3.9 and its runtime dependencies, pinned.
var zk39 = mavenjars.Set{Name: "ensemble: zookeeper 3.9", Pom: zk39Pom, Checksums: zk39Sums}

// DefaultVersion is $ZKLOCK_ZK, or Version38 when it is unset.
func DefaultVersion() string {
	if v := strings.TrimSpace(os.Getenv(VersionEnv)); v != "" {
		return v
	}
	return Version38
}

func knownVersion(v string) bool { return v == Version38 || v == Version39 }

// ClassPathFor returns the servers' class path for version: Debian's package
// for 3.8 (DefaultClassPath), and for 3.9 the pinned jars, fetched with
// Maven on first use (a few MB) and verified on every use. Fetch progress
// goes to log, which may be nil.
func ClassPathFor(ctx context.Context, version string, log io.Writer) ([]string, error) {
	switch version {
	case Version38:
		return DefaultClassPath(), nil
	case Version39:
		if log == nil {
			log = io.Discard
		}
		cache, err := mavenjars.CacheDir("ZKLOCK_ZOOKEEPER_CACHE", "zookeeper")
		if err != nil {
			return nil, fmt.Errorf("%w: zookeeper 3.9: %v", ErrNotInstalled, err)
		}
		_, jars, err := zk39.Fetch(ctx, cache, log)
		if err != nil {
			return nil, fmt.Errorf("%w: %w", ErrNotInstalled, err)
		}
		return jars, nil
	}
	return nil, fmt.Errorf("%w: version %q, want one of %s (%s)", ErrBadConfig, version,
		strings.Join(Versions(), ", "), VersionEnv)
}

// PinnedZooKeeper39 returns the jar names and sha256 sums the 3.9 server is
// pinned to.
func PinnedZooKeeper39() (map[string]string, error) { return zk39.Pinned() }
