package nemesis

import (
	"context"
	"fmt"
	"time"

	"github.com/zklock/zklock/checker"
	"github.com/zklock/zklock/cmd/chaos/internal/schedule"
	"github.com/zklock/zklock/cmd/chaos/internal/workload"
	"github.com/zklock/zklock/ensemble"
	"github.com/zklock/zklock/faultinject"
)

// Event is what became of one planned fault: injected (with its target
// and window) or skipped (with the reason).
type Event struct {
	Index  int           `json:"index"` // in the schedule
	Kind   schedule.Kind `json:"kind"`
	Role   string        `json:"role,omitempty"` // how the target was chosen
	Target string        `json:"target,omitempty"`
	Start  string        `json:"start,omitempty"` // offset from the workload's start
	End    string        `json:"end,omitempty"`
	Detail string        `json:"detail,omitempty"`
	// Attempts are what an intruder fault tried and what the server said.
	Attempts []Attempt `json:"attempts,omitempty"`
	Skipped  string    `json:"skipped,omitempty"`
	Error    string    `json:"error,omitempty"`
}

// Injector carries out a schedule, one fault at a time: each starts no
// earlier than planned and only after the previous one healed, so that every
// fault's effect can be told apart and the quorum is never lost to two server
// faults at once.
type Injector struct {
	w       *workload.Workload
	clu     Cluster
	clients []*workload.Client
	start   time.Time // the workload's start, when the schedule's offsets count from
	events  []Event
	// backup is what restore faults go back to: taken by the first, at
	// backupAt.
	backup   *ensemble.Backup
	backupAt time.Time
}

// NewInjector returns the injector of w's faults on clu and clients; start
// is the workload's start, when the schedule's offsets count from.
func NewInjector(w *workload.Workload, clu Cluster, clients []*workload.Client, start time.Time) *Injector {
	return &Injector{w: w, clu: clu, clients: clients, start: start}
}

// minGap separates a fault from the healing of the previous one.
const minGap = time.Second

// candidateWait is how long a fault waits for a target to fill its role (a
// holder, a waiter) before it is skipped.
const candidateWait = 3 * time.Second

// Run injects the schedule's faults until it is done, ctx ends, or deadline
// (start + duration) passes, and returns what became of each; planned faults
// not reached are reported so.
func (in *Injector) Run(ctx context.Context, sched []schedule.Fault, deadline time.Time) []Event {
	free := in.start
	for i, f := range sched {
		at := in.start.Add(f.At)
		if free.Add(minGap).After(at) {
			at = free.Add(minGap)
		}
		if at.After(deadline) || !Sleep(ctx, time.Until(at)) {
			for j := i; j < len(sched); j++ {
				in.events = append(in.events, Event{Index: j, Kind: sched[j].Kind, Skipped: "not reached before the end"})
			}
			return in.events
		}
		ev := in.inject(ctx, i, f)
		in.events = append(in.events, ev)
		free = time.Now()
	}
	return in.events
}

func (in *Injector) offset(t time.Time) string { return schedule.FmtDur(t.Sub(in.start)) }

// inject carries out one fault and heals it before returning.
func (in *Injector) inject(ctx context.Context, i int, f schedule.Fault) Event {
	ev := Event{Index: i, Kind: f.Kind, Role: f.Role}
	rec := in.w.Rec
	mon := in.w.Mon
	defer mon.SetCurrent("")
	fault := func(name, target string, call, ret int64) {
		rec.Add(checker.Record{Kind: checker.KindFault, Fault: name, Target: target, Call: call, Return: ret})
		mon.Faults.Add(1)
	}
	begin := time.Now()
	ev.Start = in.offset(begin)

	switch f.Kind {
	case schedule.KillLeader, schedule.KillFollower, schedule.PauseServer:
		s, err := in.pickServer(ctx, f)
		if err != nil {
			ev.Skipped = err.Error()
			return ev
		}
		ev.Target = serverName(s)
		mon.SetCurrent(fmt.Sprintf("%s %s", f.Kind, ev.Target))
		call := rec.Now()
		if f.Kind == schedule.PauseServer {
			err = in.clu.Pause(ctx, s, f.Duration)
		} else {
			err = in.clu.Kill(ctx, s, f.Duration)
		}
		fault(string(f.Kind), ev.Target, call, rec.Now())
		if err != nil {
			ev.Error = err.Error()
		}
	case schedule.IsolateLeader, schedule.SplitMinority, schedule.IsolateHolder, schedule.Bridge, schedule.Flap:
		plan, err := in.planLinks(ctx, f)
		if err != nil {
			ev.Skipped = err.Error()
			return ev
		}
		ev.Target = plan.target
		mon.SetCurrent(fmt.Sprintf("%s %s", f.Kind, ev.Target))
		call := rec.Now()
		ev.Detail, err = in.linkFault(ctx, f, plan)
		fault(string(f.Kind), ev.Target, call, rec.Now())
		if err != nil {
			ev.Error = err.Error()
		}
	case schedule.Intruder:
		if in.intrude(ctx, f, &ev, fault); ev.Skipped != "" {
			return ev
		}
	case schedule.OperatorDelete, schedule.OperatorReplace, schedule.Wipe, schedule.Restore:
		if in.operator(ctx, f, &ev, fault); ev.Skipped != "" {
			return ev
		}
	default:
		c := in.pickClient(ctx, f)
		if c == nil {
			ev.Skipped = fmt.Sprintf("no %s within %v", f.Role, candidateWait)
			return ev
		}
		ev.Target = c.Name()
		mon.SetCurrent(fmt.Sprintf("%s %s", f.Kind, c.Name()))
		ev.Detail = in.clientFault(ctx, c, f, fault)
	}
	ev.End = in.offset(time.Now())
	return ev
}

// clientFault injects a fault into one client's proxies (and, for a freeze,
// its process) and heals it.
func (in *Injector) clientFault(ctx context.Context, c *workload.Client, f schedule.Fault, fault func(string, string, int64, int64)) string {
	rec := in.w.Rec
	call := rec.Now()
	switch f.Kind {
	case schedule.Sever:
		n := c.Set().Sever()
		fault(string(f.Kind), c.Name(), call, call)
		return fmt.Sprintf("%d connections closed", n)
	case schedule.BlackholeHolder, schedule.BlackholeWaiter:
		c.Set().BlackholeUntilHealed()
		Sleep(ctx, f.Duration)
		c.Set().Heal()
		fault(string(f.Kind), c.Name(), call, rec.Now())
	case schedule.Latency:
		c.Set().Delay(f.Delay)
		Sleep(ctx, f.Duration)
		c.Set().Delay(0)
		fault(string(f.Kind), c.Name(), call, rec.Now())
		return fmt.Sprintf("+%v per frame", f.Delay)
	case schedule.CutCreate:
		// zklock creates its lock node with create2, zk.Lock with create.
		cut := c.Set().CutAfterRequest(faultinject.OpCreate, faultinject.OpCreate2)
		wctx, cancel := context.WithTimeout(ctx, f.Duration)
		rep, err := cut.Wait(wctx)
		cancel()
		c.Set().Heal() // disarms a cut that never met its create
		fault("cut-reply", c.Name(), call, rec.Now())
		if err != nil {
			return "no create came: " + err.Error()
		}
		if rep.ReplyDropped {
			return fmt.Sprintf("create executed (zxid 0x%x), reply dropped", rep.Zxid)
		}
		return "create sent, connection cut before any reply"
	case schedule.FreezeClient:
		// Freeze the application and silence its session for the same span.
		in.w.Mon.Freeze(c.Name())
		c.Freeze()
		c.Set().BlackholeUntilHealed()
		Sleep(ctx, f.Duration)
		c.Set().Heal()
		ret := rec.Now()
		in.w.Mon.Thaw(c.Name(), ret)
		c.Thaw()
		fault(checker.FaultPause, c.Name(), call, ret)
	}
	return ""
}

// pickClient waits up to candidateWait for clients that fill the fault's role
// and picks one by the schedule's Pick, in name order.
func (in *Injector) pickClient(ctx context.Context, f schedule.Fault) *workload.Client {
	deadline := time.Now().Add(candidateWait)
	for {
		if cands := in.candidates(f); len(cands) > 0 {
			return cands[int(f.Pick%uint32(len(cands)))]
		}
		if time.Now().After(deadline) || !Sleep(ctx, 20*time.Millisecond) {
			return nil
		}
	}
}

// candidates lists the clients that fill the fault's role now, in name
// order. A holder is preferred among those with a waiter queued behind them:
// only then is there a next holder for the faulted one to overlap with.
func (in *Injector) candidates(f schedule.Fault) []*workload.Client {
	var cands, preferred []*workload.Client
	waiting := map[string]bool{}
	for _, c := range in.clients {
		if st, p := c.Snapshot(); st == workload.StateWaiting {
			waiting[p] = true
		}
	}
	for _, c := range in.clients {
		st, p := c.Snapshot()
		switch f.Role {
		case schedule.RoleHolder:
			if st == workload.StateHolding {
				cands = append(cands, c)
				if waiting[p] {
					preferred = append(preferred, c)
				}
			}
		case schedule.RoleWaiter:
			if st == workload.StateWaiting {
				cands = append(cands, c)
			}
		default:
			cands = append(cands, c)
		}
	}
	if len(preferred) > 0 {
		return preferred
	}
	return cands
}

// pickServer finds the leader, or picks a follower by the schedule's Pick.
func (in *Injector) pickServer(ctx context.Context, f schedule.Fault) (int, error) {
	leader, followers, err := in.roles(ctx)
	if err != nil {
		return -1, fmt.Errorf("no %s found: %v", f.Role, err)
	}
	if f.Role == schedule.RoleLeader {
		return leader, nil
	}
	return followers[int(f.Pick%uint32(len(followers)))], nil
}

// roles waits up to 10 s for a leader and at least one follower.
func (in *Injector) roles(ctx context.Context) (int, []int, error) {
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
		if time.Now().After(deadline) || !Sleep(ctx, 250*time.Millisecond) {
			return -1, nil, err
		}
	}
}
