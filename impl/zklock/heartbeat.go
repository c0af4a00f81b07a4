package zklock

import (
	"context"
	"errors"
	"time"
)

// heartbeat sends a sync every quarter of the room the timeout leaves, so
// that the loss deadline keeps moving while the leader hears from us. One
// sync at a time: a sync stuck behind a cut link is the point, not a reason
// to pile up more. A reconnect may renegotiate the timeout (newTimeout):
// the period is read again then, or a shorter timeout would be left with
// syncs too rare to prove anything before its deadline.
func (s *Session) heartbeat() {
	defer s.goroutines.Done()
	every := s.beatPeriod()
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-s.done:
			return
		case <-s.newTimeout:
			if e := s.beatPeriod(); e != every {
				every = e
				t.Reset(every)
			}
			continue
		case <-t.C:
		}
		if _, err := s.conn.Sync("/"); err != nil && !errors.Is(err, context.Canceled) {
			s.log.Debug("zklock: heartbeat sync", "err", err)
		}
	}
}

// beatPeriod is a quarter of the room the negotiated timeout leaves (at
// least minRoom/4); the heartbeat notes it in beat.
func (s *Session) beatPeriod() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.beat = max((s.timeout-s.margin()-s.cfg.syncLag())/4, minRoom/4)
	return s.beat
}
