package zklock

import (
	"time"

	"github.com/zklock/zklock/traceevent"
)

// trace reports a step. LearnExpiry is the session's last: a step finishing
// after it (a delete left to the background) belongs to a session the
// client has abandoned, and the spec's client has moved on.
func (s *Session) trace(ev TraceEvent) { s.traceWrite(ev, "") }

// traceWrite reports a step whose write named path (a create's prefix, a
// delete's node): the wire reported the write's zxid, which the step
// carries as its Zxid.
func (s *Session) traceWrite(ev TraceEvent, path string) {
	t := s.cfg.tracer
	if t == nil {
		return
	}
	s.traceMu.Lock()
	defer s.traceMu.Unlock()
	if s.learned {
		return
	}
	s.learned = ev.Action == traceevent.LearnExpiry
	ev.Session = s.ID()
	ev.Time = time.Now()
	if ev.Start.IsZero() {
		ev.Start = ev.Time
	}
	z, wrote := s.writes[path]
	delete(s.writes, path)
	// The wire keeps the zxid of the last write whose reply named path,
	// which need not be this event's: a Proclaim's or a Guard's multi
	// checks the lock node first, and a delete whose reply was lost, then
	// retried into "no node", leaves that older zxid there. Ours is newer
	// than anything the session had seen when the event began.
	ours := wrote && (ev.ZxidLow == 0 || z > ev.ZxidLow)
	switch {
	case ev.Zxid != 0:
		ev.ZxidLow = 0
	case ours && !ev.Pending:
		ev.Zxid, ev.ZxidLow = z, 0
	case ev.ZxidLow != 0 && !ev.Pending:
		ev.ZxidHigh = s.zxid.Load()
	}
	t(ev)
}

// maxUntracedWrites bounds the writes kept for a trace that never asks
// for them (a parent created, a delete after the last step).
const maxUntracedWrites = 1024

// wrote is the wire's report of a write's zxid (traced sessions only).
func (s *Session) wrote(path string, zxid int64) {
	s.traceMu.Lock()
	defer s.traceMu.Unlock()
	if s.writes == nil || len(s.writes) >= maxUntracedWrites {
		s.writes = map[string]int64{}
	}
	s.writes[path] = zxid
}

// mark is where a traced step starts: the time and the highest zxid seen.
// Without a tracer it costs nothing.
type mark struct {
	at   time.Time
	zxid int64
}

func (s *Session) now() mark {
	if s.cfg.tracer == nil {
		return mark{}
	}
	return mark{time.Now(), s.zxid.Load()}
}
