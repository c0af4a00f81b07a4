// Package curator fetches Apache Curator with Maven, checks every jar against
// the sha256 sums committed in checksums.sha256, and compiles the Java harness
// ZkLockBench against them, all under a git-ignored cache (.cache/curator at
// the repository root). cmd/bench runs the harness to benchmark Curator's
// InterProcessMutex; impl/zklock's interoperability test runs it to contend
// with Curator on one lock path. Both go through Prepare, so both use the same
// verified jars.
//
// Prepare is idempotent: the first call downloads (about 20 MB, a few seconds
// on a good link) and compiles; later calls rehash the cached jars and return.
// The cache is keyed by the pom, the checksums and the Java source, so a change
// to any of them builds afresh.
package curator

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed" // the harness sources travel with the package
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
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
	ErrChecksum = errors.New("curator: jar checksum mismatch")
	// ErrToolMissing: java, javac or mvn is not installed.
	ErrToolMissing = errors.New("curator: java, javac or mvn not found")
)

// Harness is a compiled, verified harness.
type Harness struct {
	Java      string   // the java executable
	Dir       string   // the build directory: classes/ and lib/
	ClassPath []string // classes/ first, then every pinned jar
}

// Tools returns the paths of java, javac and mvn, preferring $JAVA_HOME/bin
// for the first two, or an error matching ErrToolMissing.
func Tools() (java, javac, mvn string, err error) {
	find := func(name string) (string, error) {
		if home := os.Getenv("JAVA_HOME"); home != "" && name != "mvn" {
			p := filepath.Join(home, "bin", name)
			if _, err := os.Stat(p); err == nil {
				return p, nil
			}
		}
		p, err := exec.LookPath(name)
		if err != nil {
			return "", fmt.Errorf("%w: %s: %w", ErrToolMissing, name, err)
		}
		return p, nil
	}
	if java, err = find("java"); err != nil {
		return
	}
	if javac, err = find("javac"); err != nil {
		return
	}
	mvn, err = find("mvn")
	return
}

// CacheDir is where Prepare keeps its files: $ZKLOCK_CURATOR_CACHE if set,
// else .cache/curator in the repository (the nearest folder above the working
// directory holding this module's go.mod), which .gitignore ignores.
func CacheDir() (string, error) {
	if d := os.Getenv("ZKLOCK_CURATOR_CACHE"); d != "" {
		return filepath.Abs(d)
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("curator: %w", err)
	}
	for {
		mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.HasPrefix(mod, []byte("module github.com/zklock/zklock\n")) {
			return filepath.Join(dir, ".cache", "curator"), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("curator: not inside the zklock repository; set ZKLOCK_CURATOR_CACHE")
		}
		dir = parent
	}
}

// Pinned returns the pinned jar names and their sha256 sums.
func Pinned() (map[string]string, error) { return ParseChecksums(checksums) }

// ParseChecksums reads sha256sum's format: "<64 hex digits>  <file name>" per
// line; blank lines and lines starting with # are skipped.
func ParseChecksums(data []byte) (map[string]string, error) {
	sums := map[string]string{}
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 2 || len(f[0]) != 64 || strings.Trim(f[0], "0123456789abcdef") != "" {
			return nil, fmt.Errorf("curator: checksums line %d: want \"<sha256>  <file>\", got %q", i+1, line)
		}
		name := strings.TrimPrefix(f[1], "*")
		if name != filepath.Base(name) || !strings.HasSuffix(name, ".jar") {
			return nil, fmt.Errorf("curator: checksums line %d: %q is not a jar file name", i+1, name)
		}
		if _, dup := sums[name]; dup {
			return nil, fmt.Errorf("curator: checksums line %d: %s listed twice", i+1, name)
		}
		sums[name] = f[0]
	}
	if len(sums) == 0 {
		return nil, errors.New("curator: no checksums")
	}
	return sums, nil
}

// VerifyJars checks that dir holds exactly the jars in want, each with its
// sha256. Every difference is listed in the error, which matches ErrChecksum.
func VerifyJars(dir string, want map[string]string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("curator: %w", err)
	}
	var problems []string
	seen := map[string]bool{}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".jar") {
			continue
		}
		seen[e.Name()] = true
		sum, ok := want[e.Name()]
		if !ok {
			problems = append(problems, e.Name()+": not pinned (Maven resolved a jar the checksums file does not list)")
			continue
		}
		got, err := fileSHA256(filepath.Join(dir, e.Name()))
		if err != nil {
			return fmt.Errorf("curator: %w", err)
		}
		if got != sum {
			problems = append(problems, fmt.Sprintf("%s: sha256 %s, pinned %s", e.Name(), got, sum))
		}
	}
	for name := range want {
		if !seen[name] {
			problems = append(problems, name+": pinned but missing")
		}
	}
	if len(problems) > 0 {
		sort.Strings(problems)
		return fmt.Errorf("%w in %s:\n  %s", ErrChecksum, dir, strings.Join(problems, "\n  "))
	}
	return nil
}

// buildKey names a build by everything that goes into it.
func buildKey() string {
	h := sha256.New()
	for _, b := range [][]byte{pom, checksums, source} {
		fmt.Fprintf(h, "%d\n", len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// Prepare returns the harness, building it under cacheDir first if needed:
// Maven copies curator-recipes and its dependencies from Maven Central
// (checking the repository's own checksums too, -C), every jar is checked
// against checksums.sha256, and javac compiles ZkLockBench.java. A cached
// build is used only if its jars still match. Progress goes to log.
func Prepare(ctx context.Context, cacheDir string, log io.Writer) (*Harness, error) {
	java, javac, mvn, err := Tools()
	if err != nil {
		return nil, err
	}
	want, err := Pinned()
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(cacheDir, "build-"+buildKey())
	if _, err := os.Stat(filepath.Join(dir, "ok")); err == nil {
		err := VerifyJars(filepath.Join(dir, "lib"), want)
		if err == nil {
			return harness(java, dir, want), nil
		}
		// A cached jar was altered: say so, then build afresh rather than
		// trust anything in that directory.
		fmt.Fprintf(log, "curator: cached build rejected, rebuilding: %v\n", err)
		if err := os.RemoveAll(dir); err != nil {
			return nil, fmt.Errorf("curator: %w", err)
		}
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return nil, fmt.Errorf("curator: %w", err)
	}
	// Build in a private directory and rename it into place at the end, so
	// that an interrupted or concurrent build never leaves a half-built dir
	// under the final name.
	tmp, err := os.MkdirTemp(cacheDir, ".build-*")
	if err != nil {
		return nil, fmt.Errorf("curator: %w", err)
	}
	defer os.RemoveAll(tmp) // no-op once renamed
	fmt.Fprintf(log, "curator: fetching Curator %s with Maven into %s\n", Version, cacheDir)
	if err := resolve(ctx, mvn, cacheDir, tmp); err != nil {
		return nil, err
	}
	if err := VerifyJars(filepath.Join(tmp, "lib"), want); err != nil {
		return nil, err
	}
	src := filepath.Join(tmp, MainClass+".java")
	if err := os.WriteFile(src, source, 0o644); err != nil {
		return nil, fmt.Errorf("curator: %w", err)
	}
	h := harness(java, tmp, want)
	cmd := exec.CommandContext(ctx, javac, "--release", "17", "-nowarn", "-d", filepath.Join(tmp, "classes"),
		"-cp", strings.Join(h.ClassPath[1:], string(os.PathListSeparator)), src)
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("curator: javac: %w\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(tmp, "ok"), []byte(buildKey()+"\n"), 0o644); err != nil {
		return nil, fmt.Errorf("curator: %w", err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Another process finished the same build first: use it.
		if _, statErr := os.Stat(filepath.Join(dir, "ok")); statErr != nil {
			return nil, fmt.Errorf("curator: installing build: %w", err)
		}
		if err := VerifyJars(filepath.Join(dir, "lib"), want); err != nil {
			return nil, err
		}
	}
	fmt.Fprintf(log, "curator: harness built in %s\n", dir)
	// Builds for older sources are dead weight; Maven's repository (m2)
	// stays, so a switch back costs a compile, not a download.
	if old, err := filepath.Glob(filepath.Join(cacheDir, "build-*")); err == nil {
		for _, o := range old {
			if o != dir {
				os.RemoveAll(o)
			}
		}
	}
	return harness(java, dir, want), nil
}

func harness(java, dir string, jars map[string]string) *Harness {
	names := make([]string, 0, len(jars))
	for name := range jars {
		names = append(names, name)
	}
	slices.Sort(names)
	cp := []string{filepath.Join(dir, "classes")}
	for _, n := range names {
		cp = append(cp, filepath.Join(dir, "lib", n))
	}
	return &Harness{Java: java, Dir: dir, ClassPath: cp}
}

// resolve runs Maven to copy curator-recipes and its runtime dependencies into
// dir/lib, with Maven's own repository under cacheDir/m2.
func resolve(ctx context.Context, mvn, cacheDir, dir string) error {
	pomPath := filepath.Join(dir, "pom.xml")
	if err := os.WriteFile(pomPath, pom, 0o644); err != nil {
		return fmt.Errorf("curator: %w", err)
	}
	cmd := exec.CommandContext(ctx, mvn, "-q", "-B", "-C", "-f", pomPath,
		"-Dmaven.repo.local="+filepath.Join(cacheDir, "m2"),
		"dependency:copy-dependencies", "-DincludeScope=runtime",
		"-DoutputDirectory="+filepath.Join(dir, "lib"))
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("curator: mvn dependency:copy-dependencies: %w\n%s", err, out)
	}
	return nil
}

// Resolve runs Maven into a fresh directory under cacheDir and returns the
// sha256 of every jar it copied, in checksums.sha256's format, for reviewing
// and committing after a version bump. It verifies nothing against the pins.
func Resolve(ctx context.Context, cacheDir string) ([]byte, error) {
	_, _, mvn, err := Tools()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return nil, fmt.Errorf("curator: %w", err)
	}
	tmp, err := os.MkdirTemp(cacheDir, ".resolve-*")
	if err != nil {
		return nil, fmt.Errorf("curator: %w", err)
	}
	defer os.RemoveAll(tmp)
	if err := resolve(ctx, mvn, cacheDir, tmp); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(filepath.Join(tmp, "lib"))
	if err != nil {
		return nil, fmt.Errorf("curator: %w", err)
	}
	var b bytes.Buffer
	for _, e := range entries { // ReadDir sorts by name
		sum, err := fileSHA256(filepath.Join(tmp, "lib", e.Name()))
		if err != nil {
			return nil, fmt.Errorf("curator: %w", err)
		}
		fmt.Fprintf(&b, "%s  %s\n", sum, e.Name())
	}
	return b.Bytes(), nil
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

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
