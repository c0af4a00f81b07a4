package curator

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
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

func TestParseChecksums(t *testing.T) {
	good := strings.Repeat("ab", 32)
	for _, bad := range []string{
		"",
		"# only a comment\n",
		good + " a.jar extra\n",
		strings.Repeat("AB", 32) + "  a.jar\n", // sha256sum prints lower case
		good[:62] + "  a.jar\n",
		good + "  ../a.jar\n",
		good + "  a.txt\n",
		good + "  a.jar\n" + good + "  a.jar\n",
	} {
		if _, err := ParseChecksums([]byte(bad)); err == nil {
			t.Errorf("ParseChecksums(%q) accepted it", bad)
		}
	}
	sums, err := ParseChecksums([]byte("# c\n\n" + good + "  a.jar\n" + good + " *b.jar\n"))
	if err != nil || len(sums) != 2 || sums["a.jar"] != good || sums["b.jar"] != good {
		t.Errorf("ParseChecksums: %v, %v", sums, err)
	}
}

func TestVerifyJars(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.jar", "hello\n")
	write("notes.txt", "ignored: not a jar")
	// sha256 of "hello\n".
	const helloSum = "5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03"
	want := map[string]string{"a.jar": helloSum}
	if err := VerifyJars(dir, want); err != nil {
		t.Fatalf("exact set: %v", err)
	}

	write("a.jar", "hellO\n")
	if err := VerifyJars(dir, want); !errors.Is(err, ErrChecksum) || !strings.Contains(err.Error(), "a.jar: sha256") {
		t.Errorf("altered jar: %v", err)
	}
	write("a.jar", "hello\n")

	write("extra.jar", "x")
	if err := VerifyJars(dir, want); !errors.Is(err, ErrChecksum) || !strings.Contains(err.Error(), "extra.jar: not pinned") {
		t.Errorf("unpinned jar: %v", err)
	}
	os.Remove(filepath.Join(dir, "extra.jar"))

	want["gone.jar"] = helloSum
	if err := VerifyJars(dir, want); !errors.Is(err, ErrChecksum) || !strings.Contains(err.Error(), "gone.jar: pinned but missing") {
		t.Errorf("missing jar: %v", err)
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
		b, err := os.ReadFile(filepath.Join(h.Dir, "lib", name))
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
	if err := VerifyJars(lib, sums); !errors.Is(err, ErrChecksum) {
		t.Errorf("a tampered curator-recipes jar passed: %v", err)
	}
}

type testLog struct{ t *testing.T }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}
