package zklock

import (
	"slices"
	"testing"
	"time"
)

// kazoo (the Python client) names its lock nodes <32 hex>__lock__<seq>
// (Lock, WriteLock) and <32 hex>__rlock__<seq> (ReadLock).
const kazooHex = "3f2a9c1e5b7d4e8fa0b1c2d3e4f50617"

// TestParseKazooNames: kazoo's lock nodes are contenders, "__lock__"
// exclusive and "__rlock__" read; kazoo-like names without the server's
// ten digits are not; an election path takes none of them.
func TestParseKazooNames(t *testing.T) {
	cases := []struct {
		name string
		ok   bool
		kind Mode
		seq  int64
	}{
		{kazooHex + "__lock__0000000004", true, ModeExclusive, 4},
		{kazooHex + "__rlock__0000000005", true, ModeRead, 5},
		{"__lock__0000000000", true, ModeExclusive, 0},  // kazoo counts it too: its rule is the marker and ten digits
		{"__rlock__0000000009", true, ModeRead, 9},      // the same
		{kazooHex + "__lock__-000000001", false, 0, 0},  // kazoo's sign of an overflowed counter: not ten digits
		{kazooHex + "__lock__000000001", false, 0, 0},   // nine digits
		{kazooHex + "__rlock__", false, 0, 0},           // no sequence
		{kazooHex + "__lock__0000000001x", false, 0, 0}, // trailing letter
		{kazooHex + "__lockx_0000000001", false, 0, 0},  // misspelt marker
		{kazooHex + "_rlock__0000000001", false, 0, 0},  // one underscore short
	}
	for _, c := range cases {
		got, ok := parseChild(c.name)
		if ok != c.ok || (ok && (got.kind != c.kind || got.seq != c.seq || got.uuid != "")) {
			t.Errorf("parseChild(%q) = %+v, %v; want kind %v seq %d, %v", c.name, got, ok, c.kind, c.seq, c.ok)
		}
		if _, ok := parseNode(c.name, latchNodes); ok {
			t.Errorf("an election takes %q for a candidate", c.name)
		}
	}
}

// TestKazooQueue: one queue of Curator's and kazoo's nodes, ordered by the
// sequence suffix alone, with kazoo's rule of who waits for whom: a reader
// waits only for the last exclusive or write node ahead of it (a kazoo
// ReadLock for the last "__lock__"), anyone else for its predecessor, kazoo
// reader or not.
func TestKazooQueue(t *testing.T) {
	names := []string{
		"_c_0f8e8a7e-2b1c-4d3e-9f00-123456789abc-__READ__0000000003",
		kazooHex + "__rlock__0000000001",
		kazooHex + "__lock__0000000002",
		"_c_0f8e8a7e-2b1c-4d3e-9f00-123456789abc-lock-0000000004",
		"a" + kazooHex[1:] + "__rlock__0000000000",
		"garbage",
	}
	q := queue(names)
	var seqs []int64
	for _, c := range q {
		seqs = append(seqs, c.seq)
	}
	if !slices.Equal(seqs, []int64{0, 1, 2, 3, 4}) {
		t.Fatalf("queue order %v, want 0..4 (garbage left out)", seqs)
	}
	cases := []struct {
		me    int
		kind  Mode
		grant bool
		wait  int64
	}{
		{1, ModeRead, true, 0},       // kazoo readers share
		{1, ModeExclusive, false, 0}, // a Mutex waits for a kazoo reader ahead
		{2, ModeExclusive, false, 1}, // kazoo's __lock__ waits for its predecessor
		{3, ModeRead, false, 2},      // a Curator/zklock reader waits for kazoo's __lock__
		{4, ModeExclusive, false, 3},
		{4, ModeWrite, false, 3},
	}
	for _, c := range cases {
		grant, wait := decide(q, c.me, c.kind)
		if grant != c.grant || (!grant && wait.seq != c.wait) {
			t.Errorf("decide(me %d, %v) = %v, seq %d; want %v, seq %d", c.me, c.kind, grant, wait.seq, c.grant, c.wait)
		}
	}
}

// TestKazooNamedStrangers: hand-made persistent children named like kazoo's
// nodes are contenders like any other: "__rlock__0000000000" lets readers
// share with it and blocks writers and a Mutex; "__lock__0000000001" blocks
// readers too; Contenders lists them in sequence order.
func TestKazooNamedStrangers(t *testing.T) {
	skipTraceCheck(t, "a stranger's node that the model never created is in the queue")
	a := admin(t)
	lock := lockPath(t)
	createStrangers(t, a, lock, []string{"__rlock__0000000000"})
	c := newClient(t, "c")
	rw, err := NewRWMutex(c.Session, lock)
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewMutex(c.Session, lock)
	if err != nil {
		t.Fatal(err)
	}
	ctx := ctxFor(t, time.Minute)
	r, err := rw.TryRLock(ctx)
	if err != nil {
		t.Fatalf("TryRLock behind a kazoo-named reader: %v", err)
	}
	if err := r.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	mustBeLocked(t, ctx, "TryLock (write) behind a kazoo-named reader", rw.TryLock)
	mustBeLocked(t, ctx, "Mutex TryLock behind a kazoo-named reader", m.TryLock)
	createStrangers(t, a, lock, []string{"__lock__0000000001"})
	mustBeLocked(t, ctx, "TryRLock behind a kazoo-named Lock", rw.TryRLock)
	names, err := rw.Contenders(ctx)
	want := []string{lock + "/__rlock__0000000000", lock + "/__lock__0000000001"}
	if err != nil || !slices.Equal(names, want) {
		t.Fatalf("Contenders = %q, %v; want %q", names, err, want)
	}
	for _, n := range want {
		if err := a.Delete(n, -1); err != nil {
			t.Fatal(err)
		}
	}
	w, err := rw.TryLock(ctx)
	if err != nil {
		t.Fatalf("TryLock once the strangers went: %v", err)
	}
	w.Unlock(ctx)
}
