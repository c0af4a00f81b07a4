package zklock

import (
	"errors"
	"regexp"
	"testing"
)

func TestValidateLockPath(t *testing.T) {
	good := []string{"/a", "/locks/orders", "/a/b/c-d_e.f", "/ünïcode/ok", "/a..b", "/.a"}
	for _, p := range good {
		if err := validateLockPath(p); err != nil {
			t.Errorf("validateLockPath(%q) = %v, want nil", p, err)
		}
	}
	bad := []string{"", "a", "a/b", "/", "/a/", "//a", "/a//b", "/a/./b", "/a/../b", "/.", "/..",
		"/zookeeper", "/zookeeper/quota", "/a\x00b", "/a\x01", "/a\u007f", "/a\u0085", "/a\ud7ff\ue000", "/a\ufff5"}
	for _, p := range bad {
		err := validateLockPath(p)
		if !errors.Is(err, ErrInvalidPath) {
			t.Errorf("validateLockPath(%q) = %v, want ErrInvalidPath", p, err)
		}
	}
	if err := validateLockPath("/zookeeperish"); err != nil {
		t.Errorf("/zookeeperish is not under /zookeeper: %v", err)
	}
}

// uuidShape is a version 4, variant 1 uuid in its canonical text form.
var uuidShape = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

func TestUUIDShape(t *testing.T) {
	// The pattern's positive control: misplaced dashes and another version
	// are refused.
	for _, bad := range []string{"0123456-78901-4abc-8def-0123456789ab", "01234567-8901-3abc-8def-0123456789ab"} {
		if uuidShape.MatchString(bad) {
			t.Fatalf("uuidShape accepts %q", bad)
		}
	}
	seen := map[string]bool{}
	for i := 0; i < 100; i++ {
		u, err := newUUID()
		if err != nil {
			t.Fatal(err)
		}
		if !uuidShape.MatchString(u) {
			t.Fatalf("uuid %q: not a version 4 uuid", u)
		}
		if seen[u] {
			t.Fatalf("uuid %q twice", u)
		}
		seen[u] = true
	}
}

func TestParseChildCuratorNames(t *testing.T) {
	const u = "0f8e8a7e-2b1c-4d3e-9f00-123456789abc"
	cases := []struct {
		name string
		ok   bool
		want child
	}{
		{"_c_" + u + "-lock-0000000007", true, child{seq: 7, kind: ModeExclusive, uuid: u}},
		{"_c_" + u + "-__READ__0000000012", true, child{seq: 12, kind: ModeRead, uuid: u}},
		{"_c_" + u + "-__WRIT__0000000013", true, child{seq: 13, kind: ModeWrite, uuid: u}},
		{"lock-0000000003", true, child{seq: 3, kind: ModeExclusive}}, // Curator, unprotected
		{"__READ__0000000004", true, child{seq: 4, kind: ModeRead}},
		{"leases", false, child{}},
		{"lock-00000000x1", false, child{}},
		{"lock--000000001", false, child{}},
		{"x+000000001", false, child{}}, // found by FuzzParseChild: ParseInt takes the sign
		{"+000000000", false, child{}},
		{"lock-+000000001", false, child{}},
		// Not contenders: children whose names merely end in digits, such as
		// a lock path nested under this one.
		{"job-0000000001", false, child{}},
		{"orders0000000042", false, child{}},
		{"0000000042", false, child{}},
		{"_c_" + u + "-job-0000000001", false, child{}},
	}
	for _, c := range cases {
		got, ok := parseChild(c.name)
		if ok != c.ok {
			t.Errorf("parseChild(%q) ok = %v, want %v", c.name, ok, c.ok)
			continue
		}
		c.want.name = c.name
		if ok && got != c.want {
			t.Errorf("parseChild(%q) = %+v, want %+v", c.name, got, c.want)
		}
	}
}

func TestQueueOrdersBySequenceOnly(t *testing.T) {
	q := queue([]string{
		"_c_ffffffff-ffff-4fff-bfff-ffffffffffff-lock-0000000002",
		"junk",
		"_c_00000000-0000-4000-8000-000000000000-lock-0000000010",
		"lock-0000000001",
	})
	var seqs []int64
	for _, c := range q {
		seqs = append(seqs, c.seq)
	}
	if len(seqs) != 3 || seqs[0] != 1 || seqs[1] != 2 || seqs[2] != 10 {
		t.Fatalf("queue order %v, want [1 2 10]", seqs)
	}
}

func TestSeqNameMatchesServerFormat(t *testing.T) {
	if got := seqName(42); got != "0000000042" {
		t.Fatalf("seqName(42) = %q", got)
	}
	c, ok := parseChild("_c_0f8e8a7e-2b1c-4d3e-9f00-123456789abc-__READ__" + seqName(42))
	if !ok || c.seq != 42 {
		t.Fatalf("a node named with seqName does not keep its place: %+v", c)
	}
}
