package zklock

import (
	"fmt"
	"path"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/zklock/zklock/ensemble/ensembletest"
	"github.com/zklock/zklock/traceevent"
)

// semLeaseNode is Curator InterProcessSemaphoreV2's lease node name.
var semLeaseNode = regexp.MustCompile(`^` + uuidRE + `-lease-[0-9]{10}$`)

// semCount counts the leases held on both sides, as the test sees them:
// a Go lease from Acquire's return until its Unlock is called, a Curator
// lease from its "granted" line until the test sends its release. Each
// is truly held over that span, so the count never exceeds the real one.
type semCount struct {
	mu    sync.Mutex
	held  map[string]bool
	peak  int
	errs  []string
	limit int
}

func (s *semCount) grant(who string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.held[who] = true
	if n := len(s.held); n > s.limit {
		s.errs = append(s.errs, fmt.Sprintf("%s granted with %d leases held, max %d", who, n, s.limit))
	}
	s.peak = max(s.peak, len(s.held))
}

func (s *semCount) release(who string) {
	s.mu.Lock()
	delete(s.held, who)
	s.mu.Unlock()
}

// TestInteropSemaphore: Curator 5.9's InterProcessSemaphoreV2 with 3 leases
// and zklock's Semaphore of 3 on one path. Two Curator leases and one of
// ours fill it; a second Go acquirer waits (holding the internal mutex, a
// Curator InterProcessMutex's node) and a third Curator one waits behind it
// on that mutex; a Curator release lets the Go waiter in, a Go release the
// Curator one. Never more than 3 held; lease nodes are named alike.
func TestInteropSemaphore(t *testing.T) {
	skipTraceCheck(t, "Curator's acquirers belong to no traced client")
	const max = 3
	j := startCurator(t, ensembletest.Require(t), newHoldTracker())
	a := admin(t)
	p := lockPath(t)
	ctx := ctxFor(t, 3*time.Minute)
	count := &semCount{held: map[string]bool{}, limit: max}
	kind := fmt.Sprintf("semaphore-%d", max)
	curator := func(id string) string {
		j.mu.Lock()
		j.mode[id] = "read" // the exclusive-lock tracker stays out of it: semCount counts
		j.mu.Unlock()
		j.send(t, "acquire %s %s %s", id, kind, p)
		node := j.waitGranted(t, id)
		count.grant("curator " + id)
		return node
	}
	curatorRelease := func(id string) {
		count.release("curator " + id)
		j.send(t, "release %s", id)
		j.waitReleased(t, id)
	}
	n1, n2 := curator("c1"), curator("c2")
	checkName(t, "Curator", path.Base(n1), semLeaseNode)
	checkName(t, "Curator", path.Base(n2), semLeaseNode)

	_, m1 := newSem(t, "g1", p, max)
	g2c, m2 := newSem(t, "g2", p, max)
	l1, err := m1.Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	count.grant("g1")
	checkName(t, "zklock", path.Base(l1.Node()), semLeaseNode)
	p2 := lockAsync(ctx, m2.Acquire)
	g2c.trace.waitFor(t, "g2 waits at max", time.Minute, func(ev TraceEvent) bool {
		return ev.Action == traceevent.ListLeases && ev.Result == traceevent.ResultWait
	})
	j.mu.Lock()
	j.mode["c3"] = "read"
	j.mu.Unlock()
	j.send(t, "acquire c3 %s %s", kind, p)
	// c3 queues on the internal mutex behind g2: two nodes there.
	eventually(t, "Curator's c3 queued on the internal mutex", time.Minute, func() bool {
		return len(nodes(t, a, p+semLocks)) == 2
	})
	time.Sleep(waitGrace)
	if p2.returned() {
		t.Fatalf("g2 holds (%v) beside three leases", p2.err)
	}
	j.mu.Lock()
	c3early := j.granted["c3"]
	j.mu.Unlock()
	if c3early != "" {
		t.Fatal("Curator's c3 holds beside three leases")
	}
	if got := len(nodes(t, a, p+semLeases)); got != max+1 {
		t.Fatalf("%d lease nodes, want %d held and g2's", got, max)
	}

	curatorRelease("c1") // g2 gets in
	l2, err := p2.wait(t, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	count.grant("g2")
	eventually(t, "Curator's c3 waits at max", time.Minute, func() bool {
		return len(nodes(t, a, p+semLeases)) == max+1
	})
	count.release("g1")
	if err := l1.Unlock(ctx); err != nil { // c3 gets in
		t.Fatal(err)
	}
	j.waitGranted(t, "c3")
	count.grant("curator c3")

	count.release("g2")
	l2.Unlock(ctx)
	curatorRelease("c2")
	curatorRelease("c3")
	count.mu.Lock()
	errs, peak := count.errs, count.peak
	count.mu.Unlock()
	if len(errs) > 0 {
		t.Fatalf("more than %d leases held: %v", max, errs)
	}
	eventually(t, "semaphore nodes gone", time.Minute, func() bool {
		l, k := semNodes(t, a, p)
		return len(l) == 0 && len(k) == 0
	})
	t.Logf("peak %d leases held across Curator and zklock", peak)
}
