package tlccfg

import (
	"os"
	"path/filepath"
	"testing"
)

func TestSelect(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("M.tla", "---- MODULE M ----\n====\n")
	write("M.Fast.cfg", "\\* expect: pass\nINIT Init\nNEXT Next\n")
	write("M.Big.cfg", "\\* expect: pass\n\\* deep\nINIT Init\nNEXT Next\n")
	write("M.Other.cfg", "\\* expect: pass\nINIT Init\nNEXT Next\n")

	ids := func(cs []Config) (out []string) {
		for _, c := range cs {
			out = append(out, c.ID())
		}
		return out
	}
	for _, tc := range []struct {
		deep   bool
		filter string
		want   []string
	}{
		{false, "", []string{"M.Fast", "M.Other"}},
		{true, "", []string{"M.Big"}},
		{false, `\.Fast$`, []string{"M.Fast"}},
	} {
		got, err := Select(dir, tc.deep, tc.filter)
		if err != nil {
			t.Fatalf("Select(deep=%v, %q): %v", tc.deep, tc.filter, err)
		}
		if g := ids(got); len(g) != len(tc.want) || g[0] != tc.want[0] || g[len(g)-1] != tc.want[len(tc.want)-1] {
			t.Errorf("Select(deep=%v, %q) = %v, want %v", tc.deep, tc.filter, g, tc.want)
		}
	}
	// The controls: a filter matching nothing and a broken regexp are errors.
	if _, err := Select(dir, false, "NoSuch"); err == nil {
		t.Error("a filter matching no config selected nothing without an error")
	}
	if _, err := Select(dir, false, "("); err == nil {
		t.Error("a broken regexp was accepted")
	}
}
