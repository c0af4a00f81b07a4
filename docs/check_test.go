package docs

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"unicode"
)

// maxReadmeLines bounds README.md: a newcomer reads it in ten minutes.
const maxReadmeLines = 300

// maxLineChars bounds every line of a hand-written Markdown file: a longer
// one is a paragraph or a table cell nobody reads, and it diffs badly.
const maxLineChars = 400

// generated lists the Markdown files that programs write (cmd/tlc,
// cmd/conformance and cmd/bench); their lines are not held to maxLineChars.
var generated = map[string]bool{
	"spec/tla/RESULTS.md":  true,
	"model/CONFORMANCE.md": true,
	"bench/RESULTS.md":     true,
}

// skippedDirs are never walked: tool caches, campaign output and test data.
var skippedDirs = map[string]bool{
	".git": true, ".cache": true, "out": true, "testdata": true,
	"node_modules": true, ".ensemble": true, "states": true,
}

// checkReadmeLength reports a README longer than maxReadmeLines.
func checkReadmeLength(text string) []string {
	n := strings.Count(text, "\n")
	if text != "" && !strings.HasSuffix(text, "\n") {
		n++
	}
	if n > maxReadmeLines {
		return []string{fmt.Sprintf("README.md has %d lines, more than %d", n, maxReadmeLines)}
	}
	return nil
}

// checkLineLengths reports every line of text longer than maxLineChars
// characters (runes, not bytes: a line of box-drawing or accents is no
// harder to read than one of ASCII).
func checkLineLengths(name, text string) []string {
	var bad []string
	for i, line := range strings.Split(text, "\n") {
		if n := len([]rune(line)); n > maxLineChars {
			bad = append(bad, fmt.Sprintf("%s:%d: %d characters, more than %d", name, i+1, n, maxLineChars))
		}
	}
	return bad
}

var (
	fence      = regexp.MustCompile("^\\s*(```|~~~)")
	inlineCode = regexp.MustCompile("`[^`]*`")
	inlineLink = regexp.MustCompile(`\]\(([^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:\s+"[^"]*")?\)`)
	refLink    = regexp.MustCompile(`^\s{0,3}\[[^\]]+\]:\s*(\S+)`)
	heading    = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*#*\s*$`)
	htmlAnchor = regexp.MustCompile(`<a\s+(?:id|name)="([^"]+)"`)
	mdLinkText = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
)

// proseLines returns text's lines with fenced code blocks blanked, so that
// neither links nor headings are read from code.
func proseLines(text string) []string {
	lines := strings.Split(text, "\n")
	in := false
	for i, l := range lines {
		if fence.MatchString(l) {
			in = !in
			lines[i] = ""
			continue
		}
		if in {
			lines[i] = ""
		}
	}
	return lines
}

// links returns every link target of a Markdown text, inline and
// reference-style, with the line it is on; code is skipped.
func links(text string) (targets []string, lineNos []int) {
	for i, l := range proseLines(text) {
		l = inlineCode.ReplaceAllString(l, "")
		for _, m := range inlineLink.FindAllStringSubmatch(l, -1) {
			targets = append(targets, m[1])
			lineNos = append(lineNos, i+1)
		}
		if m := refLink.FindStringSubmatch(l); m != nil {
			targets = append(targets, m[1])
			lineNos = append(lineNos, i+1)
		}
	}
	return targets, lineNos
}

// slug is GitHub's anchor for a heading: lower case, punctuation dropped,
// spaces made hyphens.
func slug(h string) string {
	h = mdLinkText.ReplaceAllString(h, "$1")
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteRune('-')
		}
	}
	return b.String()
}

// anchors returns the anchors a Markdown text defines: its headings' slugs
// (a repeated one numbered as GitHub numbers it) and explicit HTML anchors.
func anchors(text string) map[string]bool {
	set := map[string]bool{}
	seen := map[string]int{}
	for _, l := range proseLines(text) {
		if m := heading.FindStringSubmatch(l); m != nil {
			s := slug(m[2])
			if n := seen[s]; n > 0 {
				set[fmt.Sprintf("%s-%d", s, n)] = true
			} else {
				set[s] = true
			}
			seen[s]++
		}
		for _, m := range htmlAnchor.FindAllStringSubmatch(l, -1) {
			set[m[1]] = true
		}
	}
	return set
}

// checkLinks reports every relative link in the Markdown files (paths
// relative to root) that does not resolve: to a missing file, outside root,
// or to an anchor the target document does not define. Links with a
// scheme (https:, mailto:) are not followed.
func checkLinks(root string, files []string) []string {
	var bad []string
	texts := map[string]string{}
	read := func(rel string) (string, bool) {
		if t, ok := texts[rel]; ok {
			return t, true
		}
		raw, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			return "", false
		}
		texts[rel] = string(raw)
		return string(raw), true
	}
	for _, f := range files {
		text, ok := read(f)
		if !ok {
			bad = append(bad, f+": cannot read")
			continue
		}
		targets, lineNos := links(text)
		for i, target := range targets {
			where := fmt.Sprintf("%s:%d: link %q", f, lineNos[i], target)
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, anchor, _ := strings.Cut(target, "#")
			dest := f
			if path != "" {
				if strings.HasPrefix(path, "/") {
					bad = append(bad, where+": absolute path, not a file of the repository")
					continue
				}
				dest = filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(f), path)))
				if dest == ".." || strings.HasPrefix(dest, "../") {
					bad = append(bad, where+": points outside the repository")
					continue
				}
				if _, err := os.Stat(filepath.Join(root, dest)); err != nil {
					bad = append(bad, where+": no such file")
					continue
				}
			}
			if anchor == "" || !strings.HasSuffix(dest, ".md") {
				continue
			}
			destText, ok := read(dest)
			if !ok {
				bad = append(bad, where+": cannot read the target")
				continue
			}
			if !anchors(destText)[anchor] {
				bad = append(bad, where+": no heading with anchor #"+anchor)
			}
		}
	}
	return bad
}

// markdownFiles lists the repository's Markdown files (relative to root,
// slash-separated): the ones git tracks or would track, or, without git,
// every one outside skippedDirs.
func markdownFiles(root string) ([]string, error) {
	cmd := exec.Command("git", "ls-files", "--cached", "--others", "--exclude-standard", "--", "*.md")
	cmd.Dir = root
	if out, err := cmd.Output(); err == nil {
		var files []string
		for _, f := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			if f == "" || underSkipped(f) {
				continue
			}
			if _, err := os.Stat(filepath.Join(root, f)); err == nil { // deleted, not yet committed
				files = append(files, f)
			}
		}
		sort.Strings(files)
		return files, nil
	}
	return walk(root, func(rel string) bool { return strings.HasSuffix(rel, ".md") })
}

// underSkipped reports whether a slash-separated path lies in a skipped
// directory.
func underSkipped(rel string) bool {
	for _, part := range strings.Split(rel, "/") {
		if skippedDirs[part] {
			return true
		}
	}
	return false
}

// walk lists the files under root (relative, slash-separated) that keep
// accepts, outside skippedDirs.
func walk(root string, keep func(rel string) bool) ([]string, error) {
	var files []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && skippedDirs[d.Name()] {
			return filepath.SkipDir
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if !d.IsDir() && keep(rel) {
			files = append(files, rel)
		}
		return nil
	})
	sort.Strings(files)
	return files, err
}
