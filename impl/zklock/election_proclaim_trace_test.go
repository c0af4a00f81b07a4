package zklock

import (
	"testing"
	"time"

	"github.com/zklock/zklock/traceevent"
)

// TestElectionProclaimObserved: a leader proclaims twice while an observer
// watches it and a candidate waits behind it, then resigns. Unlike
// TestElectionProclaim (whose impostor no model has a step for) its trace
// is checked, so the model and TLC (cmd/tlatrace pins it) see Proclaim's
// setData fire the observer's and the waiting candidate's data watches on
// the real ensemble: the observer reports each version, the candidate
// lists again and waits on, and leads only after the Resign.
func TestElectionProclaimObserved(t *testing.T) {
	p := lockPath(t)
	ctx := ctxFor(t, time.Minute)
	a, b, o := newClient(t, "a"), newClient(t, "b"), newClient(t, "o")
	ea, eb, eo := election(t, a, p), election(t, b, p), election(t, o, p)
	la := campaign(t, ctx, ea, "v1")
	obs := observe(t, ctx, eo)
	if info := next(t, obs, "first"); string(info.Value) != "v1" || info.Epoch != la.Epoch() {
		t.Fatalf("first report %+v, want v1 at epoch %d", info, la.Epoch())
	}
	pb := queued(t, ctx, b, eb, "b")
	for _, v := range []string{"v2", "v3"} {
		if err := la.Proclaim(ctx, []byte(v)); err != nil {
			t.Fatalf("Proclaim(%s): %v", v, err)
		}
		if info := next(t, obs, v); string(info.Value) != v || info.Epoch != la.Epoch() {
			t.Fatalf("report %+v, want %s at epoch %d", info, v, la.Epoch())
		}
	}
	// b was woken by the first Proclaim (its data watch on a's node) and
	// waits again: it must not lead beside a.
	b.trace.waitCount(t, "b woken and queued again", 30*time.Second, 2, action(traceevent.WatchPredecessor))
	lb := takeOver(t, ctx, la, pb, "b leads (%v) beside a")
	if info := next(t, obs, "b leads"); info.Epoch != lb.Epoch() || string(info.Value) != "b" {
		t.Fatalf("report %+v, want b at epoch %d", info, lb.Epoch())
	}
	if err := lb.Resign(ctx); err != nil {
		t.Fatal(err)
	}
}
