package zklock

import (
	"fmt"
	"time"

	"github.com/zklock/zklock/traceevent"
)

// deadline is when the session must be taken for lost (see lossClock);
// live is false before the server granted the session.
func (s *Session) deadline() (deadline time.Time, live bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.clock == nil {
		return time.Time{}, false
	}
	return s.clock.deadline(s.timeout, s.margin()), true
}

// checkDeadline ends the session if its loss deadline has passed, and
// returns the session's error, if any. Every local step that hands out or
// honours a lease calls it first: the monitor goroutine may not have run
// yet (a process that was paused wakes up with its timers late), and from
// the deadline on another client may already hold the lock.
func (s *Session) checkDeadline() error {
	if err := s.Err(); err != nil {
		return err
	}
	deadline, live := s.deadline()
	if !live || s.lossNow().Before(deadline) {
		return nil
	}
	s.mu.Lock()
	timeout, margin, lag := s.timeout, s.margin(), s.cfg.syncLag()
	s.mu.Unlock()
	s.lose(fmt.Errorf("%w: no sync in the last %v of a %v session proved the leader still heard from us (sync lag %v)",
		ErrSessionLost, timeout-margin, timeout, lag), traceevent.ResultTimer)
	return s.Err()
}

// minRoom is the least time the negotiated timeout must leave after the
// drift margin and the sync lag: the heartbeat sends a sync every quarter
// of it.
const minRoom = 200 * time.Millisecond

// checkRoom refuses a negotiated timeout the loss rule cannot keep alive.
func (s *Session) checkRoom() error {
	if err := s.roomErr(); err != nil {
		return fmt.Errorf("zklock: new session: %w", err)
	}
	return nil
}

// roomErr says, matching ErrInvalidArgument, why the negotiated timeout
// leaves too little room after the drift margin and the sync lag.
func (s *Session) roomErr() error {
	s.mu.Lock()
	timeout, margin, lag := s.timeout, s.margin(), s.cfg.syncLag()
	s.mu.Unlock()
	if room := timeout - margin - lag; room < minRoom {
		return fmt.Errorf("%w: the negotiated session timeout %v leaves %v after the drift margin %v "+
			"and the sync lag %v ((syncLimit %d + 1) x tickTime %v, WithEnsembleTiming); at least %v is needed",
			ErrInvalidArgument, timeout, room, margin, lag, s.cfg.syncLimit, s.cfg.tickTime, minRoom)
	}
	return nil
}

// replied records an acknowledgement (the wire's report), unless it arrived
// at or after the loss deadline: the session is lost then, whatever the
// reply proves (SessionClock's AckReply comes only while the client
// believes), and the session ends at once rather than at the monitor's
// next look. After a suspend that is the first reply after waking.
func (s *Session) replied(sent, at time.Time, sync bool) {
	s.mu.Lock()
	if s.clock == nil {
		s.mu.Unlock()
		return
	}
	if s.readyClosed() && !at.Before(s.clock.deadline(s.timeout, s.margin())) {
		s.mu.Unlock()
		_ = s.checkDeadline()
		return
	}
	s.clock.recordAck(sent, at, sync)
	s.mu.Unlock()
}

// readyClosed reports whether NewSession accepted the negotiated timeout:
// from then on the loss deadline holds.
func (s *Session) readyClosed() bool {
	select {
	case <-s.ready:
		return true
	default:
		return false
	}
}

// reattached records a reattach to the session on a reconnect (under
// s.mu), sent at sent, with the timeout it negotiated; changed says the
// loss timeout changed, shorter that it shrank.
//
// The session keeps the smallest timeout negotiated in its life: a server
// with a larger minSessionTimeout negotiates a longer one, and the leader
// touches the session with it, but a new leader re-arms every session with
// the timeout createSession stored (spec/tla/SessionClock.tla,
// LatestTimeout fails with the latest timeout). A reattach counts like a
// sync: the server revalidates the session with the leader before it
// answers (a follower's REVALIDATE; the leader touches the session then),
// so the leader touched it after sent, whichever follower answered before.
func (s *Session) reattached(sent time.Time, timeout time.Duration) (changed, shorter bool) {
	if timeout < s.timeout {
		// The leader armed the shorter timeout as it revalidated, before
		// the reply told us: a reply held up past it finds the session
		// expired while we believed (SessionClock.ShorterReattach). Only
		// servers that agree on their timeout bounds rule that out.
		s.log.Warn("zklock: a reconnect negotiated a shorter session timeout; give every server the same minSessionTimeout and maxSessionTimeout",
			"session", fmt.Sprintf("0x%x", s.id), "was", s.timeout, "now", timeout)
		s.timeout = timeout
		changed, shorter = true, true
	}
	if at := s.lossNow(); at.Before(s.clock.deadline(s.timeout, s.margin())) {
		s.clock.recordAck(sent, at, true)
	} else {
		// Past the deadline the session is lost: the monitor looks now.
		changed, shorter = true, true
	}
	return changed, shorter
}
