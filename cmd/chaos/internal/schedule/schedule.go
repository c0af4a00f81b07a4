// Package schedule plans a campaign's faults before it starts: the kinds of
// fault there are, and a schedule drawn from a seed of when each is injected,
// how long it lasts and by which role its target is chosen. The same
// parameters give the same schedule; package nemesis carries it out.
package schedule

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"time"
)

// Fault is one entry of a campaign's fault schedule. Everything random
// about a fault is drawn when the schedule is made, from the seed; only the
// target is chosen at injection time, by role among the clients or servers
// that fill it then (Pick indexes them in name order), because who holds a
// lock at second 42 depends on timing no seed controls.
type Fault struct {
	At       time.Duration // not before this offset from the start of the workload
	Kind     Kind
	Role     string        // how the target is chosen: RoleHolder, RoleLeader, ...
	Pick     uint32        // which of the candidates, modulo their number
	Duration time.Duration // how long the fault lasts (0: an instant)
	Delay    time.Duration // latency: added to every frame; flap: how long each cut and each heal lasts
}

// Params are the inputs a schedule depends on: the same parameters
// give the same schedule.
type Params struct {
	Seed           int64
	Kinds          []Kind
	Duration       time.Duration // of the workload; faults are planned inside it
	Interval       time.Duration // mean gap between fault starts
	SessionTimeout time.Duration // blackholes and freezes last longer than this
}

// ServerPauseMin is how long pause-server stops a server at least: past the
// local ensemble's syncLimit (5 ticks of 500 ms), so that a paused leader
// loses its followers and a paused follower is dropped by the leader.
const ServerPauseMin = 3 * time.Second

// Make plans the faults of a campaign. Kinds are dealt from shuffled
// bags of every enabled kind, so a long campaign injects each kind about
// equally often; the first bag starts with a fault that targets a lease holder
// (freeze-client or blackhole-holder) when one is enabled, because those are
// the faults that decide whether a lock without a loss signal or without
// fencing gets caught, and a short campaign must not leave them to chance.
func Make(p Params) []Fault {
	if len(p.Kinds) == 0 || p.Duration <= 0 || p.Interval <= 0 {
		return nil
	}
	r := rand.New(rand.NewPCG(uint64(p.Seed), 0x7a6b6c6f636b)) // "zklock"
	between := func(lo, hi time.Duration) time.Duration {
		return (lo + time.Duration(r.Int64N(int64(hi-lo)+1))).Round(time.Millisecond)
	}
	T := p.SessionTimeout
	at := min(2*time.Second, p.Duration/10) // let sessions form and locks get contended first
	var out []Fault
	var bag []Kind
	for first := true; at < p.Duration; first = false {
		if len(bag) == 0 {
			bag = append([]Kind(nil), p.Kinds...)
			r.Shuffle(len(bag), func(i, j int) { bag[i], bag[j] = bag[j], bag[i] })
			if first {
				holderFirst(bag)
			}
		}
		k := bag[0]
		bag = bag[1:]
		f := Fault{At: at.Round(time.Millisecond), Kind: k, Role: RoleAny, Pick: r.Uint32()}
		switch k {
		case BlackholeHolder, BlackholeWaiter:
			f.Role = RoleHolder
			if k == BlackholeWaiter {
				f.Role = RoleWaiter
			}
			f.Duration = between(T*13/10, T*2)
		case FreezeClient:
			f.Role = RoleHolder
			// Long enough for the server to expire the session and the next
			// holder to be granted and to write before the frozen one wakes.
			f.Duration = between(T*3/2+time.Second, T*5/2+time.Second)
		case CutCreate:
			f.Duration = 5 * time.Second // how long the cut stays armed at most
		case KillLeader, KillFollower:
			f.Role = RoleLeader
			if k == KillFollower {
				f.Role = RoleFollower
			}
			f.Duration = between(500*time.Millisecond, 2500*time.Millisecond) // down time
		case PauseServer:
			f.Role = RoleFollower
			if r.IntN(2) == 0 {
				f.Role = RoleLeader
			}
			f.Duration = between(ServerPauseMin, ServerPauseMin*3/2)
		case Latency:
			f.Delay = between(20*time.Millisecond, 250*time.Millisecond)
			f.Duration = between(2*time.Second, 5*time.Second)
		case IsolateLeader, SplitMinority, IsolateHolder:
			f.Role = RoleServers
			switch k {
			case IsolateLeader:
				f.Role = RoleLeader
			case IsolateHolder:
				f.Role = RoleHolder
			}
			// Long enough for the cut-off servers to stop serving, the
			// sessions of their clients to expire on the majority and the
			// next holder to be granted while the old one may still believe.
			f.Duration = between(T*3/2+time.Second, T*5/2+time.Second)
		case Bridge:
			f.Role = RoleServers
			f.Duration = between(T, 2*T)
		case Intruder, OperatorDelete, OperatorReplace:
			f.Role = RoleHolder // an instant: every attempt is made at once
		case Wipe:
			f.Role = RoleServers
		case Flap:
			f.Role = RoleLeader
			f.Delay = between(100*time.Millisecond, 500*time.Millisecond)
			f.Duration = between(2*time.Second, 5*time.Second)
		}
		out = append(out, f)
		at += between(p.Interval/2, p.Interval*3/2)
	}
	return out
}

// WrongCredentials says whether an intruder fault authenticates with wrong
// credentials (Pick's top bit set) rather than with none; the low bits pick
// its target.
func (f Fault) WrongCredentials() bool { return f.Pick&(1<<31) != 0 }

// holderFirst moves the first holder-targeting kind of bag to its front.
func holderFirst(bag []Kind) {
	for i, k := range bag {
		if k == FreezeClient || k == BlackholeHolder {
			bag[0], bag[i] = bag[i], bag[0]
			return
		}
	}
}

// String renders a planned fault on one line, as the schedule is printed.
func (f Fault) String() string {
	s := fmt.Sprintf("%8s  %-16s %-8s pick %-10d", FmtDur(f.At), f.Kind, f.Role, f.Pick)
	if f.Duration > 0 {
		s += " for " + FmtDur(f.Duration)
	}
	switch {
	case f.Kind == Flap:
		s += " cut/heal every " + FmtDur(f.Delay)
	case f.Delay > 0:
		s += " +" + FmtDur(f.Delay) + "/frame"
	}
	return s
}

// faultJSON is a Fault in report.json: durations as Go
// duration strings, for people to read.
type faultJSON struct {
	At       string `json:"at"`
	Kind     Kind   `json:"kind"`
	Role     string `json:"role"`
	Pick     uint32 `json:"pick"`
	Duration string `json:"duration,omitempty"`
	Delay    string `json:"delay,omitempty"`
}

// MarshalJSON writes the fault as faultJSON.
func (f Fault) MarshalJSON() ([]byte, error) {
	v := faultJSON{At: f.At.String(), Kind: f.Kind, Role: f.Role, Pick: f.Pick}
	if f.Duration > 0 {
		v.Duration = f.Duration.String()
	}
	if f.Delay > 0 {
		v.Delay = f.Delay.String()
	}
	return json.Marshal(v)
}

// UnmarshalJSON reads what MarshalJSON wrote.
func (f *Fault) UnmarshalJSON(b []byte) error {
	var v faultJSON
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*f = Fault{Kind: v.Kind, Role: v.Role, Pick: v.Pick}
	for _, d := range []struct {
		s   string
		dst *time.Duration
	}{{v.At, &f.At}, {v.Duration, &f.Duration}, {v.Delay, &f.Delay}} {
		if d.s == "" {
			continue
		}
		var err error
		if *d.dst, err = time.ParseDuration(d.s); err != nil {
			return err
		}
	}
	return nil
}

// Print writes the schedule, one fault a line, as a campaign shows it before
// it starts.
func Print(w io.Writer, seed int64, s []Fault) {
	fmt.Fprintf(w, "fault schedule (seed %d, %d faults; each starts no earlier than planned and after the previous one healed):\n", seed, len(s))
	for i, f := range s {
		fmt.Fprintf(w, "  %3d %s\n", i, f)
	}
}

// FmtDur rounds a duration for display: to the second from a minute up, to
// 10 ms from a second up, else to the millisecond.
func FmtDur(d time.Duration) string {
	switch {
	case d >= time.Minute:
		return d.Round(time.Second).String()
	case d >= time.Second:
		return d.Round(10 * time.Millisecond).String()
	default:
		return d.Round(time.Millisecond).String()
	}
}
