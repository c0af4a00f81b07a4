package faultinject

import (
	"context"
	"errors"
	"sync"
)

// Errors a Cut can end with instead of cutting.
var (
	// ErrClosed: the proxy was closed before a matching request came.
	ErrClosed = errors.New("faultinject: proxy closed")
	// ErrCanceled: Heal, or a newer CutAfterRequest, disarmed the cut
	// before a matching request came.
	ErrCanceled = errors.New("faultinject: cut canceled")
)

// CutReport says what a Cut did.
type CutReport struct {
	Op  Op    // the request's opcode
	Xid int32 // the request's xid
	// ReplyDropped is true if the server's reply arrived and was discarded
	// before the connection was severed: the server certainly executed the
	// request. It is false if the connection was severed because no reply
	// came in time (see WithCutTimeout) or closed for another reason first:
	// the request reached the server, but the client might also have seen
	// the reply in the second case.
	ReplyDropped bool
	Zxid         int64 // the dropped reply's zxid
	Err          int32 // the dropped reply's ZooKeeper error code; 0 is success
}

type cutState int

const (
	cutArmed   cutState = iota // waiting for a matching request
	cutClaimed                 // request forwarded, waiting for its reply
	cutDone
)

// Cut is a pending or completed CutAfterRequest. It applies once, to the
// first matching request forwarded by any proxy it was armed on.
type Cut struct {
	ops  []Op // the opcodes it waits for: any of them
	done chan struct{}

	mu     sync.Mutex
	state  cutState
	report CutReport
	err    error
}

func newCut(op Op, more []Op) *Cut {
	return &Cut{ops: append([]Op{op}, more...), done: make(chan struct{})}
}

// Op returns the (first) opcode the cut waits for.
func (c *Cut) Op() Op { return c.ops[0] }

// waitsFor says whether a request with opcode op matches the cut.
func (c *Cut) waitsFor(op Op) bool {
	for _, o := range c.ops {
		if o == op {
			return true
		}
	}
	return false
}

// Done is closed once the connection has been severed (or the cut was
// canceled).
func (c *Cut) Done() <-chan struct{} { return c.done }

// Wait waits until the cut has happened and reports it, or returns
// ErrCanceled, ErrClosed or ctx's error.
func (c *Cut) Wait(ctx context.Context) (CutReport, error) {
	select {
	case <-c.done:
	case <-ctx.Done():
		return CutReport{}, ctx.Err()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.report, c.err
}

// claim takes the cut for one request; false if it is no longer armed.
func (c *Cut) claim(op Op, xid int32) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state != cutArmed {
		return false
	}
	c.state = cutClaimed
	c.report = CutReport{Op: op, Xid: xid}
	return true
}

// armed reports whether the cut still waits for a request.
func (c *Cut) armed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state == cutArmed
}

// cancel ends an armed (not yet claimed) cut with err.
func (c *Cut) cancel(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state == cutArmed {
		c.state, c.err = cutDone, err
		close(c.done)
	}
}

// finish ends a claimed cut; r describes the reply, if one was dropped.
func (c *Cut) finish(dropped bool, zxid int64, errCode int32) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state == cutClaimed {
		c.state = cutDone
		c.report.ReplyDropped, c.report.Zxid, c.report.Err = dropped, zxid, errCode
		close(c.done)
	}
}
