package faultinject

import (
	"context"
	"errors"
	"net"
	"runtime"
	"sync"
	"testing"
	"time"
)

func TestRelayCountsFramesAndOpcodes(t *testing.T) {
	srv := newFakeServer(t)
	p := newProxy(t, srv.addr())
	fc := dialFake(t, p.Addr())
	ops := []Op{OpCreate, OpGetData, OpGetData, OpGetChildren2, OpCheckWatches, OpPing}
	for i, op := range ops {
		fc.write(request(int32(i+1), op, []byte("payload")))
	}
	for i, op := range ops {
		if op == OpCheckWatches {
			if xid, _ := fc.nextReply(5 * time.Second); xid != XidNotification {
				t.Fatalf("got xid %d, want the notification first", xid)
			}
		}
		if xid, _ := fc.nextReply(5 * time.Second); xid != int32(i+1) {
			t.Fatalf("reply %d has xid %d", i+1, xid)
		}
	}
	st := p.Stats()
	want := map[Op]int64{OpCreateSession: 1, OpCreate: 1, OpGetData: 2, OpGetChildren2: 1, OpCheckWatches: 1, OpPing: 1}
	for op, n := range want {
		if st.Requests[op] != n {
			t.Errorf("Requests[%v] = %d, want %d (all: %v)", op, st.Requests[op], n, st.Requests)
		}
	}
	if st.ClientFrames != 7 || st.ServerFrames != 8 || st.Notifications != 1 || st.Accepted != 1 {
		t.Errorf("stats = %+v, want 7 client frames, 8 server frames, 1 notification, 1 accepted", st)
	}
}

func TestFramesSplitAndCoalesced(t *testing.T) {
	srv := newFakeServer(t)
	p := newProxy(t, srv.addr())
	fc := dialRaw(t, p.Addr())
	// The connect request a byte at a time, then three requests in one write.
	for _, b := range lengthPrefixed(make([]byte, 44)) {
		fc.write([]byte{b})
	}
	if _, err := fc.next(5 * time.Second); err != nil {
		t.Fatal(err)
	}
	var burst []byte
	for xid := int32(1); xid <= 3; xid++ {
		burst = append(burst, request(xid, OpExists, make([]byte, 100*int(xid)))...)
	}
	fc.write(burst)
	for xid := int32(1); xid <= 3; xid++ {
		if got, _ := fc.nextReply(5 * time.Second); got != xid {
			t.Fatalf("got xid %d, want %d", got, xid)
		}
	}
	if got := srv.received(); len(got) != 4 || got[3] != OpExists {
		t.Fatalf("server received %v", got)
	}
}

func TestOversizedFrameClosesConnection(t *testing.T) {
	srv := newFakeServer(t)
	p := newProxy(t, srv.addr())
	fc := dialRaw(t, p.Addr())
	fc.write([]byte("ruok")) // a four-letter word reads as a 1.9 GB frame
	fc.expectClosed(5 * time.Second)
}

func TestUnreachableServerClosesConnection(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := ln.Addr().String()
	ln.Close()
	p := newProxy(t, dead)
	fc := dialRaw(t, p.Addr())
	fc.expectClosed(5 * time.Second)
}

func TestSeverClosesEveryConnection(t *testing.T) {
	srv := newFakeServer(t)
	p := newProxy(t, srv.addr())
	a, b := dialFake(t, p.Addr()), dialFake(t, p.Addr())
	if n := p.Sever(); n != 2 {
		t.Fatalf("Sever() = %d, want 2", n)
	}
	a.expectClosed(5 * time.Second)
	b.expectClosed(5 * time.Second)
	c := dialFake(t, p.Addr())
	c.write(request(1, OpGetData, nil))
	if xid, _ := c.nextReply(5 * time.Second); xid != 1 {
		t.Fatalf("after Sever: reply xid %d", xid)
	}
	if st := p.Stats(); st.Severed != 2 {
		t.Fatalf("Severed = %d, want 2", st.Severed)
	}
}

func TestBlackholeHoldsThenDelivers(t *testing.T) {
	srv := newFakeServer(t)
	p := newProxy(t, srv.addr())
	fc := dialFake(t, p.Addr())
	const window = 300 * time.Millisecond
	start := time.Now()
	p.Blackhole(window)
	fc.write(request(1, OpGetData, nil))
	late := dialRaw(t, p.Addr()) // accepted during the window: held too
	late.write(lengthPrefixed(make([]byte, 44)))
	if xid, _ := fc.nextReply(10 * time.Second); xid != 1 {
		t.Fatalf("reply xid %d", xid)
	}
	if _, err := late.next(10 * time.Second); err != nil {
		t.Fatalf("connect response after the window: %v", err)
	}
	if d := time.Since(start); d < window {
		t.Fatalf("reply after %v, inside the %v blackhole", d, window)
	}
}

func TestBlackholeUntilHealed(t *testing.T) {
	srv := newFakeServer(t)
	p := newProxy(t, srv.addr())
	fc := dialFake(t, p.Addr())
	p.BlackholeUntilHealed()
	fc.write(request(1, OpGetData, nil))
	if body, err := fc.next(300 * time.Millisecond); err == nil {
		t.Fatalf("got frame %x through a blackhole", body)
	}
	if got := srv.received(); len(got) != 1 {
		t.Fatalf("server received %v during the blackhole, want only the connect request", got)
	}
	p.Heal()
	if xid, _ := fc.nextReply(5 * time.Second); xid != 1 {
		t.Fatalf("reply xid %d", xid)
	}
}

func TestDelayAddsLatencyBothWaysWithoutSerializing(t *testing.T) {
	srv := newFakeServer(t)
	p := newProxy(t, srv.addr())
	fc := dialFake(t, p.Addr())
	const d = 100 * time.Millisecond
	p.Delay(d)
	const n = 10
	start := time.Now()
	for xid := int32(1); xid <= n; xid++ {
		fc.write(request(xid, OpGetData, nil))
	}
	for xid := int32(1); xid <= n; xid++ {
		if got, _ := fc.nextReply(10 * time.Second); got != xid {
			t.Fatalf("got xid %d, want %d", got, xid)
		}
	}
	elapsed := time.Since(start)
	t.Logf("%d pipelined round trips with %v delay each way: %v", n, d, elapsed)
	if elapsed < 2*d {
		t.Fatalf("round trip took %v, want >= %v", elapsed, 2*d)
	}
	// Serialized delivery would take n*2*d; allow for a slow machine.
	if elapsed >= n*2*d {
		t.Fatalf("%d round trips took %v: delayed frames are serialized", n, elapsed)
	}
	p.Delay(0)
	start = time.Now()
	fc.write(request(n+1, OpGetData, nil))
	fc.nextReply(10 * time.Second)
	t.Logf("round trip after Delay(0): %v", time.Since(start))
}

func TestCutAfterRequestDropsReplyAndSevers(t *testing.T) {
	srv := newFakeServer(t)
	p := newProxy(t, srv.addr())
	fc := dialFake(t, p.Addr())
	cut := p.CutAfterRequest(OpCreate)
	fc.write(request(1, OpGetData, nil))
	if xid, _ := fc.nextReply(5 * time.Second); xid != 1 {
		t.Fatalf("reply xid %d", xid)
	}
	// The notification the server sends before the create's reply must
	// still reach the client; the reply and nothing after it must not.
	fc.write(request(2, OpCheckWatches, nil))
	fc.write(request(3, OpCreate, nil))
	fc.write(request(4, OpGetData, nil))
	for _, want := range []int32{XidNotification, 2} {
		if xid, _ := fc.nextReply(5 * time.Second); xid != want {
			t.Fatalf("got xid %d, want %d", xid, want)
		}
	}
	fc.expectClosed(5 * time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	rep, err := cut.Wait(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.ReplyDropped || rep.Xid != 3 || rep.Op != OpCreate || rep.Err != 0 || rep.Zxid == 0 {
		t.Fatalf("report = %+v, want the create's reply (xid 3) dropped", rep)
	}
	if got := srv.received(); !containsOp(got, OpCreate) {
		t.Fatalf("server never received the create: %v", got)
	}
	// The cut applied once.
	fc2 := dialFake(t, p.Addr())
	fc2.write(request(1, OpCreate, nil))
	if xid, _ := fc2.nextReply(5 * time.Second); xid != 1 {
		t.Fatalf("second create: reply xid %d", xid)
	}
	if st := p.Stats(); st.RepliesCut != 1 || st.Severed != 1 {
		t.Fatalf("stats = %+v, want 1 reply cut, 1 severed", st)
	}
}

func containsOp(ops []Op, op Op) bool {
	for _, o := range ops {
		if o == op {
			return true
		}
	}
	return false
}

func TestCutAfterRequestTimesOutWithoutReply(t *testing.T) {
	srv := newFakeServer(t)
	const timeout = 200 * time.Millisecond
	p := newProxy(t, srv.addr(), WithCutTimeout(timeout))
	fc := dialFake(t, p.Addr())
	cut := p.CutAfterRequest(OpSync) // the fake server never answers sync
	start := time.Now()
	fc.write(request(7, OpSync, nil))
	fc.expectClosed(10 * time.Second)
	rep, err := cut.Wait(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if rep.ReplyDropped || rep.Xid != 7 {
		t.Fatalf("report = %+v, want xid 7 and no reply dropped", rep)
	}
	if d := time.Since(start); d < timeout {
		t.Fatalf("severed after %v, before the %v timeout", d, timeout)
	}
}

func TestCutCanceledOrClosed(t *testing.T) {
	srv := newFakeServer(t)
	p := newProxy(t, srv.addr())
	first := p.CutAfterRequest(OpCreate)
	second := p.CutAfterRequest(OpDelete)
	if _, err := first.Wait(context.Background()); !errors.Is(err, ErrCanceled) {
		t.Fatalf("replaced cut: err = %v, want ErrCanceled", err)
	}
	p.Heal()
	if _, err := second.Wait(context.Background()); !errors.Is(err, ErrCanceled) {
		t.Fatalf("healed cut: err = %v, want ErrCanceled", err)
	}
	third := p.CutAfterRequest(OpCreate)
	p.Close()
	if _, err := third.Wait(context.Background()); !errors.Is(err, ErrClosed) {
		t.Fatalf("closed proxy's cut: err = %v, want ErrClosed", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if _, err := p.CutAfterRequest(OpCreate).Wait(ctx); !errors.Is(err, ErrClosed) {
		t.Fatalf("cut on a closed proxy: err = %v, want ErrClosed", err)
	}
}

func TestSetCutAppliesOnce(t *testing.T) {
	srvA, srvB := newFakeServer(t), newFakeServer(t)
	s, err := NewSet([]string{srvA.addr(), srvB.addr()})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	cut := s.CutAfterRequest(OpCreate)
	b := dialFake(t, s.Addrs()[1])
	b.write(request(1, OpCreate, nil))
	b.expectClosed(5 * time.Second)
	if _, err := cut.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	a := dialFake(t, s.Addrs()[0])
	a.write(request(1, OpCreate, nil))
	if xid, _ := a.nextReply(5 * time.Second); xid != 1 {
		t.Fatalf("create through the other proxy: reply xid %d", xid)
	}
	st := s.Stats()
	if st.RepliesCut != 1 || st.Requests[OpCreate] != 2 || st.Accepted != 2 {
		t.Fatalf("set stats = %+v", st)
	}
}

func TestCloseLeavesNoGoroutine(t *testing.T) {
	before := runtime.NumGoroutine()
	srv := newFakeServer(t)
	p, err := New(srv.addr())
	if err != nil {
		t.Fatal(err)
	}
	var clients []*fakeClient
	for i := 0; i < 3; i++ {
		clients = append(clients, dialFake(t, p.Addr()))
	}
	// Leave every kind of wait in progress: a cut waiting for a reply that
	// never comes, a frame held by a delay, a frame held by a blackhole.
	cut := p.CutAfterRequest(OpSync)
	clients[0].write(request(1, OpSync, nil))
	for !containsOp(srv.received(), OpSync) {
		time.Sleep(time.Millisecond)
	}
	p.Delay(time.Hour)
	clients[1].write(request(2, OpGetData, nil))
	p.BlackholeUntilHealed()
	clients[2].write(request(3, OpGetData, nil))
	time.Sleep(50 * time.Millisecond)
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if rep, err := cut.Wait(context.Background()); err != nil || rep.ReplyDropped {
		t.Fatalf("cut pending at Close: %+v, %v; want it reported as severed without reply", rep, err)
	}
	srv.close()
	for _, c := range clients {
		c.c.Close()
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<20)
			t.Fatalf("%d goroutines after Close, %d before:\n%s", runtime.NumGoroutine(), before, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestConcurrentFaultsAndTraffic(t *testing.T) {
	srv := newFakeServer(t)
	p := newProxy(t, srv.addr())
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				c, err := net.Dial("tcp", p.Addr())
				if err != nil {
					return
				}
				c.Write(lengthPrefixed(make([]byte, 44)))
				for xid := int32(1); xid <= 20; xid++ {
					c.Write(request(xid, OpGetData, nil))
				}
				c.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
				buf := make([]byte, 4096)
				for {
					if _, err := c.Read(buf); err != nil {
						break
					}
				}
				c.Close()
			}
		}()
	}
	for i := 0; i < 50; i++ {
		switch i % 5 {
		case 0:
			p.Sever()
		case 1:
			p.Blackhole(5 * time.Millisecond)
		case 2:
			p.Delay(time.Millisecond)
		case 3:
			p.CutAfterRequest(OpGetData)
		case 4:
			p.Heal()
		}
		time.Sleep(5 * time.Millisecond)
	}
	close(stop)
	wg.Wait()
}

// A cut with several opcodes takes the first request with any of them and
// reports the opcode it took; a request with none of them passes.
func TestCutAfterRequestAnyOfSeveralOps(t *testing.T) {
	srv := newFakeServer(t)
	p := newProxy(t, srv.addr())
	fc := dialFake(t, p.Addr())
	cut := p.CutAfterRequest(OpCreate, OpCreate2)
	fc.write(request(1, OpCreateContainer, nil)) // the control: not one of them
	if xid, _ := fc.nextReply(5 * time.Second); xid != 1 {
		t.Fatalf("reply xid %d: a createContainer was cut", xid)
	}
	fc.write(request(2, OpCreate2, nil))
	fc.expectClosed(5 * time.Second)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	rep, err := cut.Wait(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !rep.ReplyDropped || rep.Xid != 2 || rep.Op != OpCreate2 {
		t.Fatalf("report = %+v, want the create2 (xid 2) cut", rep)
	}
	if cut.Op() != OpCreate {
		t.Fatalf("Op() = %v, want the first opcode asked for", cut.Op())
	}
}
