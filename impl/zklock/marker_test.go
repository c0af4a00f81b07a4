package zklock

import (
	"context"
	"testing"
	"time"

	"github.com/zklock/zklock/faultinject"
	"github.com/zklock/zklock/traceevent"
)

// markerQueue is a Mutex queue on one lock path: a holder whose mark has
// landed, then waiters queued in order, each asleep on its predecessor.
type markerQueue struct {
	ctx     context.Context
	lock    string
	holder  *client
	held    *Lease
	clients []*client
	pending []*pending
}

func newMarkerQueue(t *testing.T, waiters ...string) *markerQueue {
	t.Helper()
	q := &markerQueue{ctx: ctxFor(t, 2*time.Minute), lock: lockPath(t)}
	q.holder = newClient(t, "holder")
	m, _ := NewMutex(q.holder.Session, q.lock)
	var err error
	if q.held, err = m.Lock(q.ctx); err != nil {
		t.Fatal(err)
	}
	q.holder.trace.waitFor(t, "the holder's mark", time.Minute, action(traceevent.Mark))
	for _, name := range waiters {
		q.queue(t, name, q.ctx)
	}
	return q
}

// queue adds a waiter, and waits until it sleeps on its predecessor.
func (q *markerQueue) queue(t *testing.T, name string, ctx context.Context) {
	t.Helper()
	c := newClient(t, name)
	m, _ := NewMutex(c.Session, q.lock)
	q.clients = append(q.clients, c)
	q.pending = append(q.pending, lockAsync(ctx, m.Lock))
	c.trace.waitFor(t, name+" queued", time.Minute, waiting)
}

// granted waits for waiter i's lease.
func (q *markerQueue) granted(t *testing.T, i int) *Lease {
	t.Helper()
	l, err := q.pending[i].wait(t, time.Minute)
	if err != nil {
		t.Fatalf("%s: %v", q.clients[i].name, err)
	}
	return l
}

// count counts a client's events of action a.
func count(c *client, a traceevent.Action) int { return c.trace.count(action(a)) }

// Rule 1 (Mark): in a queue of three, the hand-off from the head to the
// second, and from the second to the third, lists nothing: each waiter's
// one listing is its join. The mutant marker-no-mark (the holder never
// marks) fails here: an unmarked deletion is listed again.
func TestMarkerHandOffListsNothing(t *testing.T) {
	q := newMarkerQueue(t, "second", "third")
	if err := q.held.Unlock(q.ctx); err != nil {
		t.Fatal(err)
	}
	second := q.granted(t, 0)
	q.clients[1].trace.waitFor(t, "the third reads the second's mark", time.Minute, action(traceevent.Rearm))
	if err := second.Unlock(q.ctx); err != nil {
		t.Fatal(err)
	}
	third := q.granted(t, 1)
	defer third.Unlock(q.ctx)
	for _, c := range q.clients {
		if n := count(c, traceevent.ListChildren); n != 1 {
			t.Fatalf("%s listed %d times, want 1 (its join); trace:\n%s", c.name, n, c.trace.dump())
		}
		if n := count(c, traceevent.GrantOnMarkedGone); n != 1 {
			t.Fatalf("%s: %d GrantOnMarkedGone, want 1; trace:\n%s", c.name, n, c.trace.dump())
		}
	}
}

// Rule 3 (Rearm): a waiter whose predecessor marks after it went to sleep
// takes the NodeDataChanged, re-arms, and is granted at the release in
// one notification: MarkSeen, Rearm, GrantOnMarkedGone, Grant. The
// mutant marker-no-rearm (the spent watch waited on) never returns.
func TestMarkerHandOff(t *testing.T) {
	q := newMarkerQueue(t, "second", "third")
	if err := q.held.Unlock(q.ctx); err != nil {
		t.Fatal(err)
	}
	second := q.granted(t, 0)
	q.clients[1].trace.waitFor(t, "the third sees the second's mark", time.Minute, action(traceevent.MarkSeen))
	if err := second.Unlock(q.ctx); err != nil {
		t.Fatal(err)
	}
	third := q.granted(t, 1)
	defer third.Unlock(q.ctx)
	want := []traceevent.Action{traceevent.MarkSeen, traceevent.Rearm, traceevent.GrantOnMarkedGone, traceevent.Grant}
	got := after(q.clients[1].trace.all(), waiting)
	if len(got) < len(want) {
		t.Fatalf("the third after its watch: %v, want %v first; trace:\n%s", got, want, q.clients[1].trace.dump())
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("the third after its watch: %v, want %v first; trace:\n%s", got, want, q.clients[1].trace.dump())
		}
	}
	if second.Token() <= q.held.Token() || third.Token() <= second.Token() {
		t.Fatalf("tokens %d, %d, %d", q.held.Token(), second.Token(), third.Token())
	}
}

// Rule 2: the predecessor's NodeDataChanged (its mark) is not the grant.
// The third, asleep on the second when the second is granted and marks,
// must not be granted while the second holds: after the change it waits
// again (Rearm), and no Grant is traced before the second's Unlock. The
// mutant marker-change-is-grant grants it there.
func TestMarkerChangeIsNotGrant(t *testing.T) {
	q := newMarkerQueue(t, "second", "third")
	if err := q.held.Unlock(q.ctx); err != nil {
		t.Fatal(err)
	}
	second := q.granted(t, 0)
	third := q.clients[1]
	third.trace.waitFor(t, "the third re-armed or granted", time.Minute, func(ev TraceEvent) bool {
		return ev.Action == traceevent.Rearm || ev.Action == traceevent.Grant
	})
	if n := count(third, traceevent.Grant); n != 0 {
		t.Fatalf("the third was granted while the second holds; trace:\n%s", third.trace.dump())
	}
	if err := second.Unlock(q.ctx); err != nil {
		t.Fatal(err)
	}
	q.granted(t, 1).Unlock(q.ctx)
}

// Rule 4: only a read mark makes a deletion the grant. The holder holds,
// the second waits and cancels, and the third, asleep on the second's
// unmarked node, lists again (UnmarkedGone) and waits on the holder: it
// must not hold while the holder holds. The mutant
// marker-unmarked-delete-grant grants it at the cancel.
func TestMarkerMiddleCancel(t *testing.T) {
	q := newMarkerQueue(t)
	ctx, cancel := context.WithCancel(q.ctx)
	q.queue(t, "second", ctx)
	q.queue(t, "third", q.ctx)
	cancel()
	if _, err := q.pending[0].wait(t, time.Minute); err == nil {
		t.Fatal("the second's Lock returned no error after its cancel")
	}
	third := q.clients[1]
	third.trace.waitFor(t, "the third waits again or is granted", time.Minute, func(ev TraceEvent) bool {
		return ev.Action == traceevent.Grant || waiting(ev) && count(third, traceevent.ListChildren) >= 2
	})
	if n := count(third, traceevent.Grant); n != 0 {
		t.Fatalf("the third was granted while the holder holds; trace:\n%s", third.trace.dump())
	}
	if count(third, traceevent.UnmarkedGone) != 1 {
		t.Fatalf("the third did not list again at the unmarked deletion; trace:\n%s", third.trace.dump())
	}
	if err := q.held.Unlock(q.ctx); err != nil {
		t.Fatal(err)
	}
	q.granted(t, 1).Unlock(q.ctx)
}

// Rule 5: the holder's own-node watch, armed before the grant, fires on
// its own mark; re-armed, it reads the mark back (WatchOwn) and the lease
// holds on, and Guard goes on from the version the mark made. The mutant
// marker-own-write-is-loss ends the lease there.
func TestMarkerHolderKeepsLease(t *testing.T) {
	q := newMarkerQueue(t, "second")
	// The holder, granted by its listing, reads its mark back when its
	// watch is first armed, or re-armed after the mark fired it.
	eventually(t, "the holder reads its mark back, or its lease ends", time.Minute, func() bool {
		return count(q.holder, traceevent.WatchOwn) > 0 || q.held.Err() != nil
	})
	if err := q.held.Err(); err != nil {
		t.Fatalf("the holder's lease ended at its own mark: %v", err)
	}
	if err := q.held.Unlock(q.ctx); err != nil {
		t.Fatal(err)
	}
	second := q.granted(t, 0)
	c := q.clients[0]
	eventually(t, "the second reads its mark back, or its lease ends", time.Minute, func() bool {
		return count(c, traceevent.WatchOwn) > 0 || second.Err() != nil
	})
	if err := second.Err(); err != nil {
		t.Fatalf("the lease ended at its own mark: %v; trace:\n%s", err, c.trace.dump())
	}
	// Inspect shows the holder's mark, and its identity still: the mark
	// writes the node's own data back.
	v, err := Inspect(q.ctx, c.Session, q.lock)
	if err != nil || len(v.Nodes) != 1 || v.Nodes[0].Marked.IsZero() || v.Nodes[0].Identity == nil {
		t.Fatalf("Inspect after the mark: %+v, %v", v, err)
	}
	if _, err := second.Guard(q.ctx); err != nil {
		t.Fatalf("Guard after the mark: %v", err)
	}
	chk, err := second.Check()
	if err != nil || chk.Version < 1 {
		t.Fatalf("Check after the mark: %+v, %v", chk, err)
	}
	if err := second.Unlock(q.ctx); err != nil {
		t.Fatal(err)
	}
}

// A lost reply of a marking waiter's getData on its predecessor: nothing
// is armed, and the read changed nothing, so the waiter reads again
// without listing, waits, and is granted at the release; its trace,
// replayed in the model when the test ends, has no step for the lost read.
func TestMarkerWatchReplyLost(t *testing.T) {
	q := newMarkerQueue(t)
	w := newClient(t, "waiter")
	m, _ := NewMutex(w.Session, q.lock)
	cut := w.net.CutAfterRequest(faultinject.OpGetData)
	p := lockAsync(q.ctx, m.Lock)
	report, err := cut.Wait(q.ctx)
	if err != nil {
		t.Fatal(err)
	}
	w.trace.waitFor(t, "waiting after the cut", time.Minute, waiting)
	t.Logf("cut %+v", report)
	if n := count(w, traceevent.ListChildren); n != 1 {
		t.Fatalf("the waiter listed %d times, want 1; trace:\n%s", n, w.trace.dump())
	}
	if err := q.held.Unlock(q.ctx); err != nil {
		t.Fatal(err)
	}
	l, err := p.wait(t, time.Minute)
	if err != nil {
		t.Fatalf("Lock after a lost getData reply: %v; trace:\n%s", err, w.trace.dump())
	}
	l.Unlock(q.ctx)
}

// The reply of the holder's mark is lost with its connection: the mark
// was applied (the cut comes after the server got it), so the trace says
// Mark "lost", pending, and the lease holds on; its successor reads the
// mark and is handed the lock at the release. The trace, with the lost
// mark, is replayed in the model when the test ends.
func TestMarkerMarkReplyLost(t *testing.T) {
	ctx := ctxFor(t, 2*time.Minute)
	lock := lockPath(t)
	h := newClient(t, "holder")
	m, _ := NewMutex(h.Session, lock)
	cut := h.net.CutAfterRequest(faultinject.OpSetData)
	held, err := m.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	report, err := cut.Wait(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ev := h.trace.waitFor(t, "the holder's mark", time.Minute, action(traceevent.Mark))
	t.Logf("cut %+v; mark %s pending=%v", report, ev.Result, ev.Pending)
	if held.Err() != nil {
		t.Fatalf("the lease ended with its mark's reply: %v", held.Err())
	}
	w := newClient(t, "waiter")
	mw, _ := NewMutex(w.Session, lock)
	p := lockAsync(ctx, mw.Lock)
	w.trace.waitFor(t, "waiter queued", time.Minute, waiting)
	if err := held.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
	l, err := p.wait(t, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	l.Unlock(ctx)
}
