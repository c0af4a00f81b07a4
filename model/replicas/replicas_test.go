package replicas_test

import (
	"testing"

	"github.com/zklock/zklock/model/replicas"
	"github.com/zklock/zklock/model/zk"
)

type node = zk.Node[zk.NoKind]

// TestLogAndSeen: a write step logs one snapshot under its last zxid,
// however many zxids it took; a step that wrote nothing logs nothing; a
// reply raises seen to the write's zxid, a read to its snapshot, a new
// connection resets it; Readable keeps what the session order allows.
func TestLogAndSeen(t *testing.T) {
	w := replicas.Init[zk.NoKind](2)
	s := zk.Init[zk.NoKind](2)
	leader := s
	leader.Nodes = []node{{Seq: 0, Czxid: 1}, {Seq: 1, Czxid: 2}}
	leader.Zxid = 2 // two creates in one step: one snapshot
	var u replicas.View[zk.NoKind]
	w.Log(&s, &leader, &u)
	w.Replied(0, &s, &leader, &u)
	if len(u.Hist) != 2 || u.Hist[1].Zxid != 2 || len(u.Hist[1].Nodes) != 2 || u.Seen[0] != 2 || u.Seen[1] != 0 {
		t.Fatalf("after the write: hist %v, seen %v", u.Hist, u.Seen)
	}
	if !u.ViewTypeOK(&leader, 2) || u.ViewTypeOK(&s, 2) {
		t.Fatal("ViewTypeOK: the log must end at the leader's state")
	}
	var same replicas.View[zk.NoKind]
	u.Log(&leader, &leader, &same)
	u.Replied(1, &leader, &leader, &same)
	if len(same.Hist) != 2 || same.Seen[1] != 0 {
		t.Fatalf("a step that wrote nothing: hist %v, seen %v", same.Hist, same.Seen)
	}
	if got := u.Readables(0, true); len(got) != 1 || got[0] != 2 {
		t.Fatalf("Readable(c1) with the session order = %v; want [2]", got)
	}
	if got := u.Readables(0, false); len(got) != 2 || !u.Readable(0, 0, false) || u.Readable(0, 0, true) || u.Readable(1, 1, false) {
		t.Fatalf("Readable(c1) without the session order = %v", got)
	}
	var r, n replicas.View[zk.NoKind]
	u.Read(1, 2, &r)
	r.NewConnection(0, &n)
	if r.Seen[1] != 2 || n.Seen[0] != 0 || u.Seen[1] != 0 {
		t.Fatalf("read: seen %v, new connection: %v (and the old view must not change: %v)", r.Seen, n.Seen, u.Seen)
	}
}

// TestArmAtQueuesOnce: a watch set at a lagging server on a node the
// leader has is armed there; on a node the leader deleted its event is
// queued at once, and not a second time while it waits.
func TestArmAtQueuesOnce(t *testing.T) {
	s := zk.Init[zk.NoKind](2)
	s.Nodes = []node{{Seq: 1, Czxid: 2}}
	snap := []node{{Seq: 0, Czxid: 1}, {Seq: 1, Czxid: 2}}
	u := zk.Uuid{C: 1, R: 1}
	for _, seq := range []int{0, 1} {
		if !replicas.ExistsAt(snap, zk.Name[zk.NoKind]{Seq: seq}) {
			t.Fatalf("node %d not in the snapshot", seq)
		}
	}
	armed := s
	replicas.ArmAt(&s, zk.Name[zk.NoKind]{Seq: 1}, u, &armed)
	if len(armed.Watches) != 1 || len(armed.Inbox[1]) != 0 {
		t.Fatalf("on a node the leader has: watches %v, inbox %v; want armed", armed.Watches, armed.Inbox[1])
	}
	once := s
	replicas.ArmAt(&s, zk.Name[zk.NoKind]{Seq: 0}, u, &once)
	twice := once
	replicas.ArmAt(&once, zk.Name[zk.NoKind]{Seq: 0}, u, &twice)
	if len(once.Watches) != 0 || len(once.Inbox[1]) != 1 || len(twice.Inbox[1]) != 1 || len(s.Inbox[1]) != 0 {
		t.Fatalf("on a node the leader deleted: inbox %v, then %v; want its event queued once", once.Inbox[1], twice.Inbox[1])
	}
}

// TestDuplicates: a listing queues the delete of every node of the
// request's uuid in its snapshot but its own node, and nothing with the
// switch off; the delete lands while its session is live (the node goes,
// a watch on it fires, one snapshot is logged), and not once the session
// is gone; an expiry drops the session's queued deletes.
func TestDuplicates(t *testing.T) {
	x := zk.Session{C: 0, K: 1}
	u := zk.Uuid{C: 0, R: 1}
	s := zk.Init[zk.NoKind](1)
	s.Nodes = []node{{Seq: 0, Owner: x, Uuid: u, Czxid: 1}, {Seq: 1, Owner: x, Uuid: u, Czxid: 2}}
	s.Zxid, s.NextSeq = 2, 2
	s.Watches = []zk.Watch[zk.NoKind]{{Node: zk.Name[zk.NoKind]{Seq: 0}, Req: u}}
	w := replicas.Init[zk.NoKind](1)
	w.Hist = append(w.Hist, replicas.Snapshot[zk.NoKind]{Zxid: 2, Nodes: s.Nodes})
	var off, on replicas.View[zk.NoKind]
	w.Read(0, 2, &on) // a listing is a read: hist and seen are Read's
	w.QueueDuplicates(false, x, u, 1, s.Nodes, &off)
	w.QueueDuplicates(true, x, u, 1, s.Nodes, &on)
	if len(off.Dupes) != 0 || len(on.Dupes) != 1 || on.Dupes[0].Name.Seq != 0 || !on.DeleteQueued(s.Nodes[0]) ||
		on.DeleteQueued(s.Nodes[1]) || !on.ViewTypeOK(&s, 1) {
		t.Fatalf("queued: off %v, on %v; want node 0 only, with the switch on", off.Dupes, on.Dupes)
	}
	leader := s
	var landed replicas.View[zk.NoKind]
	if g := on.DuplicateLands(&s, 0, &leader, &landed); g != "" {
		t.Fatalf("DuplicateLands: %q", g)
	}
	if len(leader.Nodes) != 1 || leader.Nodes[0].Seq != 1 || leader.Zxid != 3 || len(leader.Inbox[0]) != 1 ||
		len(landed.Dupes) != 0 || len(landed.Hist) != 3 || !landed.ViewTypeOK(&leader, 1) {
		t.Fatalf("after the delete: nodes %v, zxid %d, inbox %v, dupes %v", leader.Nodes, leader.Zxid, leader.Inbox[0], landed.Dupes)
	}
	gone := s
	gone.Live = nil
	var dead replicas.View[zk.NoKind]
	if g := on.DuplicateLands(&gone, 0, &leader, &dead); g == "" {
		t.Fatal("DuplicateLands enabled on an expired session")
	}
	var dropped replicas.View[zk.NoKind]
	on.DropDuplicates(x, &dropped)
	if len(dropped.Dupes) != 0 || len(on.Dupes) != 1 {
		t.Fatalf("DropDuplicates: %v (the old view must not change: %v)", dropped.Dupes, on.Dupes)
	}
}
