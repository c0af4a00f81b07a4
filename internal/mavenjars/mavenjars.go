// Package mavenjars fetches a set of jars from Maven Central with Maven and
// checks every one against sha256 sums committed beside the pom that names
// them. It is the one way this repository brings in Java code it runs: the
// Curator harness (bench/curator) and the ZooKeeper 3.9 server (ensemble)
// both go through it, so both are pinned the same way.
//
// A Set is a pom (the dependencies to resolve, runtime scope) and the sha256
// of every jar Maven must copy for it. Fetch resolves into a cache keyed by
// both, verifies the jars (the exact set, each sum) and renames the result
// into place only when it verified, so an interrupted or concurrent fetch
// never leaves a half-filled directory under the final name. A cached
// directory is re-verified on every use.
package mavenjars

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

var (
	// ErrChecksum: a jar Maven fetched (or a cached one) does not have its
	// pinned sha256, or the set of jars differs from the pinned set.
	ErrChecksum = errors.New("jar checksum mismatch")
	// ErrToolMissing: java, javac or mvn is not installed.
	ErrToolMissing = errors.New("java, javac or mvn not found")
)

// Set is one pinned set of jars.
type Set struct {
	// Name prefixes error messages and names the cache folder, e.g. "curator".
	Name string
	// Pom is a pom.xml whose runtime dependencies are the jars wanted.
	Pom []byte
	// Checksums is sha256sum's output for every jar, see ParseChecksums.
	Checksums []byte
}

// Pinned returns the pinned jar names and their sha256 sums.
func (s Set) Pinned() (map[string]string, error) {
	sums, err := ParseChecksums(s.Checksums)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	return sums, nil
}

// Key names the set by its pom and checksums: a change to either is a new set.
func (s Set) Key() string { return Key(s.Pom, s.Checksums) }

// Key is a short hex digest of the given byte strings, lengths included.
func Key(parts ...[]byte) string {
	h := sha256.New()
	for _, b := range parts {
		fmt.Fprintf(h, "%d\n", len(b))
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// Tool returns the path of java, javac or mvn, preferring $JAVA_HOME/bin for
// the first two, or an error matching ErrToolMissing.
func Tool(name string) (string, error) {
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

// CacheDir is where a set keeps its files: $env if that variable is set,
// else .cache/<sub> in the repository (the nearest folder above the working
// directory holding this module's go.mod), which .gitignore ignores.
func CacheDir(env, sub string) (string, error) {
	if d := os.Getenv(env); d != "" {
		return filepath.Abs(d)
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		mod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.HasPrefix(mod, []byte("module github.com/zklock/zklock\n")) {
			return filepath.Join(dir, ".cache", sub), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("not inside the zklock repository; set %s", env)
		}
		dir = parent
	}
}

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
			return nil, fmt.Errorf("checksums line %d: want \"<sha256>  <file>\", got %q", i+1, line)
		}
		name := strings.TrimPrefix(f[1], "*")
		if name != filepath.Base(name) || !strings.HasSuffix(name, ".jar") {
			return nil, fmt.Errorf("checksums line %d: %q is not a jar file name", i+1, name)
		}
		if _, dup := sums[name]; dup {
			return nil, fmt.Errorf("checksums line %d: %s listed twice", i+1, name)
		}
		sums[name] = f[0]
	}
	if len(sums) == 0 {
		return nil, errors.New("no checksums")
	}
	return sums, nil
}

// VerifyJars checks that dir holds exactly the jars in want, each with its
// sha256. Every difference is listed in the error, which matches ErrChecksum.
func VerifyJars(dir string, want map[string]string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
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
		got, err := FileSHA256(filepath.Join(dir, e.Name()))
		if err != nil {
			return err
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

// Fetch returns the folder under cacheDir holding the set's verified jars,
// resolving them with Maven first if needed, and the jars' paths sorted by
// name. Progress goes to log.
func (s Set) Fetch(ctx context.Context, cacheDir string, log io.Writer) (string, []string, error) {
	want, err := s.Pinned()
	if err != nil {
		return "", nil, err
	}
	dir := filepath.Join(cacheDir, "jars-"+s.Key())
	if _, err := os.Stat(filepath.Join(dir, "ok")); err == nil {
		err := VerifyJars(dir, want)
		if err == nil {
			return dir, jarPaths(dir, want), nil
		}
		// A cached jar was altered: say so, then fetch afresh rather than
		// trust anything in that folder.
		fmt.Fprintf(log, "%s: cached jars rejected, fetching again: %v\n", s.Name, err)
		if err := os.RemoveAll(dir); err != nil {
			return "", nil, fmt.Errorf("%s: %w", s.Name, err)
		}
	}
	mvn, err := Tool("mvn")
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return "", nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	tmp, err := os.MkdirTemp(cacheDir, ".jars-*")
	if err != nil {
		return "", nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	defer os.RemoveAll(tmp) // no-op once renamed
	fmt.Fprintf(log, "%s: fetching jars with Maven into %s\n", s.Name, cacheDir)
	if err := s.resolve(ctx, mvn, cacheDir, tmp); err != nil {
		return "", nil, err
	}
	if err := VerifyJars(tmp, want); err != nil {
		return "", nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	if err := os.WriteFile(filepath.Join(tmp, "ok"), []byte(s.Key()+"\n"), 0o644); err != nil {
		return "", nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		// Another process finished the same fetch first: use it.
		if err := VerifyJars(dir, want); err != nil {
			return "", nil, fmt.Errorf("%s: installing jars: %w", s.Name, err)
		}
	}
	return dir, jarPaths(dir, want), nil
}

func jarPaths(dir string, jars map[string]string) []string {
	names := make([]string, 0, len(jars))
	for name := range jars {
		names = append(names, filepath.Join(dir, name))
	}
	sort.Strings(names)
	return names
}

// resolve runs Maven to copy the pom's runtime dependencies into dir, with
// Maven's own repository under cacheDir/m2 and its checksums checked (-C).
func (s Set) resolve(ctx context.Context, mvn, cacheDir, dir string) error {
	pomPath := filepath.Join(dir, "pom.xml")
	if err := os.WriteFile(pomPath, s.Pom, 0o644); err != nil {
		return fmt.Errorf("%s: %w", s.Name, err)
	}
	defer os.Remove(pomPath)
	cmd := exec.CommandContext(ctx, mvn, "-q", "-B", "-C", "-f", pomPath,
		"-Dmaven.repo.local="+filepath.Join(cacheDir, "m2"),
		"dependency:copy-dependencies", "-DincludeScope=runtime",
		"-DoutputDirectory="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("%s: mvn dependency:copy-dependencies: %w\n%s", s.Name, err, out)
	}
	return nil
}

// Resolve runs Maven into a fresh folder under cacheDir and returns the
// sha256 of every jar it copied, in ParseChecksums' format, for reviewing
// and committing after a version bump. It verifies nothing against the pins.
func (s Set) Resolve(ctx context.Context, cacheDir string) ([]byte, error) {
	mvn, err := Tool("mvn")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	tmp, err := os.MkdirTemp(cacheDir, ".resolve-*")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	defer os.RemoveAll(tmp)
	if err := s.resolve(ctx, mvn, cacheDir, tmp); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name, err)
	}
	var b bytes.Buffer
	for _, e := range entries { // ReadDir sorts by name
		if !strings.HasSuffix(e.Name(), ".jar") {
			continue
		}
		sum, err := FileSHA256(filepath.Join(tmp, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.Name, err)
		}
		fmt.Fprintf(&b, "%s  %s\n", sum, e.Name())
	}
	return b.Bytes(), nil
}

// FileSHA256 returns the hex sha256 of a file's content.
func FileSHA256(path string) (string, error) {
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
