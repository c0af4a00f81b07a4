package docs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// root is the repository's top, seen from this package's directory.
const root = ".."

func readRepo(t *testing.T, rel string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

func report(t *testing.T, bad []string) {
	t.Helper()
	for _, b := range bad {
		t.Error(b)
	}
}

func TestReadmeIsShort(t *testing.T) {
	report(t, checkReadmeLength(readRepo(t, "README.md")))
}

func TestNoLongLines(t *testing.T) {
	files, err := markdownFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 10 {
		t.Fatalf("found only %d Markdown files: %v", len(files), files)
	}
	for _, f := range files {
		if !generated[f] {
			report(t, checkLineLengths(f, readRepo(t, f)))
		}
	}
}

func TestLinksResolve(t *testing.T) {
	files, err := markdownFiles(root)
	if err != nil {
		t.Fatal(err)
	}
	report(t, checkLinks(root, files))
}

func TestGuaranteesNameRealChecks(t *testing.T) {
	ix, err := buildIndex(root)
	if err != nil {
		t.Fatal(err)
	}
	// The index itself must see the repository, or every name would be
	// reported missing for a reason no document can fix.
	for kind, n := range map[string]int{
		"tests": len(ix.tests), "mutants": len(ix.mutants), "chaos checks": len(ix.chaos),
		"configs": len(ix.configs), "modules": len(ix.defs),
	} {
		if n == 0 {
			t.Fatalf("found no %s in the repository", kind)
		}
	}
	report(t, checkGuarantees(ix, readRepo(t, "docs/GUARANTEES.md")))
}

func TestReadmeListsEveryPromise(t *testing.T) {
	report(t, checkReadmeTable(readRepo(t, "README.md"), readRepo(t, "docs/GUARANTEES.md")))
}

// TestAPINamesExist: the identifiers of impl/zklock and otelzklock that the
// README and the operator's guide cite are declared there.
func TestAPINamesExist(t *testing.T) {
	a, err := loadAPI(root)
	if err != nil {
		t.Fatal(err)
	}
	for f, typeSpans := range map[string]bool{"README.md": true, "docs/OPERATIONS.md": true, "docs/GUARANTEES.md": false} {
		report(t, checkAPI(a, f, readRepo(t, f), typeSpans))
	}
	good := "`zklock.NewSession`, `Lease.Guard`, `zklock.LeaderInfo.Vacant`, `otelzklock.NewObserver`, zklock.go\n"
	if bad := checkAPI(a, "x.md", good, true); len(bad) != 0 {
		t.Errorf("real names rejected: %v", bad)
	}
	for _, doc := range []string{"`zklock.NoSuchFunc`", "`Lease.NoSuchMethod`", "zklock.Lease.NoSuchMethod", "`otelzklock.NoSuch`", "`ErrNoSuchError`"} {
		if bad := checkAPI(a, "x.md", doc, true); len(bad) == 0 {
			t.Errorf("control %s: accepted", doc)
		}
	}
}

// TestControls: each check rejects a document made to break it.
func TestControls(t *testing.T) {
	ix, err := buildIndex(root)
	if err != nil {
		t.Fatal(err)
	}
	// The controls' index knows one mutant, the one the good promise names:
	// a promise of the repository's would have to name all of them.
	full := ix
	one := *ix
	one.mutants = map[string]bool{"notification-is-grant": true}
	ix = &one
	good := "## Locks\n\n### One holder\n\nPromise.\nBound: one.\n\n" +
		"- spec: `PredecessorLock.MutualExclusion`\n- configs: `PredecessorLock.Safety`\n" +
		"- controls: `PredecessorLockNotifyIsGrant.MiddleCancel`\n" +
		"- tests: `TestMutualExclusion`\n- mutants: `notification-is-grant`\n- chaos: `overlap`\n"
	if bad := checkGuarantees(ix, good); len(bad) != 0 {
		t.Fatalf("the well-formed promise is rejected: %v", bad)
	}
	for name, doc := range map[string]string{
		"missing test":       strings.Replace(good, "TestMutualExclusion", "TestNoSuchTestAnywhere", 1),
		"wrapped missing":    strings.Replace(good, "`TestMutualExclusion`", "`TestMutualExclusion`,\n  `TestNoSuchTestAnywhere`", 1),
		"no test":            strings.Replace(good, "- tests: `TestMutualExclusion`\n", "", 1),
		"missing mutant":     strings.Replace(good, "`notification-is-grant`", "`no-such-mutant`", 1),
		"missing chaos":      strings.Replace(good, "`overlap`", "`no-such-check`", 1),
		"missing property":   strings.Replace(good, "MutualExclusion`\n- configs", "NoSuchProperty`\n- configs", 1),
		"missing module":     strings.Replace(good, "`PredecessorLock.MutualExclusion`", "`NoSuchModule.MutualExclusion`", 1),
		"missing config":     strings.Replace(good, "`PredecessorLock.Safety`", "`PredecessorLock.NoSuchConfig`", 1),
		"no bound":           strings.Replace(good, "Bound: one.\n", "", 1),
		"prose in names":     strings.Replace(good, "- tests: `TestMutualExclusion`", "- tests: `TestMutualExclusion` and others", 1),
		"unknown kind":       strings.Replace(good, "- chaos:", "- chaoss:", 1),
		"no promise":         "## Locks\n\nNothing.\n",
		"duplicate promise":  good + "\n" + strings.TrimPrefix(good, "## Locks\n\n"),
		"empty name list":    strings.Replace(good, "- mutants: `notification-is-grant`", "- mutants: none", 1),
		"property as config": strings.Replace(good, "`PredecessorLock.Safety`", "`PredecessorLock.MutualExclusion`", 1),
		"failing as config":  strings.Replace(good, "`PredecessorLock.Safety`", "`PredecessorLock.Pause`", 1),
		"passing as control": strings.Replace(good, "- configs:", "- controls:", 1),
	} {
		if bad := checkGuarantees(ix, doc); len(bad) == 0 {
			t.Errorf("control %q: accepted:\n%s", name, doc)
		}
	}

	readme := "| promise | bound | checked |\n|---|---|---|\n| one | one | [how](docs/GUARANTEES.md#one-holder) |\n"
	if bad := checkReadmeTable(readme, good); len(bad) != 0 {
		t.Errorf("a README that lists the promise is rejected: %v", bad)
	}
	if bad := checkReadmeTable(readme, good+"\n### Another promise\n\nBound: b.\n"); len(bad) == 0 {
		t.Errorf("control %q: accepted", "a promise the README does not list")
	}

	more := one
	more.mutants = map[string]bool{"notification-is-grant": true, "skip-own-node-check": true}
	if bad := checkGuarantees(&more, good); len(bad) == 0 {
		t.Errorf("control %q: accepted", "mutant no promise names")
	}
	if len(full.mutants) < 2 {
		t.Errorf("the repository's index has %d mutants", len(full.mutants))
	}

	if bad := checkReadmeLength(strings.Repeat("line\n", maxReadmeLines)); len(bad) != 0 {
		t.Errorf("a README of %d lines is rejected: %v", maxReadmeLines, bad)
	}
	if bad := checkReadmeLength(strings.Repeat("line\n", maxReadmeLines+1)); len(bad) == 0 {
		t.Errorf("a README of %d lines is accepted", maxReadmeLines+1)
	}
	if bad := checkLineLengths("x.md", strings.Repeat("é", maxLineChars)); len(bad) != 0 {
		t.Errorf("a line of %d characters is rejected: %v", maxLineChars, bad)
	}
	if bad := checkLineLengths("x.md", "ok\n"+strings.Repeat("a", maxLineChars+1)); len(bad) == 0 {
		t.Errorf("a line of %d characters is accepted", maxLineChars+1)
	}

	dir := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a/target.md", "# Title\n\n## The `make verify` run\n\n## Twice\n\n## Twice\n")
	write("ok.md", "[t](a/target.md) [s](a/target.md#the-make-verify-run) [d](a/target.md#twice-1)\n"+
		"[web](https://example.com/x) [self](#top) [dir](a)\n\n# Top\n\n```\n[code](nowhere.md)\n```\n`[span](nowhere.md)`\n")
	if bad := checkLinks(dir, []string{"ok.md"}); len(bad) != 0 {
		t.Errorf("good links rejected: %v", bad)
	}
	for name, text := range map[string]string{
		"missing file":     "see [x](a/missing.md)\n",
		"missing anchor":   "see [x](a/target.md#no-such-heading)\n",
		"missing self":     "# Top\n\nsee [x](#bottom)\n",
		"outside the repo": "see [x](../elsewhere.md)\n",
		"absolute path":    "see [x](/work/main/README.md)\n",
		"reference style":  "see [x][r]\n\n[r]: a/missing.md\n",
	} {
		write("bad.md", text)
		if bad := checkLinks(dir, []string{"bad.md"}); len(bad) == 0 {
			t.Errorf("control %q: broken link accepted", name)
		}
	}
}
