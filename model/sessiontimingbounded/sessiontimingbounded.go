// Package sessiontimingbounded is the Go mirror of
// spec/tla/SessionTimingBounded.tla: model/sessiontiming's state machine,
// wrapped so that the holder decides from a bounded model/lossclock as
// impl/zklock does. Every action is sessiontiming's; SendRequest and
// AckReply also need the holder to believe by its bounded clock, and
// AckReply feeds the clock.
package sessiontimingbounded

import (
	"github.com/zklock/zklock/model"
	"github.com/zklock/zklock/model/lossclock"
	"github.com/zklock/zklock/model/sessiontiming"
	"github.com/zklock/zklock/model/tla"
)

// Spec is SessionTiming's spec with LossClock's constants.
type Spec struct {
	ST    *sessiontiming.Spec
	Clock lossclock.Config
}

// New checks the constants (the modules' ASSUMEs).
func New(st sessiontiming.Constants, clock lossclock.Config) (*Spec, error) {
	if err := clock.Check(); err != nil {
		return nil, err
	}
	inner, err := sessiontiming.New(st)
	if err != nil {
		return nil, err
	}
	return &Spec{ST: inner, Clock: clock}, nil
}

// State is SessionTiming's state with the holder's clock.
type State struct {
	ST    sessiontiming.State
	Clock lossclock.Clock
}

// Init is the initial state.
func (sp *Spec) Init() State { return State{ST: sp.ST.Init()} }

// HBelieves: the holder believes by its bounded clock.
func (sp *Spec) HBelieves(s *State) bool {
	return s.ST.Now < s.Clock.Proven+sp.ST.Timeout-sp.ST.Drift
}

// Step applies l's action: sessiontiming's, guarded and extended as the
// module says.
func (sp *Spec) Step(s *State, l model.Label, t *State) model.Guard {
	bounded := l.Action == sessiontiming.ActSendRequest || l.Action == sessiontiming.ActAckReply
	if bounded && !sp.HBelieves(s) {
		return "HBelieves"
	}
	if g := sp.ST.Step(&s.ST, l, &t.ST); g != model.Enabled {
		return g
	}
	t.Clock = s.Clock
	if l.Action == sessiontiming.ActAckReply {
		r := s.ST.Reqs[l.Arg-1]
		t.Clock = sp.Clock.Acked(s.Clock, r.Sent, s.ST.Now, r.Kind == sessiontiming.Sync)
	}
	return model.Enabled
}

// Next emits the successors in sessiontiming's order.
func (sp *Spec) Next(s *State, emit func(model.Label, *State)) {
	var t State
	sp.ST.Next(&s.ST, func(l model.Label, _ *sessiontiming.State) {
		if sp.Step(s, l, &t) == model.Enabled {
			emit(l, &t)
		}
	})
}

// TypeOK is the spec's TypeOK.
func (sp *Spec) TypeOK(s *State) bool {
	return sp.ST.TypeOK(&s.ST) && len(s.Clock.Mem) <= sp.Clock.MaxAcks &&
		0 <= s.Clock.Proven && s.Clock.Proven <= sp.ST.MaxTime
}

// ProvesNoMore: the bounded clock proves no later send time than
// SessionTiming's synced rule over every acknowledgement.
func (sp *Spec) ProvesNoMore(s *State) bool {
	return s.Clock.Proven <= sp.ST.Deadline(&s.ST)-sp.ST.Timeout+sp.ST.Drift
}

// LossBeforeExpiry and HolderLosesFirst are SessionTiming's, on the
// bounded clock's belief.
func (sp *Spec) LossBeforeExpiry(s *State) bool { return !s.ST.Expired || !sp.HBelieves(s) }

// HolderLosesFirst: never does the contender hold while the holder believes.
func (sp *Spec) HolderLosesFirst(s *State) bool { return !s.ST.Granted || !sp.HBelieves(s) }

// AppendEncoding appends a canonical encoding of s to b.
func (s *State) AppendEncoding(b []byte) []byte {
	return s.Clock.AppendEncoding(s.ST.AppendEncoding(b))
}

// TLA returns the variables as TLA+ values, in VARIABLES order.
func (sp *Spec) TLA(s *State) []tla.Binding {
	return append(sp.ST.TLA(&s.ST), tla.Binding{Name: "clock", Value: s.Clock.TLA()})
}

// Format prints s as TLC prints a state.
func (sp *Spec) Format(s *State) string { return tla.FormatState(sp.TLA(s)) }
