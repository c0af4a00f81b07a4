package zklock

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
)

// bareSession is a Session with only what the call machinery uses: no
// connection, so that the benchmarks below measure zklock's own cost per
// call and nothing of ZooKeeper's.
func bareSession(tb testing.TB) *Session {
	s := &Session{done: make(chan struct{})}
	s.life, s.endLife = context.WithCancel(context.Background())
	tb.Cleanup(func() {
		s.endLife()
		s.goroutines.Wait()
	})
	return s
}

// goid is the calling goroutine's id, from its stack's first line.
func goid() string {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	return strings.Fields(string(buf))[1]
}

// TestCallWorkersReused: calls one after another run on one worker, calls
// at once each on its own, and every worker ends with the session.
func TestCallWorkersReused(t *testing.T) {
	s := bareSession(t)
	ctx := context.Background()
	ran := map[string]bool{}
	for i := range 100 {
		id, err := do(ctx, s, func() (string, error) { return goid(), nil })
		if err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
		ran[id] = true
	}
	if len(ran) != 1 || ran[goid()] {
		t.Fatalf("100 calls in turn ran on goroutines %v, want one worker (not the caller's)", ran)
	}
	// Four calls blocked at once need four workers.
	release := make(chan struct{})
	released := false
	defer func() {
		if !released {
			close(release) // so that the workers can end after a failure
		}
	}()
	var chans []<-chan result[string]
	for range 4 {
		ch, err := start(s, func() (string, error) { <-release; return goid(), nil })
		if err != nil {
			t.Fatal(err)
		}
		chans = append(chans, ch)
	}
	close(release)
	released = true
	ran = map[string]bool{}
	for _, ch := range chans {
		r := <-ch
		if r.err != nil {
			t.Fatal(r.err)
		}
		ran[r.v] = true
	}
	if len(ran) != 4 {
		t.Fatalf("4 calls at once ran on goroutines %v, want 4", ran)
	}
	s.mu.Lock()
	s.err = ErrClosed // what lose does first
	s.mu.Unlock()
	if _, err := start(s, func() (int, error) { return 0, nil }); err != ErrClosed {
		t.Fatalf("a call after the session ended = %v, want ErrClosed", err)
	}
	s.endLife()
	done := make(chan struct{})
	go func() { s.goroutines.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the workers did not end with the session")
	}
}

// BenchmarkCall is zklock's own cost of one call: handing it to a worker
// and taking the result back, with a context that can end.
func BenchmarkCall(b *testing.B) {
	s := bareSession(b)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	b.ReportAllocs()
	for range b.N {
		if _, err := do(ctx, s, func() (int, error) { return 1, nil }); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkNewUUID: one acquisition's identity.
func BenchmarkNewUUID(b *testing.B) {
	b.ReportAllocs()
	for range b.N {
		if _, err := newUUID(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkQueue: parsing and ordering a listing of 16 contenders.
func BenchmarkQueue(b *testing.B) {
	var names []string
	for i := range 16 {
		u, _ := newUUID()
		names = append(names, fmt.Sprintf("%s%s-lock-%010d", protectedPrefix, u, (i*7)%16))
	}
	b.ReportAllocs()
	for range b.N {
		if q := queue(names); len(q) != 16 {
			b.Fatal(len(q))
		}
	}
}
