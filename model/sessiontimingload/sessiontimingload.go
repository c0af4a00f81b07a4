// Package sessiontimingload is the Go mirror of
// spec/tla/SessionTimingLoad.tla: a healthy session (every reply in order
// within Delay ticks, a sync every Beat ticks, as many reads as it likes)
// whose loss clock is the bounded model/lossclock. NoSpuriousLoss says
// the holder never stops believing; ProvesNoMore, with any timing, that the
// bounded clock proves no more than the unbounded synced rule. Variables are State's fields, actions
// Spec's methods of the same names.
package sessiontimingload

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/lossclock"
	"github.com/zklock/zklock/model/timing"
	"github.com/zklock/zklock/model/tla"
)

// Constants are the CONSTANTS of SessionTimingLoad.
type Constants struct {
	Timeout, Drift           int
	Clock                    lossclock.Config // Lag, MaxAcks, Merge
	Delay, Beat, MaxInFlight int
	MaxTime                  int
	Healthy                  bool
}

// Spec is the state machine with its constants; its Step, Next and
// ActionName are its action table's.
type Spec struct {
	Constants
	timing.Actions[State]
}

// New checks the constants (the modules' ASSUMEs).
func New(k Constants) (*Spec, error) {
	if err := k.Clock.Check(); err != nil {
		return nil, err
	}
	if k.Timeout < 0 || k.Drift < 0 || k.MaxTime < 0 || k.Delay < 1 || k.Beat < 1 || k.MaxInFlight < 1 {
		return nil, fmt.Errorf("sessiontimingload: constants out of range: %+v", k)
	}
	sp := &Spec{Constants: k}
	plain := timing.Plain[State]
	// Next's disjuncts in order.
	sp.Actions = timing.Actions[State]{{Name: "Tick", Step: plain(sp.Tick)}, {Name: "SendRead", Step: plain(sp.SendRead)},
		{Name: "SendSync", Step: plain(sp.SendSync)}, {Name: "AckReply", Step: plain(sp.AckReply)}}
	return sp, nil
}

// Req is a request in flight.
type Req struct {
	Sent int
	Sync bool
}

// State is a state of SessionTimingLoad, fields in the VARIABLES order.
// Inflight and Clock.Mem are shared between states: never written in place.
type State struct {
	Now      int
	Inflight []Req
	Clock    lossclock.Clock
	LastSync int
	Shadow   Shadow
}

// Shadow is the synced rule over every acknowledgement, unbounded: the
// acknowledgements not yet proven (a set, kept sorted) and what is proven.
// Acks is shared between states: never written in place.
type Shadow struct {
	Acks   []lossclock.Entry
	Proven int
}

// shadowAcked is the spec's ShadowAcked.
func (sp *Spec) shadowAcked(sh Shadow, s, a int, sync bool) Shadow {
	by := -1
	if sync {
		by = s - sp.Clock.Lag
	}
	proven, rest := lossclock.Proves(sh.Acks, sh.Proven, by)
	if s > proven {
		i := slices.IndexFunc(rest, func(e lossclock.Entry) bool { return e.Sent > s || (e.Sent == s && e.At >= a) })
		switch {
		case i < 0:
			rest = append(rest, lossclock.Entry{Sent: s, At: a})
		case rest[i] != (lossclock.Entry{Sent: s, At: a}):
			rest = slices.Insert(rest, i, lossclock.Entry{Sent: s, At: a})
		}
	}
	return Shadow{Acks: rest, Proven: proven}
}

// HBelieves: the holder's loss deadline has not passed.
func (sp *Spec) HBelieves(s *State) bool { return s.Now < s.Clock.Proven+sp.Timeout-sp.Drift }

func (sp *Spec) overdue(s *State) bool {
	return len(s.Inflight) > 0 && s.Now >= s.Inflight[0].Sent+sp.Delay
}

func (sp *Spec) syncDue(s *State) bool { return s.Now >= s.LastSync+sp.Beat }

// Init is the initial state.
func (sp *Spec) Init() State { return State{} }

// Tick: the clock advances once every reply due has arrived and the sync
// due is sent.
func (sp *Spec) Tick(s, t *State) model.Guard {
	switch {
	case s.Now >= sp.MaxTime:
		return "now < MaxTime"
	case sp.Healthy && sp.overdue(s):
		return "~Overdue"
	case sp.Healthy && sp.syncDue(s):
		return "~SyncDue"
	}
	*t = *s
	t.Now++
	return model.Enabled
}

func (sp *Spec) send(s, t *State, sync bool) model.Guard {
	switch {
	case !sp.HBelieves(s):
		return "HBelieves"
	case sync && sp.Healthy && !sp.syncDue(s):
		return "SyncDue"
	case len(s.Inflight) >= sp.MaxInFlight:
		return "Len(inflight) < MaxInFlight"
	}
	*t = *s
	t.Inflight = append(append(make([]Req, 0, len(s.Inflight)+1), s.Inflight...), Req{Sent: s.Now, Sync: sync})
	if sync && sp.Healthy {
		t.LastSync = s.Now
	}
	return model.Enabled
}

// SendRead: the holder's own traffic, a read, while it believes.
func (sp *Spec) SendRead(s, t *State) model.Guard { return sp.send(s, t, false) }

// SendSync: the heartbeat sends its sync when due.
func (sp *Spec) SendSync(s, t *State) model.Guard { return sp.send(s, t, true) }

// AckReply: the reply to the oldest request arrives; the clock takes it.
func (sp *Spec) AckReply(s, t *State) model.Guard {
	switch {
	case len(s.Inflight) == 0:
		return "inflight # <<>>"
	case !sp.HBelieves(s):
		return "HBelieves"
	}
	*t = *s
	r := s.Inflight[0]
	t.Clock = sp.Clock.Acked(s.Clock, r.Sent, s.Now, r.Sync)
	t.Shadow = sp.shadowAcked(s.Shadow, r.Sent, s.Now, r.Sync)
	t.Inflight = s.Inflight[1:]
	return model.Enabled
}

// TypeOK is the spec's TypeOK.
func (sp *Spec) TypeOK(s *State) bool {
	in := timing.In
	if !in(s.Now, sp.MaxTime) || len(s.Inflight) > sp.MaxInFlight || len(s.Clock.Mem) > sp.Clock.MaxAcks ||
		!in(s.Clock.Proven, sp.MaxTime) || !in(s.LastSync, sp.MaxTime) {
		return false
	}
	for _, r := range s.Inflight {
		if !in(r.Sent, sp.MaxTime) {
			return false
		}
	}
	return true
}

// NoSpuriousLoss: a healthy session never reaches its loss deadline.
func (sp *Spec) NoSpuriousLoss(s *State) bool { return sp.HBelieves(s) }

// ProvesNoMore: the bounded clock proves no later send time than the
// unbounded rule.
func (sp *Spec) ProvesNoMore(s *State) bool { return s.Clock.Proven <= s.Shadow.Proven }

// AppendEncoding appends a canonical encoding of s to b.
func (s *State) AppendEncoding(b []byte) []byte {
	b = binary.AppendVarint(b, int64(s.Now))
	b = binary.AppendUvarint(b, uint64(len(s.Inflight)))
	for _, r := range s.Inflight {
		b = timing.AppendBool(binary.AppendVarint(b, int64(r.Sent)), r.Sync)
	}
	b = s.Clock.AppendEncoding(b)
	b = binary.AppendVarint(b, int64(s.LastSync))
	b = binary.AppendUvarint(b, uint64(len(s.Shadow.Acks)))
	for _, e := range s.Shadow.Acks {
		b = binary.AppendVarint(binary.AppendVarint(b, int64(e.Sent)), int64(e.At))
	}
	return binary.AppendVarint(b, int64(s.Shadow.Proven))
}

// TLA returns the state's variables as TLA+ values, in VARIABLES order.
func (sp *Spec) TLA(s *State) []tla.Binding {
	inflight := tla.Tuple{}
	for _, r := range s.Inflight {
		kind := "read"
		if r.Sync {
			kind = "sync"
		}
		inflight = append(inflight, tla.Record{{Name: "sent", Value: tla.Int(r.Sent)}, {Name: "kind", Value: tla.Str(kind)}})
	}
	acks := tla.Set{}
	for _, e := range s.Shadow.Acks {
		acks = append(acks, tla.Record{{Name: "sent", Value: tla.Int(e.Sent)}, {Name: "at", Value: tla.Int(e.At)}})
	}
	return []tla.Binding{
		{Name: "now", Value: tla.Int(s.Now)},
		{Name: "inflight", Value: inflight},
		{Name: "clock", Value: s.Clock.TLA()},
		{Name: "lastSync", Value: tla.Int(s.LastSync)},
		{Name: "shadow", Value: tla.Record{{Name: "acks", Value: acks}, {Name: "proven", Value: tla.Int(s.Shadow.Proven)}}},
	}
}

// Format prints s as TLC prints a state.
func (sp *Spec) Format(s *State) string { return tla.FormatState(sp.TLA(s)) }
