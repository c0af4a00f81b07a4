package zklock

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zklock/zklock/ensemble/ensembletest"
)

// TestBusySessionKeepsLease is the availability half of the loss rule on
// the real ensemble (issue: a session busy with its own requests declared
// itself lost on a healthy ensemble and gave its locks away). Three
// sessions hold a lease each while their own goroutines send reads on
// Conn() for longer than three session timeouts: one paced at about
// 300 replies/s, one flat out from two goroutines and one from eight, the
// last two well above the 4,096 acknowledgements per lag (3 s on the test
// ensemble, about 1,365/s) at which the old merge of the loss clock's memory
// stopped proving anything. Nothing is wrong with the servers, so every
// session and every lease must still be alive at the end. The rates reached
// are logged; the verdict does not depend on them being reached on a slow
// machine (the unit test TestLossClockBusySessionKeepsLease pins the rule at
// every rate), only on nothing being lost. Its control is the code mutant
// merge-oldest-acks.
func TestBusySessionKeepsLease(t *testing.T) {
	if testing.Short() {
		t.Skip("runs for three session timeouts against the ensemble")
	}
	servers := ensembletest.Require(t)
	const timeout = 10 * time.Second // the longest the test ensemble negotiates
	run := 3*timeout + 2*time.Second
	loads := []struct {
		name    string
		workers int
		pace    time.Duration // between two reads of one worker; 0: flat out
	}{{"paced", 1, 3 * time.Millisecond}, {"two-flat-out", 2, 0}, {"eight-flat-out", 8, 0}}
	type busy struct {
		s       *Session
		lease   *Lease
		replies atomic.Int64
	}
	all := make([]*busy, len(loads))
	for i := range loads {
		s, err := NewSession(ctxFor(t, time.Minute), servers, WithSessionTimeout(timeout), timing())
		if err != nil {
			t.Fatalf("session %s: %v", loads[i].name, err)
		}
		t.Cleanup(func() { s.Close() })
		m, err := NewMutex(s, lockPath(t))
		if err != nil {
			t.Fatal(err)
		}
		lease, err := m.Lock(ctxFor(t, time.Minute))
		if err != nil {
			t.Fatalf("lock %s: %v", loads[i].name, err)
		}
		all[i] = &busy{s: s, lease: lease}
	}
	ctx, cancel := context.WithTimeout(context.Background(), run)
	defer cancel()
	var wg sync.WaitGroup
	start := time.Now()
	for i, l := range loads {
		b := all[i]
		for w := 0; w < l.workers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for ctx.Err() == nil {
					if _, _, err := b.s.Conn().Exists("/"); err != nil {
						return // the session ended: reported below
					}
					b.replies.Add(1)
					if l.pace > 0 {
						time.Sleep(l.pace)
					}
				}
			}()
		}
	}
	wg.Wait()
	took := time.Since(start)
	for i, l := range loads {
		b := all[i]
		rate := float64(b.replies.Load()) / took.Seconds()
		t.Logf("%s: %.0f replies/s for %v", l.name, rate, took.Round(time.Second))
		if err := b.s.Err(); err != nil {
			t.Errorf("%s (%.0f replies/s): a healthy session declared itself lost: %v", l.name, rate, err)
		}
		select {
		case <-b.lease.Done():
			t.Errorf("%s (%.0f replies/s): lease lost on a healthy ensemble: %v", l.name, rate, b.lease.Err())
		default:
		}
		if err := b.lease.Unlock(ctxFor(t, 30*time.Second)); err != nil && b.s.Err() == nil {
			t.Errorf("%s: unlock: %v", l.name, err)
		}
	}
}
