package mavenjars

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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
