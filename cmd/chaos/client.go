package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklock/zklock/checker"
	"github.com/zklock/zklock/faultinject"
	"github.com/zklock/zklock/impl/zklock"
)

// lockPath is one contended lock and the two registers its critical sections
// write: a ZooKeeper node and an in-process resource.
type lockPath struct {
	path string // the lock path
	data string // the ZooKeeper node written under the lock
	rw   bool   // a read/write lock (else exclusive)
	mem  *memRegister
}

func (lp *lockPath) zkRegister() string { return "zk:" + lp.data }

// workload is what every client of a campaign shares.
type workload struct {
	cfg     *config
	rec     *checker.Recorder
	mon     *monitor
	excl    []*lockPath
	rw      []*lockPath
	timeout time.Duration        // the session timeout the servers granted
	timing  zklock.SessionOption // the servers' tickTime and syncLimit, for zklock's loss rule
	traces  *traceFile           // zklock's protocol steps; nil for --lock=zk
}

// Client states, which decide the roles a fault can target.
type clientState int

const (
	stateIdle    clientState = iota
	stateWaiting             // blocked in Lock (not TryLock)
	stateHolding             // between a successful acquire and its release
)

// client is one application process of the campaign: one session at a time,
// through its own fault-injecting proxies, frozen by its own gate.
type client struct {
	name  string
	w     *workload
	set   *faultinject.Set
	gate  gate
	rng   *rand.Rand // the workload's choices; only the client's goroutine uses it
	seq   int        // makes written values unique
	index int        // i of c<i+1>

	mu    sync.Mutex
	state clientState
	path  string // the lock path of stateWaiting and stateHolding
}

func newClient(w *workload, i int, set *faultinject.Set) *client {
	return &client{
		name:  fmt.Sprintf("c%d", i+1),
		w:     w,
		set:   set,
		rng:   rand.New(rand.NewPCG(uint64(w.cfg.Seed), uint64(i+1))),
		index: i,
	}
}

func (c *client) setState(s clientState, path string) {
	c.mu.Lock()
	c.state, c.path = s, path
	c.mu.Unlock()
}

func (c *client) snapshot() (clientState, string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.state, c.path
}

func (c *client) now() int64 { return c.w.rec.Now() }

// add records an operation of this client.
func (c *client) add(r checker.Record) {
	r.Client = c.name
	c.w.rec.Add(r)
	c.w.mon.ops.Add(1)
}

// pick chooses the next lock and mode: a read/write path with probability
// --rw-ratio, readers more often than writers there.
func (c *client) pick() (*lockPath, checker.Mode) {
	if len(c.w.rw) > 0 && (len(c.w.excl) == 0 || c.rng.Float64() < c.w.cfg.RWRatio) {
		lp := c.w.rw[c.rng.IntN(len(c.w.rw))]
		if c.rng.IntN(5) < 3 {
			return lp, checker.ModeRead
		}
		return lp, checker.ModeWrite
	}
	return c.w.excl[c.rng.IntN(len(c.w.excl))], checker.ModeExclusive
}

// think waits a random time in [lo, hi]; it reports false if ctx or the
// lease (done, which may be nil) ended first.
func (c *client) think(ctx context.Context, done <-chan struct{}, lo, hi time.Duration) bool {
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

func (c *client) nextValue(token int64) string {
	c.seq++
	return fmt.Sprintf("%s/%d/%d", c.name, token, c.seq)
}

// tenure is one lease as the workload holds it, whichever lock granted it.
type tenure struct {
	lp        *lockPath
	mode      checker.Mode
	token     int64
	node      string
	session   string
	acqReturn int64
	done      <-chan struct{} // closed when the lease ends; nil for zk.Lock, which never says
	conn      *zk.Conn        // for linearizable reads of the ZooKeeper register
	// zkWrite writes value to the ZooKeeper register: through Lease.Guard when
	// fenced. It says what the client learned and whether trying again makes
	// sense (the connection broke but the lease may hold).
	zkWrite func(ctx context.Context, value string) (checker.Outcome, bool, error)
	guarded bool // zkWrite goes through Lease.Guard: its success proves the lease held
	belief  *belief

	mu        sync.Mutex
	lastWrite int64         // call of the last successful guarded write (see guarded)
	inflight  chan struct{} // closed when the ZooKeeper write in flight returns
}

func (t *tenure) ended() bool {
	if t.done == nil {
		return false
	}
	select {
	case <-t.done:
		return true
	default:
		return false
	}
}

func (t *tenure) beginWrite() {
	t.mu.Lock()
	t.inflight = make(chan struct{})
	t.mu.Unlock()
}

func (t *tenure) endWrite(call int64, ok bool) {
	t.mu.Lock()
	if ok && t.guarded {
		t.lastWrite = max(t.lastWrite, call)
	}
	close(t.inflight)
	t.inflight = nil
	t.mu.Unlock()
}

// lastKnown is the last moment the client knew it held the lease: the later
// of the acquire's return and the call of its last successful guarded write.
// A write still in flight is waited for, since its success would prove the
// node existed after its call.
func (t *tenure) lastKnown() int64 {
	t.mu.Lock()
	ch := t.inflight
	t.mu.Unlock()
	if ch != nil {
		<-ch
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return max(t.acqReturn, t.lastWrite)
}

// critical runs a critical section: writers write both registers one to three
// times, readers read them. Each step checks that the lease still holds, then
// passes the gate, then acts: a client frozen in between acts late, on a
// lease it no longer has, which is the case fencing exists for.
func (c *client) critical(ctx context.Context, t *tenure) {
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
			c.read(t)
		} else if !c.write(ctx, t) {
			return
		}
	}
	if t.mode != checker.ModeRead && c.rng.IntN(2) == 0 && !t.ended() && ctx.Err() == nil {
		c.gate.pass()
		c.read(t)
	}
	// An idle holder sends nothing but the session's pings: if those are
	// answered by a server cut off from the leader, only the loss timer's
	// rule stands between it and a second holder.
	if d := c.w.cfg.IdleHold; d > 0 && !t.ended() && ctx.Err() == nil {
		c.think(ctx, t.done, d/2, d)
	}
}

// addrs are the servers the client's sessions may use: all of them, or with
// --pin the one it is pinned to (client i to server i mod N).
func (c *client) addrs() []string {
	all := c.set.Addrs()
	if !c.w.cfg.Pin || len(all) == 0 {
		return all
	}
	return all[c.index%len(all) : c.index%len(all)+1]
}

// write writes a fresh value to both registers of the lease's lock. It
// reports whether the critical section may go on.
func (c *client) write(ctx context.Context, t *tenure) bool {
	value := c.nextValue(t.token)
	call := c.now()
	accepted := t.lp.mem.write(c.name, t.token, value)
	ret := c.now()
	c.add(checker.Record{Kind: checker.KindWrite, Session: t.session, Path: t.lp.path, Register: t.lp.mem.name,
		Call: call, Return: ret, Outcome: outcome(accepted), Token: t.token, Value: value})

	// The ZooKeeper register, retried through connection loss while the lease
	// holds, as an application would: a broken connection is not a lost lock.
	reg := t.lp.zkRegister()
	for attempt := 0; ; attempt++ {
		if attempt > 0 {
			if attempt >= 20 || !c.think(ctx, t.done, 100*time.Millisecond, 250*time.Millisecond) || t.ended() {
				return false
			}
			c.gate.pass()
			value = c.nextValue(t.token)
		}
		before := c.w.mon.writeCalled(reg)
		wctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), c.w.timeout)
		t.beginWrite()
		call := c.now()
		out, again, err := t.zkWrite(wctx, value)
		t.endWrite(call, out == checker.OutcomeOK)
		cancel()
		c.gate.pass()
		ret := c.now()
		c.add(checker.Record{Kind: checker.KindWrite, Session: t.session, Path: t.lp.path, Register: reg,
			Call: call, Return: ret, Outcome: out, Token: t.token, Value: value, Error: errText(err)})
		if out == checker.OutcomeOK {
			c.w.mon.writeOK(reg, c.name, t.token, before)
			return accepted
		}
		if !again {
			return false
		}
	}
}

// read reads both registers: the in-process one directly, the ZooKeeper node
// with sync then getData on the session's connection, which is linearizable
// (a plain getData may be served stale by a lagging follower).
func (c *client) read(t *tenure) {
	call := c.now()
	v := t.lp.mem.read()
	ret := c.now()
	c.add(checker.Record{Kind: checker.KindRead, Session: t.session, Path: t.lp.path, Register: t.lp.mem.name,
		Call: call, Return: ret, Outcome: checker.OutcomeOK, Token: t.token, Value: v})

	call = c.now()
	_, err := t.conn.Sync(t.lp.data)
	var data []byte
	if err == nil {
		data, _, err = t.conn.Get(t.lp.data)
	}
	c.gate.pass()
	ret = c.now()
	r := checker.Record{Kind: checker.KindRead, Session: t.session, Path: t.lp.path, Register: t.lp.zkRegister(),
		Call: call, Return: ret, Outcome: checker.OutcomeOK, Token: t.token, Value: string(data)}
	if err != nil {
		// A read that returned nothing constrains nothing.
		r.Outcome, r.Value, r.Error = checker.OutcomeFailed, "", err.Error()
	}
	c.add(r)
}

func outcome(ok bool) checker.Outcome {
	if ok {
		return checker.OutcomeOK
	}
	return checker.OutcomeFailed
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// transient reports a ZooKeeper error that says only that the connection
// broke: the request may or may not have been applied.
func transient(err error) bool {
	return errors.Is(err, zk.ErrConnectionClosed) || errors.Is(err, zk.ErrNoServer) ||
		errors.Is(err, zk.ErrSessionMoved) || errors.Is(err, context.DeadlineExceeded)
}

// plainWrite is the unfenced ZooKeeper write: a setData on conn, whoever holds
// the lock. zk.Lock's holders (which have no guard) and --no-fence use it.
func plainWrite(conn *zk.Conn, path string) func(context.Context, string) (checker.Outcome, bool, error) {
	return func(_ context.Context, value string) (checker.Outcome, bool, error) {
		_, err := conn.Set(path, []byte(value), -1)
		if err == nil {
			return checker.OutcomeOK, false, nil
		}
		return checker.OutcomeUnknown, transient(err), err
	}
}
