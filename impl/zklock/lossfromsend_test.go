package zklock

import (
	"fmt"
	"sync"
	"testing"
	"time"
)

// The loss deadline counts from when a request was sent, not from when its
// reply arrived: the leader may have heard of the request as soon as it was
// sent, and a reply held on the way back (a slow link, a busy follower)
// says nothing about later. Counting from the arrival moves the deadline
// later by as long as replies are held, which no other test notices: on a
// healthy ensemble the arrival follows the send within a millisecond.
//
// So the proxies hold every frame d each way, and the deadline the session
// computed is read through its internals. Causality bounds it: a request
// sent at s after the delay began has its reply back at a >= s + 2d; the
// rule counts s only once a sync sent at t >= a + lag has been acknowledged,
// at A >= t + 2d, and A is before the moment we look, now. So every send
// time the session counts from is no later than now - lag - 4d, or from
// before the delay began. That holds on any machine, however slow: the
// proxy never delivers a frame early. A session counting from arrivals
// counts from about now - lag (the mutant sent-time-is-arrival), 4d later.
// Syncs are kept in flight so that acknowledgements come every few
// milliseconds, not once a heartbeat: the session lives on, and the
// arrival-counting session is 4d past the bound at every look.
func TestLossDeadlineCountsFromSend(t *testing.T) {
	c := newClient(t, "c", WithSessionTimeout(10*time.Second))
	timeout, margin, lag := c.Timeout(), c.margin(), c.cfg.syncLag()
	room := timeout - margin - lag
	// A round trip of 2d, and the 4d between a send and its being counted,
	// leave half the room: the session does not lose itself on the way.
	d := room / 8
	t.Logf("timeout %v, margin %v, lag %v: replies held %v each way", timeout, margin, lag, d)

	stop := make(chan struct{})
	var syncers sync.WaitGroup
	for range 8 {
		syncers.Add(1)
		go func() {
			defer syncers.Done()
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := c.Conn().Sync("/"); err != nil {
					select {
					case <-stop:
						return
					case <-time.After(10 * time.Millisecond):
					}
				}
			}
		}()
	}
	defer func() {
		c.net.Heal()
		close(stop)
		syncers.Wait()
	}()

	c.net.Delay(d)
	on := c.lossNow() // every request sent from now on is held both ways
	base := func() (time.Time, time.Time) {
		deadline, _ := c.deadline()
		return deadline.Add(-(timeout - margin)), c.lossNow()
	}
	// closest is how near the bound the counted send time came, for the log.
	closest := time.Duration(-1)
	check := func(b, now time.Time) error {
		bound := now.Add(-lag - 4*d)
		if b.After(on) && (closest < 0 || bound.Sub(b) < closest) {
			closest = bound.Sub(b)
		}
		if b.After(on) && b.After(bound) {
			return fmt.Errorf("the session counts its loss deadline from %v before the moment it was read; "+
				"nothing sent since the delay began can be proven sent later than %v before it (lag %v + 4 x %v held): "+
				"it counts from a reply's arrival, not from its request's send",
				now.Sub(b).Round(time.Millisecond), now.Sub(bound).Round(time.Millisecond), lag, d)
		}
		return nil
	}
	// Wait until the session counts from a request sent under the delay:
	// looking before proves nothing. Every look on the way is judged too.
	var first error
	eventually(t, "the loss deadline counting from a request sent under the delay", 30*time.Second, func() bool {
		b, now := base()
		if err := check(b, now); err != nil && first == nil {
			first = err
		}
		return b.After(on) || c.Err() != nil
	})
	if first != nil {
		t.Fatal(first)
	}
	if err := c.Err(); err != nil {
		t.Fatalf("the session ended with replies held %v each way, half its room of %v: %v", d, room, err)
	}
	// Then look for a while, as the deadline moves on.
	for range 40 {
		b, now := base()
		if err := check(b, now); err != nil {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := c.Err(); err != nil {
		t.Fatalf("the session ended with replies held %v each way, half its room of %v: %v", d, room, err)
	}
	t.Logf("the counted send time came within %v of the bound", closest.Round(time.Millisecond))
}
