package zk

import (
	"testing"

	"github.com/zklock/zklock/model/internal/cow"
)

// kind is a two-valued kind, as SharedLock's.
type kind uint8

func (k kind) Rank() int { return int(k) }

// TestTxnFiresWatches: a transaction fires the watches on the names it
// removes and, if any child changed, the child watches on Parent; each
// fired request's uuid is queued once, in request order, for its client.
// Its control: watches on a name that stays, or on the same seq with
// another kind, do not fire.
func TestTxnFiresWatches(t *testing.T) {
	s := Init[kind](2)
	a := Node[kind]{Seq: 0, Kind: 1, Owner: Session{0, 1}, Uuid: Uuid{0, 1}, Czxid: 1}
	b := Node[kind]{Seq: 1, Kind: 2, Owner: Session{1, 1}, Uuid: Uuid{1, 1}, Czxid: 2}
	s.Nodes = []Node[kind]{a, b}
	for _, w := range []Watch[kind]{
		{Node: a.Name(), Req: Uuid{1, 2}},                    // fires
		{Node: a.Name(), Req: Uuid{1, 1}},                    // fires, queued before <<1, 2>>
		{Node: Name[kind]{Seq: 0, Kind: 2}, Req: Uuid{0, 1}}, // another kind: stays
		{Node: b.Name(), Req: Uuid{0, 2}},                    // b stays: stays
		{Node: Parent[kind](), Req: Uuid{0, 3}},              // a child changed: fires
	} {
		s.Watches = cow.Insert(s.Watches, w, watchLess[kind])
	}
	next := s
	s.DeleteNodes(&next, []Node[kind]{a})
	if len(next.Nodes) != 1 || next.Nodes[0] != b || next.Zxid != 1 {
		t.Fatalf("nodes %v zxid %d, want [%v] 1", next.Nodes, next.Zxid, b)
	}
	if len(next.Watches) != 2 {
		t.Errorf("watches left %v, want the one on another kind and the one on b", next.Watches)
	}
	if got := next.Inbox[1]; len(got) != 2 || got[0] != (Watch[kind]{a.Name(), Uuid{1, 1}}) || got[1] != (Watch[kind]{a.Name(), Uuid{1, 2}}) {
		t.Errorf("inbox of client 1 %v, want [<<1, 1>> <<1, 2>>]", got)
	}
	if got := next.Inbox[0]; len(got) != 1 || got[0] != (Watch[kind]{Parent[kind](), Uuid{0, 3}}) {
		t.Errorf("inbox of client 0 %v, want [<<0, 3>>] (the child watch)", got)
	}
	if len(s.Inbox[0])+len(s.Inbox[1]) != 0 || len(s.Watches) != 5 || len(s.Nodes) != 2 {
		t.Error("the step wrote into the state before it (copy-on-write broken)")
	}
}

// TestSessions: ExpireSession deletes the session's nodes and, for the
// session its client uses, drops the client's watches; NewSession drops
// the client's watches and events and keeps the old session live.
func TestSessions(t *testing.T) {
	s := Init[NoKind](2)
	n := Node[NoKind]{Seq: 0, Owner: Session{0, 1}, Uuid: Uuid{0, 1}, Czxid: 1}
	s.Nodes = []Node[NoKind]{n}
	s.Watches = []Watch[NoKind]{{Node: Parent[NoKind](), Req: Uuid{0, 1}}, {Node: n.Name(), Req: Uuid{1, 1}}}
	s.Pending = []Pending{{Session{0, 1}, Uuid{0, 1}}}
	next := s
	s.ExpireSession(&next, Session{0, 1}, true)
	if len(next.Nodes) != 0 || next.IsLive(Session{0, 1}) || len(next.Pending) != 0 || next.Zxid != 1 {
		t.Fatalf("after ExpireSession: %+v", next)
	}
	if len(next.Watches) != 0 || len(next.Inbox[1]) != 1 || len(next.Inbox[0]) != 0 {
		t.Errorf("client 1's watch fires, client 0's is dropped: watches %v inbox %v", next.Watches, next.Inbox)
	}
	after := next
	next.NewSession(&after, Session{1, 2})
	if !after.IsLive(Session{1, 1}) || !after.IsLive(Session{1, 2}) || len(after.Inbox[1]) != 0 {
		t.Errorf("after NewSession: live %v inbox %v", after.Live, after.Inbox)
	}
}

// TestTypeOK rejects a node whose seq is past MaxSeq (the control: the
// same state with a larger MaxSeq passes).
func TestTypeOK(t *testing.T) {
	s := Init[NoKind](1)
	s.Nodes = []Node[NoKind]{{Seq: 3, Owner: Session{0, 1}, Uuid: Uuid{0, 1}, Czxid: 1}}
	s.NextSeq = 3
	b := Bounds{Clients: 1, MaxSeq: 3, MaxFaults: 0, MaxRequests: 1}
	if !s.TypeOK(b) {
		t.Fatal("a well-typed state fails TypeOK")
	}
	b.MaxSeq = 2
	if s.TypeOK(b) {
		t.Error("TypeOK accepts a seq past MaxSeq")
	}
}
