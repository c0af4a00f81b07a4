package faultinject

import (
	"slices"
	"sync"
	"testing"
	"time"
)

// OnRequest sees every relayed request, in order, with its payload from the
// header on; nil stops it.
func TestOnRequestSeesRequestsInOrder(t *testing.T) {
	srv := newFakeServer(t)
	p := newProxy(t, srv.addr())
	var mu sync.Mutex
	var ops []Op
	var payloads []string
	p.OnRequest(func(op Op, req []byte) {
		mu.Lock()
		defer mu.Unlock()
		ops = append(ops, op)
		payloads = append(payloads, string(req[8:]))
	})
	fc := dialFake(t, p.Addr())
	sent := []Op{OpCreate, OpGetData, OpGetChildren2}
	for i, op := range sent {
		fc.write(request(int32(i+1), op, []byte{'a' + byte(i)}))
	}
	for range sent {
		fc.nextReply(5 * time.Second)
	}
	p.OnRequest(nil)
	fc.write(request(9, OpGetData, []byte("unseen")))
	fc.nextReply(5 * time.Second)
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(ops, sent) || !slices.Equal(payloads, []string{"a", "b", "c"}) {
		t.Fatalf("observed %v %q, want %v [a b c] (not the connect request, nothing after OnRequest(nil))", ops, payloads, sent)
	}
}
