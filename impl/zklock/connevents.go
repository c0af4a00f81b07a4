package zklock

import (
	"fmt"
	"time"

	"github.com/zklock/zklock/traceevent"
)

// acked (deadline.go), connected and expired are the wire's reports
// (wireObserver).

// sawZxid keeps the highest zxid seen: ZooKeeper never shows a session a
// lower one than it has seen, so it places each reply in the ensemble's
// one order of writes (the trace validator orders steps by it).
func (s *Session) sawZxid(zxid int64) {
	for {
		cur := s.zxid.Load()
		if zxid <= cur || s.zxid.CompareAndSwap(cur, zxid) {
			return
		}
	}
}

func (s *Session) connected(sent time.Time, id int64, timeout time.Duration) {
	s.attaches.Add(1)
	s.mu.Lock()
	switch {
	case s.id == 0:
		s.id, s.timeout = id, timeout
		s.clock = newLossClock(s.cfg.syncLag(), sent)
		s.mu.Unlock()
		s.wire.evidence.established()
		close(s.established)
		s.observeSession(SessionEstablished, nil)
	case s.id != id:
		s.mu.Unlock()
		s.expired()
	default:
		// A reattach (reattached): a shorter timeout moves the deadline
		// earlier, so the monitor must look again now, not at the old one.
		changed, shorter := s.reattached(sent, timeout)
		s.mu.Unlock()
		// The Observer hears of the reconnect after the session has taken
		// its own steps: the room checked and the monitor woken.
		if !changed {
			s.observeSession(SessionReconnected, nil)
			return
		}
		// The room the timeout leaves sets the heartbeat's period; a
		// timeout that leaves too little is refused, as NewSession refuses
		// it, since no heartbeat could keep the session alive.
		if err := s.roomErr(); err != nil {
			s.lose(fmt.Errorf("%w: renegotiated on a reconnect: %w", ErrSessionLost, err), traceevent.ResultTimer)
			return
		}
		notify(s.retime)
		if shorter {
			notify(s.kick)
		}
		s.observeSession(SessionReconnected, nil)
	}
}

// notify wakes whoever waits on ch (a channel with room for one), unless
// a wake-up is pending already.
func notify(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

func (s *Session) expired() { s.lose(ErrSessionExpired, traceevent.ResultExpired) }
