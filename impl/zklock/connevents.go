package zklock

import (
	"fmt"
	"time"

	"github.com/zklock/zklock/traceevent"
)

// replied (deadline.go), connectReplied and serverExpired are the wire's
// reports (wireObserver).

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

// connectReplied is the wire's report of a connect reply: the server
// attached the connection whose connect request went out at sent to
// session id, with timeout negotiated. The first names our session; a
// later one with another id means ours expired (go-zookeeper would go on
// in the new one); the same id is a reattach.
func (s *Session) connectReplied(sent time.Time, id int64, timeout time.Duration) {
	s.attaches.Add(1)
	s.mu.Lock()
	switch {
	case s.id == 0:
		s.recordGranted(sent, id, timeout)
		s.mu.Unlock()
		s.announceEstablished()
	case s.id != id:
		s.mu.Unlock()
		s.serverExpired()
	default:
		timeoutChanged, shorter := s.reattached(sent, timeout)
		s.mu.Unlock()
		// The Observer hears of the reconnect after the session has taken
		// its own steps: the room checked and the monitor woken.
		if timeoutChanged {
			if err := s.adoptRenegotiatedTimeout(shorter); err != nil {
				s.lose(fmt.Errorf("%w: renegotiated on a reconnect: %w", ErrSessionLost, err), traceevent.ResultTimer)
				return
			}
		}
		s.observeSession(SessionReconnected, nil)
	}
}

// recordGranted records the session the server granted (under s.mu): its
// id, its timeout, and the loss clock, which counts from the connect
// request's send.
func (s *Session) recordGranted(sent time.Time, id int64, timeout time.Duration) {
	s.id, s.timeout = id, timeout
	s.clock = newLossClock(s.cfg.syncLag(), sent)
}

// announceEstablished tells NewSession, which waits for it, and the
// Observer that the server granted the session.
func (s *Session) announceEstablished() {
	s.wire.evidence.established()
	close(s.established)
	s.observeSession(SessionEstablished, nil)
}

// adoptRenegotiatedTimeout acts on a loss timeout a reattach changed
// (reattached): the room the timeout leaves sets the heartbeat's period,
// which the heartbeat reads again, and a shorter timeout moves the
// deadline earlier, so the monitor must look again now, not at the old
// one. A timeout that leaves too little room is refused, as NewSession
// refuses it, since no heartbeat could keep the session alive: the error
// says why, and the caller ends the session.
func (s *Session) adoptRenegotiatedTimeout(shorter bool) error {
	if err := s.roomErr(); err != nil {
		return err
	}
	notify(s.newTimeout)
	if shorter {
		notify(s.newDeadline)
	}
	return nil
}

// notify wakes whoever waits on ch (a channel with room for one), unless
// a wake-up is pending already.
func notify(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

// serverExpired ends the session as the server said: it expired.
func (s *Session) serverExpired() { s.lose(ErrSessionExpired, traceevent.ResultExpired) }
