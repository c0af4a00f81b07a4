package workload

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/zklock/zklock/checker"
	"github.com/zklock/zklock/faultinject"
)

// State is what a client is doing, which decides the roles a fault can
// target.
type State int

// Client states.
const (
	StateIdle    State = iota // between rounds
	StateWaiting              // blocked in Lock (not TryLock)
	StateHolding              // between a successful acquire and its release
)

// Client is one application process of the campaign: one session at a time,
// through its own fault-injecting proxies, frozen by its own gate.
type Client struct {
	name  string
	w     *Workload
	set   *faultinject.Set
	gate  gate
	rng   *rand.Rand // the workload's choices; only the client's goroutine uses it
	seq   int        // makes written values unique
	index int        // i of c<i+1>

	mu    sync.Mutex
	state State
	path  string // the lock path of StateWaiting and StateHolding
	node  string // the lock node of StateHolding
}

// NewClient returns client i (named c<i+1>) of the workload, whose sessions
// go through the proxies of set.
func NewClient(w *Workload, i int, set *faultinject.Set) *Client {
	return &Client{
		name:  fmt.Sprintf("c%d", i+1),
		w:     w,
		set:   set,
		rng:   rand.New(rand.NewPCG(uint64(w.Cfg.Seed), uint64(i+1))),
		index: i,
	}
}

func (c *Client) setState(s State, path string) {
	c.mu.Lock()
	c.state, c.path, c.node = s, path, ""
	c.mu.Unlock()
}

// setHolding records that the client holds the lease of node on path.
func (c *Client) setHolding(path, node string) {
	c.mu.Lock()
	c.state, c.path, c.node = StateHolding, path, node
	c.mu.Unlock()
}

// Name is the client's name in the history: c1, c2, ...
func (c *Client) Name() string { return c.name }

// Set is the client's fault-injecting proxies.
func (c *Client) Set() *faultinject.Set { return c.set }

// Freeze freezes the client's process in-process (see gate) until Thaw; it
// reports false if it was frozen already.
func (c *Client) Freeze() bool { return c.gate.freeze() }

// Thaw lets a frozen client go on; on a client not frozen it does nothing.
func (c *Client) Thaw() { c.gate.thaw() }

// Snapshot returns the client's state and the lock path it waits for or
// holds.
func (c *Client) Snapshot() (State, string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state, c.path
}

// Held returns the lock path and the lock node of the lease the client
// holds; ok is false when it holds none.
func (c *Client) Held() (path, node string, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.path, c.node, c.state == StateHolding
}

func (c *Client) now() int64 { return c.w.Rec.Now() }

// add records an operation of this client.
func (c *Client) add(r checker.Record) {
	r.Client = c.name
	c.w.Rec.Add(r)
	c.w.Mon.Ops.Add(1)
}

// pick chooses the next lock and mode: a read/write path with probability
// --rw-ratio, readers more often than writers there.
func (c *Client) pick() (*LockPath, checker.Mode) {
	if len(c.w.RW) > 0 && (len(c.w.Excl) == 0 || c.rng.Float64() < c.w.Cfg.RWRatio) {
		lp := c.w.RW[c.rng.IntN(len(c.w.RW))]
		if c.rng.IntN(5) < 3 {
			return lp, checker.ModeRead
		}
		return lp, checker.ModeWrite
	}
	return c.w.Excl[c.rng.IntN(len(c.w.Excl))], checker.ModeExclusive
}

// think waits a random time in [lo, hi]; it reports false if ctx or the
// lease (done, which may be nil) ended first.
func (c *Client) think(ctx context.Context, done <-chan struct{}, lo, hi time.Duration) bool {
	d := lo + time.Duration(c.rng.Int64N(int64(hi-lo)+1))
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	case <-done:
		return false
	}
}

func (c *Client) nextValue(token int64) string {
	c.seq++
	return fmt.Sprintf("%s/%d/%d", c.name, token, c.seq)
}

// lease it no longer has, which is the case fencing exists for.
func (c *Client) critical(ctx context.Context, t *tenure) {
	steps := 1 + c.rng.IntN(3)
	for i := 0; i < steps; i++ {
		if i > 0 || t.mode == checker.ModeRead {
			if !c.think(ctx, t.done, 30*time.Millisecond, 150*time.Millisecond) {
				return
			}
		}
		if t.ended() || ctx.Err() != nil {
			return
		}
		c.gate.pass()
		if t.mode == checker.ModeRead {
			c.read(ctx, t)
		} else if !c.write(ctx, t) {
			return
		}
	}
	if t.mode != checker.ModeRead && t.ownReg == "" && c.rng.IntN(2) == 0 && !t.ended() && ctx.Err() == nil {
		c.gate.pass()
		c.read(ctx, t)
	}
	// An idle holder sends nothing but the session's pings: if those are
	// answered by a server cut off from the leader, only the loss timer's
	// rule stands between it and a second holder.
	if d := c.w.Cfg.IdleHold; d > 0 && !t.ended() && ctx.Err() == nil {
		c.think(ctx, t.done, d/2, d)
	}
}

// addrs are the servers the client's sessions may use: all of them, or with
// --pin the one it is pinned to (client i to server i mod N, or to the
// i-th of PinTo).
func (c *Client) addrs() []string {
	all := c.set.Addrs()
	if !c.w.Cfg.Pin || len(all) == 0 {
		return all
	}
	s := c.index % len(all)
	if to := c.w.Cfg.PinTo; len(to) > 0 {
		s = to[c.index%len(to)]
	}
	return all[s : s+1]
}

// write writes a fresh value to both registers of the lease's lock. It
// reports whether the critical section may go on.
func (c *Client) write(ctx context.Context, t *tenure) bool {
	value := c.nextValue(t.token)
	accepted, reg := true, t.ownReg
	if reg == "" {
		call := c.now()
		accepted = t.lp.mem.write(c.name, t.token, value)
		ret := c.now()
		c.add(checker.Record{Kind: checker.KindWrite, Session: t.session, Path: t.lp.Path, Register: t.lp.mem.name,
			Call: call, Return: ret, Outcome: outcome(accepted), Token: t.token, Value: value})
		reg = t.lp.zkRegister()
	}

	// The ZooKeeper register, retried through connection loss while the lease
	// holds, as an application would: a broken connection is not a lost lock.
	for attempt := 0; ; attempt++ {
		if attempt > 0 {
			if attempt >= 20 || !c.think(ctx, t.done, 100*time.Millisecond, 250*time.Millisecond) || t.ended() {
				return false
			}
			c.gate.pass()
			value = c.nextValue(t.token)
		}
		before := c.w.Mon.WriteCalled(reg)
		wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.w.Timeout)
		t.beginWrite()
		call := c.now()
		out, again, err := t.zkWrite(wctx, value)
		t.endWrite(call, out == checker.OutcomeOK)
		cancel()
		c.gate.pass()
		ret := c.now()
		c.add(checker.Record{Kind: checker.KindWrite, Session: t.session, Path: t.lp.Path, Register: reg,
			Call: call, Return: ret, Outcome: out, Token: t.token, Value: value, Error: errText(err)})
		if out == checker.OutcomeOK {
			c.w.Mon.WriteOK(reg, c.name, t.token, before)
			return accepted
		}
		if !again {
			return false
		}
	}
}

// read reads both registers: the in-process one directly, the ZooKeeper node
// with sync then getData on the session's connection, which is linearizable
// (a plain getData may be served stale by a lagging follower). Like write, it
// retries the ZooKeeper read through connection loss while the lease holds: a
// holder whose read fails on a broken connection still believes it holds, as
// an application would. (Were it to give up and release, a zk.Lock holder
// blackholed in its last read would let go before its session expired, and
// the control would pass by luck.)
func (c *Client) read(ctx context.Context, t *tenure) {
	call := c.now()
	v := t.lp.mem.read()
	ret := c.now()
	c.add(checker.Record{Kind: checker.KindRead, Session: t.session, Path: t.lp.Path, Register: t.lp.mem.name,
		Call: call, Return: ret, Outcome: checker.OutcomeOK, Token: t.token, Value: v})

	for attempt := 0; ; attempt++ {
		if attempt > 0 {
			if attempt >= 20 || !c.think(ctx, t.done, 100*time.Millisecond, 250*time.Millisecond) || t.ended() {
				return
			}
			c.gate.pass()
		}
		call = c.now()
		_, err := t.conn.Sync(t.lp.Data)
		var data []byte
		if err == nil {
			data, _, err = t.conn.Get(t.lp.Data)
		}
		c.gate.pass()
		ret = c.now()
		r := checker.Record{Kind: checker.KindRead, Session: t.session, Path: t.lp.Path, Register: t.lp.zkRegister(),
			Call: call, Return: ret, Outcome: checker.OutcomeOK, Token: t.token, Value: string(data)}
		if err != nil {
			// A read that returned nothing constrains nothing.
			r.Outcome, r.Value, r.Error = checker.OutcomeFailed, "", err.Error()
		}
		c.add(r)
		if err == nil || !transient(err) {
			return
		}
	}
}
