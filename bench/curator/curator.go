// Package curator fetches Apache Curator with Maven, checks every jar against
// the sha256 sums committed in checksums.sha256, and compiles the Java harness
// ZkLockBench against them, all under a git-ignored cache (.cache/curator at
// the repository root). cmd/bench runs the harness to benchmark Curator's
// InterProcessMutex, InterProcessReadWriteLock, LeaderLatch and
// InterProcessSemaphoreV2; impl/zklock's interoperability test runs it to contend
// with Curator on one lock path. Both go through Prepare, so both use the same
// verified jars.
//
// Prepare is idempotent: the first call downloads (about 20 MB, a few seconds
// on a good link) and compiles; later calls rehash the cached jars and return.
// The jars are keyed by the pom and the checksums, the build also by the Java
// source, so a change to any of them fetches or builds afresh.
package curator

import (
	"context"
	_ "embed" // the harness sources travel with the package
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/zklock/zklock/internal/mavenjars"
)

// Version is the Curator release the harness is built against (pom.xml).
const Version = "5.9.0"

// MainClass is the harness's class name.
const MainClass = "ZkLockBench"

var (
	//go:embed pom.xml
	pom []byte
	//go:embed checksums.sha256
	checksums []byte
	//go:embed ZkLockBench.java
	source []byte
)

var (
	// ErrChecksum: a jar Maven fetched (or a cached one) does not have its
	// pinned sha256, or the set of jars differs from the pinned set.
	ErrChecksum = mavenjars.ErrChecksum
	// ErrToolMissing: java, javac or mvn is not installed.
	ErrToolMissing = mavenjars.ErrToolMissing
)

// jars is Curator and its runtime dependencies, pinned.
var jars = mavenjars.Set{Name: "curator", Pom: pom, Checksums: checksums}

// Harness is a compiled, verified harness.
type Harness struct {
	Java      string   // the java executable
	Dir       string   // the build directory: classes/
	ClassPath []string // classes/ first, then every pinned jar
}

// Tools returns the paths of java, javac and mvn, preferring $JAVA_HOME/bin
// for the first two, or an error matching ErrToolMissing.
func Tools() (java, javac, mvn string, err error) {
	if java, err = mavenjars.Tool("java"); err != nil {
		return
	}
	if javac, err = mavenjars.Tool("javac"); err != nil {
		return
	}
	mvn, err = mavenjars.Tool("mvn")
	return
}

// CacheDir is where Prepare keeps its files: $ZKLOCK_CURATOR_CACHE if set,
// else .cache/curator in the repository, which .gitignore ignores.
func CacheDir() (string, error) {
	d, err := mavenjars.CacheDir("ZKLOCK_CURATOR_CACHE", "curator")
	if err != nil {
		return "", fmt.Errorf("curator: %w", err)
	}
	return d, nil
}

// Pinned returns the pinned jar names and their sha256 sums.
func Pinned() (map[string]string, error) { return jars.Pinned() }

// Prepare returns the harness, building it under cacheDir first if needed:
// Maven copies curator-recipes and its dependencies from Maven Central, every
// jar is checked against checksums.sha256 (mavenjars.Set.Fetch), and javac
// compiles ZkLockBench.java against them. Progress goes to log.
func Prepare(ctx context.Context, cacheDir string, log io.Writer) (*Harness, error) {
	java, javac, _, err := Tools()
	if err != nil {
		return nil, err
	}
	_, cp, err := jars.Fetch(ctx, cacheDir, log)
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(cacheDir, "build-"+mavenjars.Key(pom, checksums, source))
	h := &Harness{Java: java, Dir: dir, ClassPath: append([]string{filepath.Join(dir, "classes")}, cp...)}
	if _, err := os.Stat(filepath.Join(dir, "ok")); err == nil {
		return h, nil
	}
	// Compile in a private directory and rename it into place at the end,
	// so that an interrupted or concurrent build never leaves a half-built
	// dir under the final name.
	tmp, err := os.MkdirTemp(cacheDir, ".build-*")
	if err != nil {
		return nil, fmt.Errorf("curator: %w", err)
	}
	defer os.RemoveAll(tmp) // no-op once renamed
	src := filepath.Join(tmp, MainClass+".java")
	if err := os.WriteFile(src, source, 0o644); err != nil {
		return nil, fmt.Errorf("curator: %w", err)
	}
	cmd := exec.CommandContext(ctx, javac, "--release", "17", "-nowarn", "-d", filepath.Join(tmp, "classes"),
		"-cp", strings.Join(cp, string(os.PathListSeparator)), src)
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("curator: javac: %w\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(tmp, "ok"), []byte("ok\n"), 0o644); err != nil {
		return nil, fmt.Errorf("curator: %w", err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Another process finished the same build first: use it.
		if _, statErr := os.Stat(filepath.Join(dir, "ok")); statErr != nil {
			return nil, fmt.Errorf("curator: installing build: %w", err)
		}
	}
	fmt.Fprintf(log, "curator: harness built in %s\n", dir)
	return h, nil
}

// Resolve runs Maven afresh and returns the sha256 of every jar it copied,
// in checksums.sha256's format, for reviewing and committing after a version
// bump. It verifies nothing against the pins.
func Resolve(ctx context.Context, cacheDir string) ([]byte, error) {
	return jars.Resolve(ctx, cacheDir)
}

// Command returns the command that runs the harness with args (see
// ZkLockBench.java: "bench ..." or "hold ..."), after the JVM flags.
func (h *Harness) Command(ctx context.Context, jvmFlags []string, args ...string) *exec.Cmd {
	all := append(slices.Clone(jvmFlags),
		// The harness logs client warnings only, to stderr; stdout is its protocol.
		"-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
		"-Dorg.slf4j.simpleLogger.logFile=System.err",
		"-cp", strings.Join(h.ClassPath, string(os.PathListSeparator)), MainClass)
	return exec.CommandContext(ctx, h.Java, append(all, args...)...)
}

// JavaVersion returns the first line of `java -version`, e.g.
// `openjdk version "17.0.15" 2025-04-15`.
func (h *Harness) JavaVersion(ctx context.Context) string {
	out, err := exec.CommandContext(ctx, h.Java, "-version").CombinedOutput()
	if err != nil {
		return "unknown"
	}
	line, _, _ := strings.Cut(string(out), "\n")
	return strings.TrimSpace(line)
}
