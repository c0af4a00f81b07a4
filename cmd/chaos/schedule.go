package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"time"
)

// plannedFault is one entry of a campaign's fault schedule. Everything random
// about a fault is drawn when the schedule is made, from the seed; only the
// target is chosen at injection time, by role among the clients or servers
// that fill it then (Pick indexes them in name order), because who holds a
// lock at second 42 depends on timing no seed controls.
type plannedFault struct {
	At       time.Duration // not before this offset from the start of the workload
	Kind     faultKind
	Role     string        // how the target is chosen: roleHolder, roleLeader, ...
	Pick     uint32        // which of the candidates, modulo their number
	Duration time.Duration // how long the fault lasts (0: an instant)
	Delay    time.Duration // latency: added to every frame; flap: how long each cut and each heal lasts
}

// scheduleParams are the inputs a schedule depends on: the same parameters
// give the same schedule.
type scheduleParams struct {
	Seed           int64
	Kinds          []faultKind
	Duration       time.Duration // of the workload; faults are planned inside it
	Interval       time.Duration // mean gap between fault starts
	SessionTimeout time.Duration // blackholes and freezes last longer than this
}

// serverPauseMin is how long pause-server stops a server at least: past the
// local ensemble's syncLimit (5 ticks of 500 ms), so that a paused leader
// loses its followers and a paused follower is dropped by the leader.
const serverPauseMin = 3 * time.Second

// makeSchedule plans the faults of a campaign. Kinds are dealt from shuffled
// bags of every enabled kind, so a long campaign injects each kind about
// equally often; the first bag starts with a fault that targets a lease holder
// (freeze-client or blackhole-holder) when one is enabled, because those are
// the faults that decide whether a lock without a loss signal or without
// fencing gets caught, and a short campaign must not leave them to chance.
func makeSchedule(p scheduleParams) []plannedFault {
	if len(p.Kinds) == 0 || p.Duration <= 0 || p.Interval <= 0 {
		return nil
	}
	r := rand.New(rand.NewPCG(uint64(p.Seed), 0x7a6b6c6f636b)) // "zklock"
	between := func(lo, hi time.Duration) time.Duration {
		return (lo + time.Duration(r.Int64N(int64(hi-lo)+1))).Round(time.Millisecond)
	}
	T := p.SessionTimeout
	at := min(2*time.Second, p.Duration/10) // let sessions form and locks get contended first
	var out []plannedFault
	var bag []faultKind
	for first := true; at < p.Duration; first = false {
		if len(bag) == 0 {
			bag = append([]faultKind(nil), p.Kinds...)
			r.Shuffle(len(bag), func(i, j int) { bag[i], bag[j] = bag[j], bag[i] })
			if first {
				holderFirst(bag)
			}
		}
		k := bag[0]
		bag = bag[1:]
		f := plannedFault{At: at.Round(time.Millisecond), Kind: k, Role: roleAny, Pick: r.Uint32()}
		switch k {
		case faultBlackholeHolder, faultBlackholeWaiter:
			f.Role = roleHolder
			if k == faultBlackholeWaiter {
				f.Role = roleWaiter
			}
			f.Duration = between(T*13/10, T*2)
		case faultFreezeClient:
			f.Role = roleHolder
			// Long enough for the server to expire the session and the next
			// holder to be granted and to write before the frozen one wakes.
			f.Duration = between(T*3/2+time.Second, T*5/2+time.Second)
		case faultCutCreate:
			f.Duration = 5 * time.Second // how long the cut stays armed at most
		case faultKillLeader, faultKillFollower:
			f.Role = roleLeader
			if k == faultKillFollower {
				f.Role = roleFollower
			}
			f.Duration = between(500*time.Millisecond, 2500*time.Millisecond) // down time
		case faultPauseServer:
			f.Role = roleFollower
			if r.IntN(2) == 0 {
				f.Role = roleLeader
			}
			f.Duration = between(serverPauseMin, serverPauseMin*3/2)
		case faultLatency:
			f.Delay = between(20*time.Millisecond, 250*time.Millisecond)
			f.Duration = between(2*time.Second, 5*time.Second)
		case faultIsolateLeader, faultSplitMinority:
			f.Role = roleServers
			if k == faultIsolateLeader {
				f.Role = roleLeader
			}
			// Long enough for the cut-off servers to stop serving, the
			// sessions of their clients to expire on the majority and the
			// next holder to be granted while the old one may still believe.
			f.Duration = between(T*3/2+time.Second, T*5/2+time.Second)
		case faultBridge:
			f.Role = roleServers
			f.Duration = between(T, 2*T)
		case faultFlap:
			f.Role = roleLeader
			f.Delay = between(100*time.Millisecond, 500*time.Millisecond)
			f.Duration = between(2*time.Second, 5*time.Second)
		}
		out = append(out, f)
		at += between(p.Interval/2, p.Interval*3/2)
	}
	return out
}

// holderFirst moves the first holder-targeting kind of bag to its front.
func holderFirst(bag []faultKind) {
	for i, k := range bag {
		if k == faultFreezeClient || k == faultBlackholeHolder {
			bag[0], bag[i] = bag[i], bag[0]
			return
		}
	}
}

// String renders a planned fault on one line, as the schedule is printed.
func (f plannedFault) String() string {
	s := fmt.Sprintf("%8s  %-16s %-8s pick %-10d", fmtDur(f.At), f.Kind, f.Role, f.Pick)
	if f.Duration > 0 {
		s += " for " + fmtDur(f.Duration)
	}
	switch {
	case f.Kind == faultFlap:
		s += " cut/heal every " + fmtDur(f.Delay)
	case f.Delay > 0:
		s += " +" + fmtDur(f.Delay) + "/frame"
	}
	return s
}

// plannedFaultJSON is a plannedFault in report.json: durations as Go
// duration strings, for people to read.
type plannedFaultJSON struct {
	At       string    `json:"at"`
	Kind     faultKind `json:"kind"`
	Role     string    `json:"role"`
	Pick     uint32    `json:"pick"`
	Duration string    `json:"duration,omitempty"`
	Delay    string    `json:"delay,omitempty"`
}

// MarshalJSON writes the fault as plannedFaultJSON.
func (f plannedFault) MarshalJSON() ([]byte, error) {
	v := plannedFaultJSON{At: f.At.String(), Kind: f.Kind, Role: f.Role, Pick: f.Pick}
	if f.Duration > 0 {
		v.Duration = f.Duration.String()
	}
	if f.Delay > 0 {
		v.Delay = f.Delay.String()
	}
	return json.Marshal(v)
}

// UnmarshalJSON reads what MarshalJSON wrote.
func (f *plannedFault) UnmarshalJSON(b []byte) error {
	var v plannedFaultJSON
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*f = plannedFault{Kind: v.Kind, Role: v.Role, Pick: v.Pick}
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

func printSchedule(w io.Writer, seed int64, s []plannedFault) {
	fmt.Fprintf(w, "fault schedule (seed %d, %d faults; each starts no earlier than planned and after the previous one healed):\n", seed, len(s))
	for i, f := range s {
		fmt.Fprintf(w, "  %3d %s\n", i, f)
	}
}

// fmtDur rounds a duration for display.
func fmtDur(d time.Duration) string {
	switch {
	case d >= time.Minute:
		return d.Round(time.Second).String()
	case d >= time.Second:
		return d.Round(10 * time.Millisecond).String()
	default:
		return d.Round(time.Millisecond).String()
	}
}
