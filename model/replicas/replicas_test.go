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
