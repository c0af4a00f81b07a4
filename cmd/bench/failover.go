package main

import (
	"context"
	"fmt"
	"time"

	"github.com/zklock/zklock/faultinject"
	"github.com/zklock/zklock/impl/zklock"
	"github.com/zklock/zklock/traceevent"
)

// Failover: how long an election takes to hand leadership from one
// candidate to the next, and to tell every observer. Each round, candidate
// A leads, candidate B waits with its watch armed (in the standby kind a
// third candidate waits behind B, as in an election whose candidates all
// stay queued), and cfg.observers sessions observe; then A's tenure ends the kind's way, and the round
// measures from that moment to B's Campaign returning (led) and to the
// last observer reporting B (observed). After each round, one floor
// hand-off (a raw delete of a node another session watches, to its
// notification) is sampled on the same ensemble, so that each round has a
// floor measured moments from it.
const (
	kindFailResign = "failover-resign" // A calls Resign
	kindFailClose  = "failover-close"  // A's session is closed: a crash with a clean disconnect
	kindFailExpire = "failover-expire" // A's connection goes silent: the servers expire its session
	// kindFailStandby: A calls Resign while B and a standby behind B wait;
	// A campaigns again after the round, so the queue stays three deep and
	// an observer that listed it knows B before A goes (Observe's
	// ObserveNext).
	kindFailStandby = "failover-standby"
)

// failoverKinds in the order the report shows them.
var failoverKinds = []string{kindFailResign, kindFailStandby, kindFailClose, kindFailExpire}

// candidate is one session that campaigns.
type candidate struct {
	s     *zklock.Session
	net   *faultinject.Set // expiry only: the proxies its connection goes through
	e     *zklock.Election
	armed chan struct{} // its Campaign set its watch on the leader's node
	res   chan campaignResult
}

type campaignResult struct {
	lead *zklock.Leadership
	at   time.Time
	err  error
}

// obsReport is one observer's report, stamped when it came.
type obsReport struct {
	id   int
	info zklock.LeaderInfo
	at   time.Time
}

// failoverRig is one failover run's sessions.
type failoverRig struct {
	cfg     config
	kind    string
	path    string // the election
	floor   *floorProbe
	obs     []*zklock.Session
	reports chan obsReport
	stop    chan struct{} // ends the observers' forwarding
	leader  *candidate
	lead    *zklock.Leadership
	spare   *candidate   // after a Resign, the old leader campaigns again
	queue   []*candidate // candidates waiting in line, their watches armed
}

// failover runs warmup unmeasured rounds and then rounds measured ones of
// kind on the election at path, its floor node beside it.
func failover(ctx context.Context, cfg config, kind, path string, rounds, warmup int) (run, error) {
	r := &failoverRig{cfg: cfg, kind: kind, path: path,
		reports: make(chan obsReport, 64*max(1, cfg.observers)), stop: make(chan struct{})}
	defer r.close()
	var err error
	if r.floor, err = newFloorProbe(ctx, cfg, path+"-floor"); err != nil {
		return run{}, err
	}
	if err := r.observe(ctx); err != nil {
		return run{}, err
	}
	if err := r.first(ctx); err != nil {
		return run{}, err
	}
	out := run{Impl: implZklock, Kind: kind, Clients: cfg.observers}
	start := time.Now()
	for i := range warmup + rounds {
		if i == warmup {
			start = time.Now()
		}
		timeout := r.leader.s.Timeout()
		led, observed, err := r.round(ctx)
		if err != nil {
			return run{}, fmt.Errorf("%s round %d: %w", kind, i+1, err)
		}
		floor, err := r.floor.sample(ctx)
		if err != nil {
			return run{}, err
		}
		if kind == kindFailExpire {
			if err := r.reseat(ctx); err != nil {
				return run{}, fmt.Errorf("%s round %d: %w", kind, i+1, err)
			}
		}
		if i >= warmup {
			out.Latency = append(out.Latency, led)
			out.Observed = append(out.Observed, observed)
			out.Floor = append(out.Floor, floor)
			out.Timeout = timeout
		}
	}
	out.Ops = int64(rounds)
	out.Elapsed = time.Since(start)
	return out, nil
}

// observe starts the observers, each on its own session, forwarding every
// report with the time it came.
func (r *failoverRig) observe(ctx context.Context) error {
	for id := range r.cfg.observers {
		s, err := zklockSession(ctx, r.cfg, r.cfg.servers, r.cfg.sessionTimeout)
		if err != nil {
			return err
		}
		r.obs = append(r.obs, s)
		e, err := zklock.NewElection(s, r.path)
		if err != nil {
			return err
		}
		// Ended by closing the session (close), not by ctx.
		o, err := e.Observe(context.WithoutCancel(ctx))
		if err != nil {
			return err
		}
		go func() {
			for info := range o.Leaders() {
				select {
				case r.reports <- obsReport{id: id, info: info, at: time.Now()}:
				case <-r.stop:
					return
				}
			}
		}()
	}
	return nil
}

// first makes the first leader and waits for every observer to report it.
func (r *failoverRig) first(ctx context.Context) error {
	c, err := r.dialCandidate(ctx, r.kind == kindFailExpire)
	if err != nil {
		return err
	}
	c.campaign(ctx)
	res := <-c.res
	if res.err != nil {
		c.close()
		return fmt.Errorf("first leader: %w", res.err)
	}
	r.leader, r.lead = c, res.lead
	_, err = r.waitObserved(ctx, res.lead.Epoch(), time.Now())
	return err
}

// reseat gives the lead back to a silenceable candidate after an expiry
// round, untimed: the new leader, on an ordinary session, resigns, and a
// fresh silenceable candidate campaigns and leads.
func (r *failoverRig) reseat(ctx context.Context) error {
	if err := r.lead.Resign(ctx); err != nil {
		return fmt.Errorf("reseat: %w", err)
	}
	r.leader.close()
	r.leader, r.lead = nil, nil
	return r.first(ctx)
}

// round queues the next candidate, ends the leader's tenure and times the
// hand-over: led to the next Campaign's return, observed to the last
// observer's report of it.
func (r *failoverRig) round(run context.Context) (led, observed time.Duration, err error) {
	ctx, cancel := context.WithTimeout(run, 30*time.Second+3*r.leader.s.Timeout())
	defer cancel()
	if err := r.fill(run, ctx); err != nil {
		return 0, 0, err
	}
	next := r.queue[0]
	r.queue = r.queue[1:]
	t0, err := r.end(ctx)
	if err != nil {
		next.close()
		return 0, 0, err
	}
	var res campaignResult
	select {
	case res = <-next.res:
	case <-ctx.Done():
		next.close()
		return 0, 0, fmt.Errorf("the next candidate never led: %w", ctx.Err())
	}
	if res.err != nil {
		next.close()
		return 0, 0, fmt.Errorf("the next candidate: %w", res.err)
	}
	old := r.leader
	r.leader, r.lead = next, res.lead
	if r.kind == kindFailResign || r.kind == kindFailStandby {
		r.spare = old
	} else {
		old.close()
	}
	observed, err = r.waitObserved(ctx, res.lead.Epoch(), t0)
	return res.at.Sub(t0), observed, err
}

// fill queues candidates behind the leader, the spare first, each until
// its watch is armed: one, or two in the standby kind. They campaign in
// run, the whole run's context: a standby waits through more than one
// round (ctx, this round's).
func (r *failoverRig) fill(run, ctx context.Context) error {
	want := 1
	if r.kind == kindFailStandby {
		want = 2
	}
	for len(r.queue) < want {
		c := r.spare
		r.spare = nil
		if c == nil {
			var err error
			if c, err = r.dialCandidate(ctx, false); err != nil {
				return err
			}
		}
		c.campaign(run)
		select {
		case <-c.armed:
		case res := <-c.res:
			c.close()
			return fmt.Errorf("a waiting candidate led before the leader left (%v)", res.err)
		case <-ctx.Done():
			c.close()
			return fmt.Errorf("a waiting candidate never queued: %w", ctx.Err())
		}
		r.queue = append(r.queue, c)
	}
	return nil
}

// end ends the leader's tenure the kind's way and returns when it began.
func (r *failoverRig) end(ctx context.Context) (time.Time, error) {
	t0 := time.Now()
	switch r.kind {
	case kindFailResign, kindFailStandby:
		if err := r.lead.Resign(ctx); err != nil {
			return t0, fmt.Errorf("resign: %w", err)
		}
	case kindFailClose:
		if err := r.leader.s.Close(); err != nil {
			return t0, fmt.Errorf("close: %w", err)
		}
	case kindFailExpire:
		// Nothing reaches the servers any more, not even a close: they
		// expire the session once its timeout passes without a heartbeat.
		r.leader.net.BlackholeUntilHealed()
	default:
		return t0, fmt.Errorf("unknown failover kind %q", r.kind)
	}
	return t0, nil
}

// waitObserved waits until every observer has reported the leader of
// epoch, and returns the time from since to the last of those reports.
func (r *failoverRig) waitObserved(ctx context.Context, epoch int64, since time.Time) (time.Duration, error) {
	seen := make([]bool, r.cfg.observers)
	var last time.Time
	for n := 0; n < len(seen); {
		select {
		case rep := <-r.reports:
			// Earlier leaders, or a vacancy, are not what is waited for.
			if rep.info.Epoch == epoch && !seen[rep.id] {
				seen[rep.id] = true
				n++
				if rep.at.After(last) {
					last = rep.at
				}
			}
		case <-ctx.Done():
			return 0, fmt.Errorf("observers did not all report epoch %d: %w", epoch, ctx.Err())
		}
	}
	return last.Sub(since), nil
}

// dialCandidate opens a candidate's session. A silenceable one (the
// leader of an expiry round) goes through proxies of its own, so that its
// connection alone can go silent, with the session timeout
// cfg.expireTimeout, so that a round waits for a short expiry, not the
// run's usual timeout. Only the leader has it: a short session has little
// room above the sync lag, and a loaded machine can make zklock's loss rule
// give one up while it waits.
func (r *failoverRig) dialCandidate(ctx context.Context, silenceable bool) (*candidate, error) {
	c := &candidate{armed: make(chan struct{}, 1)}
	servers, timeout := r.cfg.servers, r.cfg.sessionTimeout
	if silenceable {
		set, err := faultinject.NewSet(r.cfg.servers)
		if err != nil {
			return nil, err
		}
		c.net, servers, timeout = set, set.Addrs(), r.cfg.expireTimeout
	}
	// The waiting candidate's trace tells when its watch on the leader's
	// node is set: a round that ended the leader's tenure before would
	// time a listing that finds it gone, not a notification.
	armed := zklock.WithTracer(func(ev zklock.TraceEvent) {
		if ev.Action == traceevent.WatchPredecessor && ev.Result == traceevent.ResultExists {
			select {
			case c.armed <- struct{}{}:
			default:
			}
		}
	})
	s, err := zklockSession(ctx, r.cfg, servers, timeout, armed)
	if err != nil {
		c.close()
		return nil, err
	}
	c.s = s
	if c.e, err = zklock.NewElection(s, r.path); err != nil {
		c.close()
		return nil, err
	}
	return c, nil
}

// campaign starts the candidate's Campaign; its result comes on c.res.
func (c *candidate) campaign(ctx context.Context) {
	select {
	case <-c.armed: // left from its last campaign
	default:
	}
	c.res = make(chan campaignResult, 1)
	go func() {
		l, err := c.e.Campaign(ctx, []byte(fmt.Sprintf("session %x", c.s.ID())))
		c.res <- campaignResult{lead: l, at: time.Now(), err: err}
	}()
}

// close ends the candidate's session, healing its proxies first so that
// the close reaches the servers (or learns the session expired).
func (c *candidate) close() {
	if c.net != nil {
		c.net.Heal()
	}
	if c.s != nil {
		c.s.Close() // ErrClosed if its round closed it: nothing left to do
	}
	if c.net != nil {
		c.net.Close()
	}
}

func (r *failoverRig) close() {
	close(r.stop)
	if r.leader != nil {
		r.leader.close()
	}
	if r.spare != nil {
		r.spare.close()
	}
	for _, c := range r.queue {
		c.close()
	}
	for _, s := range r.obs {
		s.Close()
	}
	if r.floor != nil {
		r.floor.close()
	}
}
