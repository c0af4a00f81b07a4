package main

import (
	"context"
	"fmt"
	"time"

	"github.com/zklock/zklock/checker"
	"github.com/zklock/zklock/faultinject"
)

// faultEvent is what became of one planned fault: injected (with its target
// and window) or skipped (with the reason).
type faultEvent struct {
	Index   int       `json:"index"` // in the schedule
	Kind    faultKind `json:"kind"`
	Role    string    `json:"role,omitempty"` // how the target was chosen
	Target  string    `json:"target,omitempty"`
	Start   string    `json:"start,omitempty"` // offset from the workload's start
	End     string    `json:"end,omitempty"`
	Detail  string    `json:"detail,omitempty"`
	Skipped string    `json:"skipped,omitempty"`
	Error   string    `json:"error,omitempty"`
}

// injector carries out a schedule, one fault at a time: each starts no
// earlier than planned and only after the previous one healed, so that every
// fault's effect can be told apart and the quorum is never lost to two server
// faults at once.
type injector struct {
	w       *workload
	clu     cluster
	clients []*client
	start   time.Time // the workload's start, when the schedule's offsets count from
	events  []faultEvent
}

// minGap separates a fault from the healing of the previous one.
const minGap = time.Second

// candidateWait is how long a fault waits for a target to fill its role (a
// holder, a waiter) before it is skipped.
const candidateWait = 3 * time.Second

// run injects the schedule's faults until it is done, ctx ends, or deadline
// (start + duration) passes; planned faults not reached are reported so.
func (in *injector) run(ctx context.Context, sched []plannedFault, deadline time.Time) {
	free := in.start
	for i, f := range sched {
		at := in.start.Add(f.At)
		if free.Add(minGap).After(at) {
			at = free.Add(minGap)
		}
		if at.After(deadline) || !sleepCtx(ctx, time.Until(at)) {
			for j := i; j < len(sched); j++ {
				in.events = append(in.events, faultEvent{Index: j, Kind: sched[j].Kind, Skipped: "not reached before the end"})
			}
			return
		}
		ev := in.inject(ctx, i, f)
		in.events = append(in.events, ev)
		free = time.Now()
	}
}

func (in *injector) offset(t time.Time) string { return fmtDur(t.Sub(in.start)) }

// inject carries out one fault and heals it before returning.
func (in *injector) inject(ctx context.Context, i int, f plannedFault) faultEvent {
	ev := faultEvent{Index: i, Kind: f.Kind, Role: f.Role}
	rec := in.w.rec
	mon := in.w.mon
	defer mon.setCurrent("")
	fault := func(name, target string, call, ret int64) {
		rec.Add(checker.Record{Kind: checker.KindFault, Fault: name, Target: target, Call: call, Return: ret})
		mon.faults.Add(1)
	}
	begin := time.Now()
	ev.Start = in.offset(begin)

	switch f.Kind {
	case faultKillLeader, faultKillFollower, faultPauseServer:
		s, err := in.pickServer(ctx, f)
		if err != nil {
			ev.Skipped = err.Error()
			return ev
		}
		ev.Target = serverName(s)
		mon.setCurrent(fmt.Sprintf("%s %s", f.Kind, ev.Target))
		call := rec.Now()
		if f.Kind == faultPauseServer {
			err = in.clu.Pause(ctx, s, f.Duration)
		} else {
			err = in.clu.Kill(ctx, s, f.Duration)
		}
		fault(string(f.Kind), ev.Target, call, rec.Now())
		if err != nil {
			ev.Error = err.Error()
		}
	case faultIsolateLeader, faultSplitMinority, faultBridge, faultFlap:
		plan, err := in.planLinks(ctx, f)
		if err != nil {
			ev.Skipped = err.Error()
			return ev
		}
		ev.Target = plan.target
		mon.setCurrent(fmt.Sprintf("%s %s", f.Kind, ev.Target))
		call := rec.Now()
		ev.Detail, err = in.linkFault(ctx, f, plan)
		fault(string(f.Kind), ev.Target, call, rec.Now())
		if err != nil {
			ev.Error = err.Error()
		}
	default:
		c := in.pickClient(ctx, f)
		if c == nil {
			ev.Skipped = fmt.Sprintf("no %s within %v", f.Role, candidateWait)
			return ev
		}
		ev.Target = c.name
		mon.setCurrent(fmt.Sprintf("%s %s", f.Kind, c.name))
		ev.Detail = in.clientFault(ctx, c, f, fault)
	}
	ev.End = in.offset(time.Now())
	return ev
}

// clientFault injects a fault into one client's proxies (and, for a freeze,
// its process) and heals it.
func (in *injector) clientFault(ctx context.Context, c *client, f plannedFault, fault func(string, string, int64, int64)) string {
	rec := in.w.rec
	call := rec.Now()
	switch f.Kind {
	case faultSever:
		n := c.set.Sever()
		fault(string(f.Kind), c.name, call, call)
		return fmt.Sprintf("%d connections closed", n)
	case faultBlackholeHolder, faultBlackholeWaiter:
		c.set.BlackholeUntilHealed()
		sleepCtx(ctx, f.Duration)
		c.set.Heal()
		fault(string(f.Kind), c.name, call, rec.Now())
	case faultLatency:
		c.set.Delay(f.Delay)
		sleepCtx(ctx, f.Duration)
		c.set.Delay(0)
		fault(string(f.Kind), c.name, call, rec.Now())
		return fmt.Sprintf("+%v per frame", f.Delay)
	case faultCutCreate:
		cut := c.set.CutAfterRequest(faultinject.OpCreate)
		wctx, cancel := context.WithTimeout(ctx, f.Duration)
		rep, err := cut.Wait(wctx)
		cancel()
		c.set.Heal() // disarms a cut that never met its create
		fault("cut-reply", c.name, call, rec.Now())
		if err != nil {
			return "no create came: " + err.Error()
		}
		if rep.ReplyDropped {
			return fmt.Sprintf("create executed (zxid 0x%x), reply dropped", rep.Zxid)
		}
		return "create sent, connection cut before any reply"
	case faultFreezeClient:
		// Freeze the application and silence its session for the same span.
		in.w.mon.freeze(c.name)
		c.gate.freeze()
		c.set.BlackholeUntilHealed()
		sleepCtx(ctx, f.Duration)
		c.set.Heal()
		ret := rec.Now()
		in.w.mon.thaw(c.name, ret)
		c.gate.thaw()
		fault(checker.FaultPause, c.name, call, ret)
	}
	return ""
}

// pickClient waits up to candidateWait for clients that fill the fault's role
// and picks one by the schedule's Pick, in name order. A holder is preferred
// among those with a waiter queued behind them: only then is there a next
// holder for the faulted one to overlap with.
func (in *injector) pickClient(ctx context.Context, f plannedFault) *client {
	deadline := time.Now().Add(candidateWait)
	for {
		var cands, preferred []*client
		waiting := map[string]bool{}
		for _, c := range in.clients {
			if st, p := c.snapshot(); st == stateWaiting {
				waiting[p] = true
			}
		}
		for _, c := range in.clients {
			st, p := c.snapshot()
			switch f.Role {
			case roleHolder:
				if st == stateHolding {
					cands = append(cands, c)
					if waiting[p] {
						preferred = append(preferred, c)
					}
				}
			case roleWaiter:
				if st == stateWaiting {
					cands = append(cands, c)
				}
			default:
				cands = append(cands, c)
			}
		}
		if len(preferred) > 0 {
			cands = preferred
		}
		if len(cands) > 0 {
			return cands[int(f.Pick%uint32(len(cands)))]
		}
		if time.Now().After(deadline) || !sleepCtx(ctx, 20*time.Millisecond) {
			return nil
		}
	}
}

// pickServer finds the leader, or picks a follower by the schedule's Pick.
func (in *injector) pickServer(ctx context.Context, f plannedFault) (int, error) {
	leader, followers, err := in.roles(ctx)
	if err != nil {
		return -1, fmt.Errorf("no %s found: %v", f.Role, err)
	}
	if f.Role == roleLeader {
		return leader, nil
	}
	return followers[int(f.Pick%uint32(len(followers)))], nil
}

// roles waits up to 10 s for a leader and at least one follower.
func (in *injector) roles(ctx context.Context) (int, []int, error) {
	deadline := time.Now().Add(10 * time.Second)
	for {
		rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		leader, followers, err := in.clu.Roles(rctx)
		cancel()
		if err == nil && len(followers) == 0 {
			err = fmt.Errorf("no follower")
		}
		if err == nil {
			return leader, followers, nil
		}
		if time.Now().After(deadline) || !sleepCtx(ctx, 250*time.Millisecond) {
			return -1, nil, err
		}
	}
}
