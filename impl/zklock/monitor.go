package zklock

import (
	"fmt"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/zklock/zklock/traceevent"
)

// monitor runs the loss timer, then tears the connection down.
func (s *Session) monitor() {
	defer close(s.stopped)
	// The loss timer starts once NewSession accepted the negotiated
	// timeout: a session it refuses is closed, not reported lost.
	ready := s.ready
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for running := true; running; {
		if ready == nil {
			if err := s.checkDeadline(); err != nil {
				break
			}
			if deadline, live := s.deadline(); live {
				timer.Reset(deadline.Sub(s.lossNow()))
			}
		}
		select {
		case <-timer.C:
		case <-s.newDeadline:
		case <-ready:
			ready = nil
		case <-s.done:
			running = false
		}
	}
	// Close sends closeSession when it can, so the server deletes our lock
	// nodes at once instead of at expiry; shutting the wire then unblocks a
	// handshake that would otherwise wait for many timeouts.
	s.conn.Close()
	s.wire.shut()
	if !drain(s.events, connCloseWait) {
		s.log.Warn("zklock: go-zookeeper's connection did not stop; its goroutine is abandoned",
			"session", fmt.Sprintf("0x%x", s.ID()), "waited", connCloseWait)
	}
	s.opsUnderWay.Wait()
	s.mu.Lock()
	how, at := s.how, s.lostAt
	s.mu.Unlock()
	s.trace(TraceEvent{Action: traceevent.LearnExpiry, Result: how, Start: at})
}

// connCloseWait bounds how long Close waits for go-zookeeper's connection
// goroutine to stop, which it normally does within a round trip once the
// wire is shut. go-zookeeper v1.0.4 can deadlock there: a request queued
// as Close is called, whose write then fails, is answered three times
// into a channel with room for two (Conn.queueRequest's "tie" answer,
// sendData's write error, flushRequests), and the goroutine waits forever
// on the third. It was seen once in a frozen-and-thawed client, whose
// Close then never returned. Waiting longer cannot help; Close returns
// and that one goroutine of the library is left behind, logged.
const connCloseWait = 5 * time.Second

// drain reads events until the channel is closed (true) or wait has
// passed (false). go-zookeeper never blocks on a full event channel (it
// drops the event), so leaving it undrained cannot stall the library.
func drain(events <-chan zk.Event, wait time.Duration) bool {
	give := time.NewTimer(wait)
	defer give.Stop()
	for {
		select {
		case _, ok := <-events:
			if !ok {
				return true
			}
		case <-give.C:
			return false
		}
	}
}
