package zklock

import (
	"context"
	"fmt"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/zklock/zklock/traceevent"
)

// contender is one acquisition: one uuid, and at most one node.
type contender struct {
	l    *lockCore
	kind Mode
	uuid string

	name      string                        // our node, once known
	stat      *zk.Stat                      // our node's stat, once read: the token is its czxid
	prefetch  <-chan result[*zk.Stat]       // a stat read started early
	inflight  <-chan result[string]         // a create whose reply we stopped waiting for
	sentAt    time.Time                     // when that create was sent
	listed    mark                          // where the last listing started
	pipe      <-chan result[listing]        // a listing sent right behind our create
	leasePipe <-chan result[watchedListing] // a semaphore's: the leases listed with a watch, right behind our create
	pipeAt    mark                          // where it started
	pzxid     int64                         // the lock path's pzxid the last listing saw
	deleted   string                        // the node removeOwnNodes deleted, if one
	own       <-chan zk.Event               // a watch on our own node, while we may take the hand-off
	pred      *armedWatch                   // the watch on the node we wait for, while it has not fired
	ownAt     uint64                        // the session's attach count when own was armed
	ambiguous bool                          // a create may have happened that we never saw
	// ahead is the number of contenders ahead of ours at the first listing
	// that showed our node, -1 before it: once it is set, we are queued
	// and later listings are urgent (listings.go).
	ahead int
	// begun is when the acquisition began: its node was created later, so
	// a token handed out before then is below its own in one history
	// (rewind.go).
	begun time.Time
}

// armedWatch is a watch set on a node of the queue whose event has not
// been taken yet: a re-listing that chooses the same node to wait for
// reuses it instead of setting another.
type armedWatch struct {
	name string
	ch   <-chan zk.Event
}

// trace reports a step of the acquisition: its lock, request, kind and
// node are filled in.
func (c *contender) trace(ev TraceEvent) { c.traceWrite(ev, "") }

// step reports a read of the acquisition sent at sent: the trace takes
// its start and the least zxid it was served at from the same mark.
func (c *contender) step(a traceevent.Action, target string, r traceevent.Result, sent mark) {
	c.trace(TraceEvent{Action: a, Target: target, Result: r, Start: sent.at, ZxidLow: sent.zxid})
}

// traceWrite reports a step of the acquisition whose write named path
// (see Session.traceWrite).
func (c *contender) traceWrite(ev TraceEvent, path string) {
	if c.l.s.cfg.tracer == nil {
		return
	}
	ev.Lock, ev.Request, ev.Kind = c.l.path, c.uuid, c.kind.String()
	if c.l.sem != "" {
		ev.Lock, ev.Kind, ev.Action = c.l.sem, "", semaphoreAction(ev.Action)
	}
	if ev.Node == "" {
		ev.Node = c.name
	}
	c.l.s.traceWrite(ev, path)
}

func (c *contender) run(ctx context.Context, try bool) (*Lease, error) {
	if err := c.create(ctx); err != nil {
		return nil, err
	}
	for {
		q, me, err := c.list(ctx)
		if err != nil {
			return nil, err
		}
		if me < 0 {
			c.traceList(traceevent.ResultMissing, "", q)
			c.name = ""
			if serr := c.l.s.Err(); serr != nil {
				return nil, serr
			}
			return nil, fmt.Errorf("%w: our node was deleted while we waited", ErrLockLost)
		}
		grant, wait := decide(q, me, c.kind)
		if grant {
			c.traceList(traceevent.ResultGrant, "", q)
			return c.grant(ctx)
		}
		c.traceList(traceevent.ResultWait, wait.name, q)
		if try {
			return nil, ErrLocked
		}
		last := handOff(q, me, c.kind)
		second := twoAhead(q, me, c.kind)
		var ownArmed <-chan result[bool]
		if last {
			ownArmed = c.watchOwn()
		}
		fired, secondFired, err := c.watchBoth(ctx, wait.name, second)
		if err == nil && ownArmed != nil {
			last, err = await(ctx, c.l.s, ownArmed)
		}
		if err != nil {
			return nil, err
		}
		if fired == nil {
			continue
		}
		select {
		case ev := <-fired:
			c.pred = nil // spent
			// The deletion of the only node that blocked us is our grant:
			// no listing (one round trip) after the notification. Any
			// other wake-up (a data change, a watch removed, a session
			// event) lists again. The event is the one of the node we wait
			// for (its own channel), never an older watch's.
			if ev.Type == zk.EventNodeDeleted && last && c.ownIntact() {
				c.trace(TraceEvent{Action: traceevent.GrantOnHeadGone, Target: wait.name})
				return c.grant(ctx)
			}
			c.trace(TraceEvent{Action: traceevent.PredecessorGone, Target: wait.name})
		case <-secondFired:
			// The node two ahead went, typically while the node we wait
			// for holds: list again now, off the critical path, so that
			// this listing shows that node alone before ours and its
			// deletion is then our grant. Its watch stays armed for the
			// next round (c.pred).
			c.trace(TraceEvent{Action: traceevent.PredecessorGone, Target: second})
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-c.l.s.done:
			return nil, c.l.s.Err()
		}
	}
}

// traceList reports a listing; the names are copied only when traced.
func (c *contender) traceList(result traceevent.Result, target string, q []child) {
	if c.l.s.cfg.tracer == nil {
		return
	}
	names := make([]string, len(q))
	for i, ch := range q {
		names[i] = ch.name
	}
	c.trace(TraceEvent{Action: traceevent.ListChildren, Result: result, Target: target, Children: names,
		Start: c.listed.at, ZxidLow: c.listed.zxid, Zxid: c.pzxid})
}
