package zklock

import (
	"errors"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
)

// TestElectionCheckAfterProclaim: the check Check returns after the
// leader's own Proclaim heads a multi of the caller's that succeeds while
// we lead (leadership.go: Proclaim's write is our own, Check goes on from
// its version). Guard retries a failed check with the new version, which
// hid a stale one from every test that wrote through Guard; this multi is
// sent on Conn, with no retry. After Resign, Check says ErrNotHeld, and
// the check it returned before fails the multi: nothing is written.
func TestElectionCheckAfterProclaim(t *testing.T) {
	p := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	a := newClient(t, "a")
	la := campaign(t, ctx, election(t, a, p), "v0")
	fenced := func(i int) *zk.CreateRequest {
		return &zk.CreateRequest{Path: p + "-fenced-" + string(rune('a'+i)), Data: []byte("x"),
			Acl: zk.WorldACL(zk.PermAll), Flags: zk.FlagEphemeral}
	}
	var last *zk.CheckVersionRequest
	for i, v := range []string{"v1", "v2", "v3"} {
		if err := la.Proclaim(ctx, []byte(v)); err != nil {
			t.Fatal(err)
		}
		check, err := la.Check()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := a.Conn().Multi(check, fenced(i)); err != nil {
			t.Fatalf("after Proclaim(%q) the multi headed by Check (version %d) failed while we lead: %v", v, check.Version, err)
		}
		last = check
	}
	if err := la.Resign(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := la.Check(); !errors.Is(err, ErrNotHeld) {
		t.Fatalf("Check after Resign = %v, want ErrNotHeld", err)
	}
	if _, err := a.Conn().Multi(last, fenced(3)); !errors.Is(err, zk.ErrNoNode) {
		t.Fatalf("a multi headed by a resigned leader's check = %v, want zk.ErrNoNode", err)
	}
	if ok, _, err := admin(t).Exists(p + "-fenced-d"); err != nil || ok {
		t.Fatalf("the resigned leader's write landed (exists %v, %v)", ok, err)
	}
}
