package curator

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/zklock/zklock/internal/mavenjars"
)

func TestPinnedCoversCurator(t *testing.T) {
	sums, err := Pinned()
	if err != nil {
		t.Fatal(err)
	}
	for _, jar := range []string{"curator-recipes-" + Version + ".jar", "curator-framework-" + Version + ".jar",
		"curator-client-" + Version + ".jar"} {
		if sums[jar] == "" {
			t.Errorf("%s is not pinned", jar)
		}
	}
	if !strings.Contains(string(pom), "<version>"+Version+"</version>") {
		t.Errorf("pom.xml does not ask for Curator %s", Version)
	}
}

// TestPrepare builds (or finds) the real harness, runs its dry run, and shows
// that the verification rejects a real jar with one byte changed.
func TestPrepare(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: Prepare downloads Curator on first use")
	}
	if _, _, _, err := Tools(); err != nil {
		t.Skip(err)
	}
	cache, err := CacheDir()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	h, err := Prepare(ctx, cache, testLog{t})
	if err != nil {
		t.Fatal(err)
	}

	cmd := h.Command(ctx, nil, "hold", "--dry-run")
	cmd.Stdin = strings.NewReader("acquire a write /x\nrelease a\nquit\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("dry run: %v", err)
	}
	for _, want := range []string{"ready dry-run", "would acquire a: new session, InterProcessReadWriteLock.writeLock() on /x", "would release a"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("dry run output lacks %q:\n%s", want, out)
		}
	}

	// A copy of the verified jars with one byte of one jar flipped.
	sums, _ := Pinned()
	lib := t.TempDir()
	for name := range sums {
		b, err := os.ReadFile(jarPath(h, name))
		if err != nil {
			t.Fatal(err)
		}
		if name == "curator-recipes-"+Version+".jar" {
			b[len(b)/2] ^= 1
		}
		if err := os.WriteFile(filepath.Join(lib, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := mavenjars.VerifyJars(lib, sums); !errors.Is(err, ErrChecksum) {
		t.Errorf("a tampered curator-recipes jar passed: %v", err)
	}
}

type testLog struct{ t *testing.T }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// jarPath finds a pinned jar on the harness's class path.
func jarPath(h *Harness, name string) string {
	for _, p := range h.ClassPath {
		if filepath.Base(p) == name {
			return p
		}
	}
	return name
}
