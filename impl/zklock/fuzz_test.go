package zklock

import (
	"sort"
	"strings"
	"testing"
)

// The fuzz targets below cover everything in this package that parses input
// from outside: child names in a listing (anyone with write access to the
// lock path can create them) and lock paths (the caller's). The byte stream
// of a ZooKeeper connection that the loss timer scans is parsed by
// internal/zkwire and fuzzed there. The seed corpora of the two below are
// in testdata/fuzz; `make fuzz` runs each for a few seconds.

// FuzzParseChild: a name is a contender only with a 10-digit, non-negative
// sequence suffix that formats back to itself; a uuid is reported only in
// Curator's protected form; queue keeps exactly the contenders, in sequence
// order.
func FuzzParseChild(f *testing.F) {
	f.Fuzz(func(t *testing.T, name string) {
		c, ok := parseChild(name)
		if !ok {
			if len(queue([]string{name})) != 0 {
				t.Fatalf("queue kept %q, which parseChild refuses", name)
			}
			return
		}
		if c.seq < 0 || len(name) < seqDigits || name[len(name)-seqDigits:] != seqName(c.seq) {
			t.Fatalf("%q: sequence %d does not format back to its suffix", name, c.seq)
		}
		if c.uuid != "" && (!strings.HasPrefix(name, protectedPrefix+c.uuid+"-") || len(c.uuid) != uuidLen) {
			t.Fatalf("%q: uuid %q is not its protected prefix", name, c.uuid)
		}
		names := []string{name, "_c_x-lock-0000000005", "garbage", name}
		q := queue(names)
		if len(q) != 3 || !sort.SliceIsSorted(q, func(i, j int) bool { return q[i].seq < q[j].seq }) {
			t.Fatalf("queue(%q) = %+v", names, q)
		}
	})
}

// FuzzValidateLockPath: an accepted path is absolute, not the root, has no
// empty or relative segment, and is outside /zookeeper.
func FuzzValidateLockPath(f *testing.F) {
	f.Fuzz(func(t *testing.T, p string) {
		if validateLockPath(p) != nil {
			return
		}
		if !strings.HasPrefix(p, "/") || p == "/" || strings.HasSuffix(p, "/") || strings.Contains(p, "//") ||
			strings.Contains(p+"/", "/./") || strings.Contains(p+"/", "/../") ||
			p == "/zookeeper" || strings.HasPrefix(p, "/zookeeper/") || strings.ContainsRune(p, 0) {
			t.Fatalf("accepted %q", p)
		}
	})
}
