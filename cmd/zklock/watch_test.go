package main

import (
	"bytes"
	"context"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklock/zklock/ensemble"
	"github.com/zklock/zklock/ensemble/ensembletest"
	"github.com/zklock/zklock/impl/zklock"
)

// frameCounter counts the --json views written of one path (json's
// Encoder writes each view in one Write).
type frameCounter struct {
	mu   sync.Mutex
	key  []byte
	n    int
	last string
}

func (c *frameCounter) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if bytes.Contains(p, c.key) {
		c.n++
	}
	c.last = string(p)
	return len(p), nil
}

func (c *frameCounter) frames() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

// serverWatches is the number of watches the servers hold, summed over
// the ensemble: mntr's zk_watch_count, child watches included (wchp, wchc
// and wchs list only data and exists watches). Each server keeps one watch
// per node and connection however often a client arms it again.
func serverWatches(t *testing.T, ctx context.Context, servers []string) int {
	t.Helper()
	n := 0
	for _, addr := range servers {
		out, err := ensemble.FourLetterWord(ctx, addr, "mntr")
		if err != nil {
			t.Fatalf("mntr on %s: %v", addr, err)
		}
		found := false
		for _, line := range strings.Split(out, "\n") {
			if v, ok := strings.CutPrefix(line, "zk_watch_count\t"); ok {
				c, err := strconv.Atoi(strings.TrimSpace(v))
				if err != nil {
					t.Fatalf("mntr on %s: %q", addr, line)
				}
				n, found = n+c, true
			}
		}
		if !found {
			t.Fatalf("mntr on %s: no zk_watch_count in:\n%s", addr, out)
		}
	}
	return n
}

// --watch on a busy path beside a quiet one: a thousand changes of the
// busy one, each waited for in a view of its own, leave the process's
// goroutines and the servers' watches where they were after the first
// few (a watch re-armed on every path at every view, as before, grew
// both by one per view for the quiet path).
func TestInspectWatchFlat(t *testing.T) {
	servers := ensembletest.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	base := fmt.Sprintf("/zklock-inspect/%d", time.Now().UnixNano())
	busy, quiet := base+"/busy", base+"/quiet"
	s, err := zklock.NewSession(ctx, servers, zklock.WithEnsembleTiming(ensembletest.Timing()))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, p := range []string{"/zklock-inspect", base, busy, quiet} {
		if _, err := s.Conn().Create(p, nil, 0, zk.WorldACL(zk.PermAll)); err != nil && err != zk.ErrNodeExists {
			t.Fatal(err)
		}
	}
	out := &frameCounter{key: []byte(`"path":"` + busy + `"`)}
	wctx, stop := context.WithCancel(ctx)
	done := make(chan int)
	var errs bytes.Buffer
	go func() {
		done <- run(wctx, append(append([]string{"inspect", "--watch", "--json"}, connect(servers)...), busy, quiet), out, &errs)
	}()
	want := 1
	await := func() {
		t.Helper()
		deadline := time.Now().Add(time.Minute)
		for out.frames() < want {
			if time.Now().After(deadline) {
				t.Fatalf("view %d not drawn; last: %s; stderr: %s", want, out.last, errs.String())
			}
			time.Sleep(time.Millisecond)
		}
	}
	await()
	change := func(n int) {
		for i := 0; i < n; i++ {
			var err error
			if want%2 == 1 {
				_, err = s.Conn().Create(busy+"/n", nil, 0, zk.WorldACL(zk.PermAll))
			} else {
				err = s.Conn().Delete(busy+"/n", -1)
			}
			if err != nil {
				t.Fatal(err)
			}
			want++
			await()
		}
	}
	change(20)
	g0, w0 := runtime.NumGoroutine(), serverWatches(t, ctx, servers)
	start := time.Now()
	const changes = 1000
	change(changes)
	g1, w1 := runtime.NumGoroutine(), serverWatches(t, ctx, servers)
	t.Logf("%d changes, %d views in %v: goroutines %d -> %d, server watches %d -> %d",
		changes, out.frames(), time.Since(start).Round(time.Millisecond), g0, g1, w0, w1)
	if g1-g0 > 10 {
		t.Errorf("goroutines grew from %d to %d over %d views", g0, g1, changes)
	}
	if w0 < 2 || w1 != w0 {
		t.Errorf("server watches: %d, then %d after %d views; want the same, and at least the two paths' child watches", w0, w1, changes)
	}
	stop()
	if rc := <-done; rc != 0 {
		t.Fatalf("exit %d: %s", rc, errs.String())
	}
}
