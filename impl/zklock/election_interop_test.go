package zklock

import (
	"path"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/zklock/zklock/ensemble/ensembletest"
)

// latchNode is Curator LeaderLatch's node name, protected mode.
var latchNode = regexp.MustCompile(`^` + uuidRE + `-latch-[0-9]{10}$`)

// latchSeq is a candidate node's sequence number.
func latchSeq(t *testing.T, node string) int64 {
	t.Helper()
	c, ok := parseNode(path.Base(node), latchNodes)
	if !ok {
		t.Fatalf("node %s is no candidate", node)
	}
	return c.seq
}

// TestInteropElection: Curator's LeaderLatch and zklock's Election elect on
// one path, both ways, and name their nodes alike: a Go candidate waits for
// a leading LeaderLatch and leads when it closes, reading its participant
// id as the leader's value meanwhile; a LeaderLatch waits for a Go leader
// and leads when it resigns. No two lead together (holdTracker).
func TestInteropElection(t *testing.T) {
	skipTraceCheck(t, "Curator's candidates belong to no traced client")
	track := newHoldTracker()
	j := startCurator(t, ensembletest.Require(t), track)
	a := admin(t)
	zc := newClient(t, "zklock")
	p := lockPath(t)
	e := election(t, zc, p)
	ctx := ctxFor(t, 3*time.Minute)

	// A LeaderLatch leads; the Go candidate queues behind it.
	j.acquire(t, "l1", "latch", p)
	cNode := j.waitGranted(t, "l1")
	checkName(t, "Curator", path.Base(cNode), latchNode)
	info, err := e.Leader(ctx)
	if err != nil || info.Node != cNode || string(info.Value) != "curator:l1" {
		t.Fatalf("Leader = %+v, %v; want Curator's %s with its participant id", info, err, cNode)
	}
	pc := campaignAsync(ctx, e, "zklock")
	zc.trace.waitFor(t, "zklock queued", time.Minute, waiting)
	time.Sleep(waitGrace)
	if pc.returned() {
		t.Fatalf("zklock leads (%v) while Curator's LeaderLatch leads", pc.err)
	}

	// The LeaderLatch closes; the Go candidate leads.
	j.release(t, "l1")
	lead, err := pc.wait(t, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if err := track.grant("zklock", "exclusive"); err != nil {
		t.Error(err)
	}
	j.waitReleased(t, "l1")
	checkName(t, "zklock", path.Base(lead.Node()), latchNode)
	if lead.Epoch() <= info.Epoch {
		t.Errorf("zklock's epoch %d not above Curator's %d", lead.Epoch(), info.Epoch)
	}

	// A LeaderLatch queues behind the Go leader, and leads when it resigns.
	queued := curatorQueued(t, j, a, "l2", "latch", p)
	if latchSeq(t, queued) <= latchSeq(t, lead.Node()) {
		t.Errorf("Curator's node %s is not behind zklock's %s", queued, lead.Node())
	}
	track.releasing("zklock")
	if err := lead.Resign(ctx); err != nil {
		t.Fatal(err)
	}
	track.released("zklock")
	if got := j.waitGranted(t, "l2"); got != p+"/"+queued {
		t.Errorf("Curator leads as %s, queued as %s", got, queued)
	}
	info, err = e.Leader(ctx)
	if err != nil || !strings.HasSuffix(info.Node, queued) || string(info.Value) != "curator:l2" {
		t.Errorf("Leader = %+v, %v; want Curator's %s", info, err, queued)
	}
	j.release(t, "l2")
	j.waitReleased(t, "l2")
	track.check(t)
	eventually(t, "candidate nodes gone", time.Minute, func() bool { return len(nodes(t, a, p)) == 0 })
}
