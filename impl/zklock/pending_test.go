package zklock

import (
	"encoding/binary"
	"fmt"
	"testing"
	"time"

	"github.com/zklock/zklock/internal/zkwire"
)

// newest is the request sent last of those still pending (false when none
// is): what a connection was writing when it failed.
func (q *pendingRequests) newest() (pendingRequest, bool) {
	var last pendingRequest
	found := false
	for _, same := range q.byXid {
		if p := same[len(same)-1]; !found || p.order > last.order {
			last, found = p, true
		}
	}
	return last, found
}

// mustTake takes xid from q and fails unless it was the request sent at
// sent with op.
func mustTake(t *testing.T, q *pendingRequests, xid int32, op zkwire.Op, sent time.Time) {
	t.Helper()
	p, ok := q.take(xid)
	if !ok {
		t.Fatalf("xid %d: no pending request", xid)
	}
	if p.xid != xid || p.op != op || !p.sent.Equal(sent) {
		t.Fatalf("xid %d: took xid %d op %v sent %v, want op %v sent %v", xid, p.xid, p.op, p.sent, op, sent)
	}
}

// TestPendingRequestsInOrder: many requests, a ping among every hundred,
// each answered in the order sent, each reply taking its own request.
func TestPendingRequestsInOrder(t *testing.T) {
	var q pendingRequests
	t0 := time.Unix(1000, 0)
	type sent struct {
		xid int32
		op  zkwire.Op
	}
	var order []sent
	for i := 1; i <= 10000; i++ {
		s := sent{int32(i), zkwire.OpGetData}
		if i%100 == 0 {
			s = sent{zkwire.XidPing, zkwire.OpPing}
		}
		q.add(pendingRequest{xid: s.xid, op: s.op, sent: t0.Add(time.Duration(i))})
		order = append(order, s)
	}
	if q.len() != len(order) {
		t.Fatalf("%d pending, want %d", q.len(), len(order))
	}
	for i, s := range order {
		mustTake(t, &q, s.xid, s.op, t0.Add(time.Duration(i+1)))
		if q.len() != len(order)-i-1 {
			t.Fatalf("after %d replies %d pending, want %d", i+1, q.len(), len(order)-i-1)
		}
	}
	if _, ok := q.take(zkwire.XidPing); ok || len(q.byXid) != 0 {
		t.Fatalf("all answered, yet %d xids kept", len(q.byXid))
	}
}

// TestPendingRequestsSharedXid: pings share one xid; each reply takes the
// oldest of them.
func TestPendingRequestsSharedXid(t *testing.T) {
	var q pendingRequests
	t0 := time.Unix(1000, 0)
	for i := range 3 {
		q.add(pendingRequest{xid: zkwire.XidPing, op: zkwire.OpPing, sent: t0.Add(time.Duration(i) * time.Second)})
	}
	for i := range 3 {
		mustTake(t, &q, zkwire.XidPing, zkwire.OpPing, t0.Add(time.Duration(i)*time.Second))
	}
	if _, ok := q.take(zkwire.XidPing); ok {
		t.Fatal("a fourth ping reply took a request")
	}
}

// TestPendingRequestsUnknownXid: a reply whose xid was never sent, or was
// answered already, takes nothing and leaves the others to their replies.
func TestPendingRequestsUnknownXid(t *testing.T) {
	var q pendingRequests
	t0 := time.Unix(1000, 0)
	for xid := int32(1); xid <= 3; xid++ {
		q.add(pendingRequest{xid: xid, op: zkwire.OpSync, sent: t0.Add(time.Duration(xid))})
	}
	for _, xid := range []int32{99, 0, zkwire.XidPing, zkwire.XidNotification} {
		if p, ok := q.take(xid); ok || p != (pendingRequest{}) {
			t.Fatalf("xid %d took %+v", xid, p)
		}
	}
	mustTake(t, &q, 2, zkwire.OpSync, t0.Add(2))
	if _, ok := q.take(2); ok {
		t.Fatal("xid 2 answered twice")
	}
	if q.len() != 2 {
		t.Fatalf("%d pending, want 2", q.len())
	}
	mustTake(t, &q, 1, zkwire.OpSync, t0.Add(1))
	mustTake(t, &q, 3, zkwire.OpSync, t0.Add(3))
}

// TestPendingRequestsNewest: the newest pending request is the last one
// sent that no reply took (what a failed write was writing).
func TestPendingRequestsNewest(t *testing.T) {
	var q pendingRequests
	if _, ok := q.newest(); ok {
		t.Fatal("newest of none")
	}
	q.add(pendingRequest{xid: 1, op: zkwire.OpGetData})
	q.add(pendingRequest{xid: zkwire.XidPing, op: zkwire.OpPing})
	q.add(pendingRequest{xid: 2, op: zkwire.OpDelete})
	if p, _ := q.newest(); p.op != zkwire.OpDelete {
		t.Fatalf("newest %v, want delete", p.op)
	}
	q.take(2)
	if p, _ := q.newest(); p.op != zkwire.OpPing {
		t.Fatalf("newest %v, want ping", p.op)
	}
}

// TestPendingRequestsPerConnection: the requests sent on a connection are
// its own; a reply on the next connection (a reconnect) with the same xid
// takes nothing from them, and the new connection starts with none.
func TestPendingRequestsPerConnection(t *testing.T) {
	w := &wire{obs: &Session{}}
	old := &trackedConn{w: w, sending: time.Unix(1000, 0)}
	for xid := int32(5); xid <= 7; xid++ {
		old.sentFrame(false, requestHeader(xid, zkwire.OpGetData))
	}
	old.repliedFrame(false, replyHeader(5))
	if old.pending.len() != 2 {
		t.Fatalf("old connection: %d pending after one reply, want 2", old.pending.len())
	}
	reconnected := &trackedConn{w: w}
	if reconnected.pending.len() != 0 {
		t.Fatalf("a new connection starts with %d pending", reconnected.pending.len())
	}
	reconnected.repliedFrame(false, replyHeader(6))
	if old.pending.len() != 2 || reconnected.pending.len() != 0 {
		t.Fatalf("a reply on the new connection changed the pending requests: old %d, new %d",
			old.pending.len(), reconnected.pending.len())
	}
	old.repliedFrame(false, replyHeader(7))
	if p, ok := old.pending.newest(); !ok || p.xid != 6 || old.pending.len() != 1 {
		t.Fatalf("old connection: pending %d, newest %+v; want xid 6 alone", old.pending.len(), p)
	}
}

// requestHeader is a request frame's header: xid, opcode.
func requestHeader(xid int32, op zkwire.Op) []byte {
	b := make([]byte, zkwire.RequestHeaderLen)
	binary.BigEndian.PutUint32(b, uint32(xid))
	binary.BigEndian.PutUint32(b[4:], uint32(op))
	return b
}

// replyHeader is a successful reply's header with xid, zxid 0.
func replyHeader(xid int32) []byte {
	b := make([]byte, zkwire.ReplyHeaderLen)
	binary.BigEndian.PutUint32(b, uint32(xid))
	return b
}

// BenchmarkPendingRequests: a reply taking its request, and a new request,
// with n outstanding, answered in the order sent: a map lookup and an
// append, whatever n (no scan of the outstanding requests).
func BenchmarkPendingRequests(b *testing.B) {
	for _, n := range []int{1, 100, 10000} {
		b.Run(fmt.Sprintf("outstanding=%d", n), func(b *testing.B) {
			var q pendingRequests
			for xid := range int32(n) {
				q.add(pendingRequest{xid: xid, op: zkwire.OpGetData})
			}
			next := int32(n)
			for i := 0; b.Loop(); i++ {
				q.take(next - int32(n))
				q.add(pendingRequest{xid: next, op: zkwire.OpGetData})
				next++
			}
		})
	}
}
