package zklock

// Waiting: the watches a waiter sets on the nodes ahead of it.

import (
	"context"
	"errors"

	"github.com/go-zookeeper/zk"

	"github.com/zklock/zklock/traceevent"
)

// twoAhead is the node two ahead of an exclusive contender at position i
// (the one before its predecessor), "" when there is none or the lock is a
// read/write lock (its waiters watch one node each).
func twoAhead(q []child, i int, k Mode) string {
	if k != ModeExclusive || i < 2 {
		return ""
	}
	return q[i-2].name
}

// getW reads a node with a watch: getData, since exists would leave a
// watch behind on a node that is already gone.
func (c *contender) getW(target string) func() (<-chan zk.Event, error) {
	node := joinPath(c.l.path, target)
	return func() (<-chan zk.Event, error) {
		_, _, ch, err := c.l.s.conn.GetW(node)
		return ch, err
	}
}

// watchBoth sets the watches of a wait: on the node two ahead (second, if
// any: WatchSecond) and on the node we wait for (WatchPredecessor), the
// two getData calls in flight together, so the second costs no round trip
// of its own. A nil fired means: list again. A watch on the node we wait
// for that an earlier listing of this acquisition set and that has not
// fired is reused: the listing just made shows that node, so it was
// deleted after it, if at all, and the armed watch tells us.
// go-zookeeper cannot remove a watch: one we stop waiting on (a second
// that went, a node no longer chosen) fires into a channel nobody reads,
// once, when its node goes; its node was gone before the listing that
// dropped it, since a client sees an event before the data after it.
func (c *contender) watchBoth(ctx context.Context, target, second string) (fired, secondFired <-chan zk.Event, err error) {
	s := c.l.s
	sent := s.now()
	var secondRes <-chan result[<-chan zk.Event]
	if second != "" {
		if secondRes, err = start(s, c.getW(second)); err != nil {
			return nil, nil, err
		}
	}
	reuse := c.pred != nil && c.pred.name == target
	if !reuse {
		c.pred = nil
		fired, err = do(ctx, s, c.getW(target))
	}
	if secondRes != nil {
		ch, serr := await(ctx, s, secondRes)
		switch {
		case serr == nil:
			secondFired = ch
			c.step(traceevent.WatchSecond, second, traceevent.ResultExists, sent)
		case errors.Is(serr, zk.ErrNoNode):
			c.step(traceevent.WatchSecond, second, traceevent.ResultGone, sent)
		case transient(serr):
			// Not retried: a retry would read after the predecessor's
			// getData, yet stand for a read before it, and a node gone in
			// between could not be told from one gone before. The second
			// watch only saves a listing, so wait without it
			// (WatchSecondLost, PredecessorLockConnLoss): the
			// predecessor's deletion then lists again.
			c.step(traceevent.WatchSecond, second, traceevent.ResultLost, sent)
		default:
			return nil, nil, serr
		}
	}
	if reuse {
		// Armed since an earlier listing, and this listing saw the node.
		c.step(traceevent.WatchPredecessor, target, traceevent.ResultExists, c.listed)
		return c.pred.ch, secondFired, nil
	}
	switch {
	case err == nil:
		c.pred = &armedWatch{name: target, ch: fired}
		c.step(traceevent.WatchPredecessor, target, traceevent.ResultExists, sent)
		return fired, secondFired, nil
	case errors.Is(err, zk.ErrNoNode):
		c.step(traceevent.WatchPredecessor, target, traceevent.ResultGone, sent)
		return nil, nil, nil
	case transient(err):
		// The server dropped the watch with the connection, if it had
		// armed it, and go-zookeeper registers a watch only with its
		// reply: nothing is armed on the node. List again (a step the
		// spec takes as WatchPredecessorLost, PredecessorLockConnLoss);
		// waiting here would wait for an event that never comes.
		c.step(traceevent.WatchPredecessor, target, traceevent.ResultLost, sent)
		var b backoff
		return nil, nil, b.wait(ctx, s)
	}
	return nil, nil, err
}
