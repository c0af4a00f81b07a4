package zklock

import (
	"bytes"
	"encoding/binary"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// The fuzz targets below cover everything in this package that parses input
// from outside: child names in a listing (anyone with write access to the
// lock path can create them), lock paths (the caller's), and the byte
// stream of a ZooKeeper connection that the loss timer scans. Their seed
// corpora are in testdata/fuzz; `make fuzz` runs each for a few seconds.

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

// FuzzFrameScanner: the headers the scanner emits do not depend on how the
// connection splits its bytes, and each is the start of a frame's payload.
func FuzzFrameScanner(f *testing.F) {
	f.Fuzz(func(t *testing.T, stream []byte, cut uint8) {
		run := func(pieces [][]byte) [][]byte {
			var got [][]byte
			s := newFrameScanner(24, func(first bool) int {
				if first {
					return 16
				}
				return 24
			}, func(_ bool, hdr []byte) { got = append(got, bytes.Clone(hdr)) })
			for _, p := range pieces {
				s.feed(p)
			}
			return got
		}
		whole := run([][]byte{stream})
		step := int(cut)%7 + 1
		var pieces [][]byte
		for i := 0; i < len(stream); i += step {
			pieces = append(pieces, stream[i:min(i+step, len(stream))])
		}
		if split := run(pieces); !reflect.DeepEqual(whole, split) {
			t.Fatalf("split into pieces of %d: %d headers, whole: %d", step, len(split), len(whole))
		}
		// Each header is the start of a frame's payload, in order.
		rest := stream
		for i, h := range whole {
			if len(rest) < 4 {
				t.Fatalf("header %d emitted past the stream's end", i)
			}
			n := int(binary.BigEndian.Uint32(rest))
			if n < 0 || 4+n > len(rest) && len(h) > len(rest)-4 {
				t.Fatalf("header %d: longer than what the stream holds", i)
			}
			if !bytes.HasPrefix(rest[4:], h) {
				t.Fatalf("header %d is not the start of its frame", i)
			}
			if 4+n > len(rest) {
				break
			}
			rest = rest[4+n:]
		}
	})
}

// FuzzRequestPath: the path a traced write names is a substring of its
// request, and no request makes it panic.
func FuzzRequestPath(f *testing.F) {
	f.Fuzz(func(t *testing.T, hdr []byte) {
		if p := requestPath(hdr); p != "" && !bytes.Contains(hdr, []byte(p)) {
			t.Fatalf("path %q is not in the request", p)
		}
	})
}
