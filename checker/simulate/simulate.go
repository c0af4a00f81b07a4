// Package simulate produces histories of a correct ZooKeeper lock without ZooKeeper:
// a discrete-event simulation, in virtual time, of clients contending for lock
// paths the way zklock does (sequential nodes, grants in node order, readers
// sharing), with the faults of a chaos run (cut-off calls, session loss, process
// pauses longer than the session timeout) and a fenced resource per path.
//
// It exists to test the checker: every history it produces with fencing on must
// pass, and the ground truth it reports (stale writes an unfenced resource
// accepted) says when one must fail. Run is a pure function of its Config and the
// choices its Source makes.
package simulate

import (
	"container/heap"
	"fmt"
	"time"

	"github.com/zklock/zklock/checker"
)

// Source supplies the simulator's choices. *math/rand/v2.Rand satisfies it; a
// property-based test can adapt its generator's draws so failures shrink. Every
// choice is made so that drawing 0 means "no fault, shortest delay".
type Source interface {
	IntN(n int) int
}

// Config describes a simulated run. Probabilities are per opportunity.
type Config struct {
	Clients int // contending clients (default 4)
	Paths   int // lock paths (default 1)
	RWPaths int // how many of the paths, counted from the last, are read/write locks
	// Ops stops clients from starting new work once the history holds this many
	// operation records; work under way finishes (default 100).
	Ops int
	// Unknown is the probability that an acquire, release or write is cut off, its
	// outcome unknown to the client. A cut-off acquire may leave a node behind for
	// a while; a cut-off release or write may or may not take effect.
	Unknown float64
	// TryLock is the probability that an acquire is a TryLock, which fails when
	// the path has any node.
	TryLock float64
	// Loss is the probability that a tenure ends with the connection blackholed
	// until the session expires; the client notices the loss first, as zklock's
	// timer does.
	Loss float64
	// Pause is the probability that a holder is frozen for longer than the session
	// timeout (and writes once more when it thaws); a quarter of it again freezes a
	// client between its grant and the return of its acquire.
	Pause float64
	// NoFence makes the resources accept every write, the control in which a
	// frozen holder's late write goes through.
	NoFence bool
	// SessionTimeout is in virtual time (default 100ms).
	SessionTimeout time.Duration
}

// Result is a simulated history and the ground truth about it.
type Result struct {
	History checker.History // ending with one leftover record per path
	// StaleAccepted counts writes a resource accepted with a token below one it had
	// accepted before; only possible with NoFence. StaleObservable counts those of
	// them whose client was told the write succeeded and that followed a successful
	// higher write in real time (it returned before the stale one was called):
	// those any checker must catch.
	StaleAccepted   int
	StaleObservable int
	// Pauses and Losses count the faults injected.
	Pauses int
	Losses int
}

// Run simulates cfg, taking every choice from src.
func Run(cfg Config, src Source) Result {
	if cfg.Clients <= 0 {
		cfg.Clients = 4
	}
	if cfg.Paths <= 0 {
		cfg.Paths = 1
	}
	if cfg.Ops <= 0 {
		cfg.Ops = 100
	}
	if cfg.SessionTimeout <= 0 {
		cfg.SessionTimeout = 100 * time.Millisecond
	}
	s := &sim{cfg: cfg, src: src, timeout: int64(cfg.SessionTimeout)}
	for i := 0; i < cfg.Paths; i++ {
		name := fmt.Sprintf("/locks/p%d", i)
		s.paths = append(s.paths, &path{
			name: name, rw: i >= cfg.Paths-cfg.RWPaths, register: "mem:" + name,
		})
	}
	for i := 0; i < cfg.Clients; i++ {
		c := &client{name: fmt.Sprintf("c%d", i), index: i}
		c.newSession()
		s.clients = append(s.clients, c)
		s.idle(c)
	}
	for s.events.Len() > 0 {
		e := heap.Pop(&s.events).(*event)
		s.now = e.at
		e.fn()
	}
	s.now++
	for _, p := range s.paths {
		left := []string{}
		for _, n := range p.nodes {
			left = append(left, n.name)
		}
		s.res.History = append(s.res.History, checker.Record{
			Kind: checker.KindLeftover, Path: p.name, Call: s.now, Return: s.now, Nodes: left,
		})
	}
	return s.res
}

type sim struct {
	cfg     Config
	src     Source
	timeout int64
	now     int64
	seq     int
	events  eventHeap
	zxid    int64
	paths   []*path
	clients []*client
	ops     int
	values  int
	res     Result
}

type path struct {
	name     string
	rw       bool
	seq      int
	nodes    []*node // live, in creation order
	register string
	// The fenced resource: the highest token accepted, and the successful writes it
	// accepted (token and return), for the ground truth about stale writes.
	regToken int64
	value    string
	accepted []acceptedWrite
}

type acceptedWrite struct {
	token int64
	ret   int64
}

type node struct {
	token   int64
	name    string
	mode    checker.Mode
	granted bool
	onGrant func() // nil for a node nobody waits on (a cut-off acquire's)
}

func (n *node) writer() bool { return n.mode != checker.ModeRead }

type client struct {
	name     string
	index    int
	sessionN int
	session  string
}

func (c *client) newSession() {
	c.sessionN++
	c.session = checker.SessionID(int64(0x1000000)<<32 | int64(c.index)<<16 | int64(c.sessionN))
}

type event struct {
	at  int64
	seq int
	fn  func()
}

type eventHeap []*event

func (h eventHeap) Len() int { return len(h) }
func (h eventHeap) Less(i, j int) bool {
	if h[i].at != h[j].at {
		return h[i].at < h[j].at
	}
	return h[i].seq < h[j].seq
}
func (h eventHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *eventHeap) Push(x any)   { *h = append(*h, x.(*event)) }
func (h *eventHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}

func (s *sim) at(t int64, fn func()) {
	if t <= s.now {
		t = s.now + 1
	}
	s.seq++
	heap.Push(&s.events, &event{at: t, seq: s.seq, fn: fn})
}

func (s *sim) after(d int64, fn func()) { s.at(s.now+d, fn) }

// chance is true with probability p; a drawn 0 means false, so shrinking removes
// faults.
func (s *sim) chance(p float64) bool {
	return p > 0 && s.src.IntN(1000) >= 1000-int(p*1000)
}

// net is one network hop: 100µs to 1ms.
func (s *sim) net() int64 { return int64(100*time.Microsecond) * int64(1+s.src.IntN(10)) }

// think is the time between two steps of a client.
func (s *sim) think() int64 { return int64(50*time.Microsecond) * int64(1+s.src.IntN(40)) }

func (s *sim) record(r checker.Record) {
	if r.Kind != checker.KindFault && r.Kind != checker.KindLeftover {
		s.ops++
	}
	s.res.History = append(s.res.History, r)
}

func (s *sim) idle(c *client) {
	if s.ops >= s.cfg.Ops {
		return
	}
	s.after(s.think(), func() { s.acquire(c) })
}

func (s *sim) acquire(c *client) {
	p := s.paths[s.src.IntN(len(s.paths))]
	mode := checker.ModeExclusive
	if p.rw {
		mode = checker.ModeRead
		if s.src.IntN(2) == 1 {
			mode = checker.ModeWrite
		}
	}
	call := s.now
	base := checker.Record{Kind: checker.KindAcquire, Client: c.name, Session: c.session, Path: p.name, Mode: mode, Call: call}

	if s.chance(s.cfg.TryLock) && len(p.nodes) > 0 {
		ret := call + 2*s.net()
		s.at(ret, func() {
			r := base
			r.Return, r.Outcome, r.Error = s.now, checker.OutcomeFailed, "zklock: lock is held"
			s.record(r)
			s.idle(c)
		})
		return
	}

	if s.chance(s.cfg.Unknown) {
		// The create's reply is lost (or the request never arrived) and the caller
		// gives up; zklock finds the node by its name and deletes it.
		created := s.src.IntN(2) == 0
		giveUp := call + s.timeout/4 + s.net()
		var n *node
		if created {
			s.after(s.net(), func() { n = s.create(p, c, mode); s.regrant(p) })
		}
		s.at(giveUp, func() {
			r := base
			r.Return, r.Outcome, r.Error = s.now, checker.OutcomeUnknown, "context deadline exceeded"
			s.record(r)
			if n != nil {
				s.after(s.net(), func() { s.remove(p, n) })
			}
			c.newSession()
			s.idle(c)
		})
		return
	}

	s.after(s.net(), func() {
		n := s.create(p, c, mode)
		n.onGrant = func() { s.granted(c, p, n, base) }
		s.regrant(p)
	})
}

func (s *sim) create(p *path, c *client, mode checker.Mode) *node {
	s.zxid++
	p.seq++
	kind := "lock-"
	switch mode {
	case checker.ModeRead:
		kind = "__READ__"
	case checker.ModeWrite:
		kind = "__WRIT__"
	}
	n := &node{
		token: s.zxid, mode: mode,
		name: fmt.Sprintf("%s/_c_%s-%03d-%s%010d", p.name, c.name, c.sessionN, kind, p.seq),
	}
	p.nodes = append(p.nodes, n)
	return n
}

func (s *sim) remove(p *path, n *node) {
	for i, m := range p.nodes {
		if m == n {
			p.nodes = append(p.nodes[:i:i], p.nodes[i+1:]...)
			s.regrant(p)
			return
		}
	}
}

// regrant grants every node that may now hold: the lowest node, or for a reader
// every node with no writer below it.
func (s *sim) regrant(p *path) {
	writerBelow := false
	for i, n := range p.nodes {
		eligible := i == 0 || (!n.writer() && !writerBelow)
		if n.writer() {
			writerBelow = true
		}
		if eligible && !n.granted {
			n.granted = true
			if n.onGrant != nil {
				n.onGrant()
			}
		}
	}
}

func (s *sim) granted(c *client, p *path, n *node, acq checker.Record) {
	if s.chance(s.cfg.Pause / 4) {
		s.pauseInAcquire(c, p, n, acq)
		return
	}
	s.after(s.net(), func() {
		r := acq
		r.Return, r.Outcome, r.Token, r.Node = s.now, checker.OutcomeOK, n.token, n.name
		s.record(r)
		s.critical(c, p, n, s.src.IntN(4), s.now)
	})
}

// pauseInAcquire freezes the client between its grant and the return of its
// acquire, for longer than the session timeout: the lease it returns on waking is
// already gone, and it learns so at once.
func (s *sim) pauseInAcquire(c *client, p *path, n *node, acq checker.Record) {
	s.res.Pauses++
	p0 := s.now
	expiry := p0 + s.timeout
	p1 := expiry + s.timeout/4*int64(s.src.IntN(4)) + s.net()
	s.at(expiry, func() { s.remove(p, n) })
	s.at(p1, func() {
		s.record(checker.Record{Kind: checker.KindFault, Fault: checker.FaultPause, Target: c.name, Call: p0, Return: p1})
		r := acq
		r.Return, r.Outcome, r.Token, r.Node = p1+s.net(), checker.OutcomeOK, n.token, n.name
		s.at(r.Return, func() {
			s.record(r)
			done := s.now + s.net()
			s.at(done, func() {
				s.record(checker.Record{Kind: checker.KindLost, Client: c.name, Session: c.session, Path: p.name,
					Call: r.Return, Return: s.now, Outcome: checker.OutcomeOK, Token: n.token, Node: n.name,
					Error: "zklock: lock lost"})
				c.newSession()
				s.idle(c)
			})
		})
	})
}

// critical runs k operations on the path's resource, then ends the tenure. known
// is the last moment the client knew it held: the return of its acquire or of its
// last successful write.
func (s *sim) critical(c *client, p *path, n *node, k int, known int64) {
	if k == 0 {
		s.end(c, p, n, known)
		return
	}
	s.after(s.think(), func() {
		if n.writer() && s.src.IntN(3) != 2 {
			s.write(c, p, n, func(ok bool) {
				if ok {
					known = s.now
				}
				s.critical(c, p, n, k-1, known)
			})
			return
		}
		s.read(c, p, n, func() { s.critical(c, p, n, k-1, known) })
	})
}

// write performs one write to the resource now and calls next when it returns.
func (s *sim) write(c *client, p *path, n *node, next func(ok bool)) {
	call := s.now
	apply := call + s.net()
	ret := apply + s.net()
	unknown := s.chance(s.cfg.Unknown)
	s.values++
	value := fmt.Sprintf("%s/%d/%d", c.name, n.token, s.values)
	accepted := false
	s.at(apply, func() {
		if unknown && s.src.IntN(2) == 0 {
			return // cut off before the resource saw it
		}
		accepted = s.accept(p, n.token, call, ret, !unknown)
		if accepted {
			p.value = value
		}
	})
	s.at(ret, func() {
		r := checker.Record{Kind: checker.KindWrite, Client: c.name, Session: c.session, Path: p.name,
			Register: p.register, Call: call, Return: ret, Token: n.token, Value: value, Outcome: checker.OutcomeOK}
		switch {
		case unknown:
			r.Outcome, r.Error = checker.OutcomeUnknown, "connection lost"
		case !accepted:
			r.Outcome, r.Error = checker.OutcomeFailed, "fenced: stale token"
		}
		s.record(r)
		next(r.Outcome == checker.OutcomeOK)
	})
}

// accept applies the fencing rule (or not, under NoFence) and keeps the ground truth.
func (s *sim) accept(p *path, token, call, ret int64, certain bool) bool {
	if token < p.regToken {
		if !s.cfg.NoFence {
			return false
		}
		s.res.StaleAccepted++
		for _, w := range p.accepted {
			// Observable only if the client learned the stale write went through.
			if certain && w.token > token && w.ret < call {
				s.res.StaleObservable++
				break
			}
		}
	}
	p.regToken = max(p.regToken, token)
	if certain {
		p.accepted = append(p.accepted, acceptedWrite{token: token, ret: ret})
	}
	return true
}

func (s *sim) read(c *client, p *path, n *node, next func()) {
	call := s.now
	at := call + s.net()
	var value string
	s.at(at, func() { value = p.value })
	s.at(at+s.net(), func() {
		s.record(checker.Record{Kind: checker.KindRead, Client: c.name, Session: c.session, Path: p.name,
			Register: p.register, Call: call, Return: s.now, Token: n.token, Value: value, Outcome: checker.OutcomeOK})
		next()
	})
}

// end ends a tenure: a release (maybe cut off), a session loss, or a pause.
func (s *sim) end(c *client, p *path, n *node, known int64) {
	switch {
	case s.chance(s.cfg.Pause):
		s.pauseHolding(c, p, n, known)
	case s.chance(s.cfg.Loss):
		s.loseSession(c, p, n, known)
	default:
		s.release(c, p, n)
	}
}

func (s *sim) release(c *client, p *path, n *node) {
	s.after(s.think(), func() {
		call := s.now
		r := checker.Record{Kind: checker.KindRelease, Client: c.name, Session: c.session, Path: p.name,
			Call: call, Token: n.token, Node: n.name}
		if s.chance(s.cfg.Unknown) {
			// The reply is lost. Either the delete went through, or the session
			// expires with the node later.
			del := call + s.net()
			if s.src.IntN(2) == 1 {
				del = call + s.timeout + s.net()
			}
			s.at(del, func() { s.remove(p, n) })
			s.at(call+s.timeout/2, func() {
				r.Return, r.Outcome, r.Error = s.now, checker.OutcomeUnknown, "connection lost"
				s.record(r)
				c.newSession()
				s.idle(c)
			})
			return
		}
		del := call + s.net()
		s.at(del, func() { s.remove(p, n) })
		s.at(del+s.net(), func() {
			r.Return, r.Outcome = s.now, checker.OutcomeOK
			s.record(r)
			s.idle(c)
		})
	})
}

// loseSession blackholes the client's connection: zklock's timer declares the lease
// lost a margin before the server can expire the session.
func (s *sim) loseSession(c *client, p *path, n *node, known int64) {
	s.res.Losses++
	cut := s.now + s.think()
	done := max(known+s.timeout-s.timeout/10, cut+1)
	expiry := cut + s.timeout
	session := c.session
	s.at(done, func() {
		s.record(checker.Record{Kind: checker.KindLost, Client: c.name, Session: session, Path: p.name,
			Call: known, Return: s.now, Outcome: checker.OutcomeOK, Token: n.token, Node: n.name, Error: "zklock: lock lost"})
		c.newSession()
		s.idle(c)
	})
	s.at(expiry, func() {
		s.remove(p, n)
		s.record(checker.Record{Kind: checker.KindFault, Fault: "blackhole", Target: session, Call: cut, Return: s.now})
	})
}

// pauseHolding freezes the holder past the session timeout. On waking it writes
// once more with its old token (the fenced resource rejects that if a newer holder
// wrote meanwhile) and sees Lease.Done closed.
func (s *sim) pauseHolding(c *client, p *path, n *node, known int64) {
	s.res.Pauses++
	p0 := s.now + s.think()
	expiry := p0 + s.timeout
	p1 := expiry + s.timeout/4*int64(s.src.IntN(4)) + s.net()
	session := c.session
	s.at(expiry, func() { s.remove(p, n) })
	s.at(p1, func() {
		s.record(checker.Record{Kind: checker.KindFault, Fault: checker.FaultPause, Target: c.name, Call: p0, Return: p1})
		pending := 2
		finish := func() {
			if pending--; pending == 0 {
				c.newSession()
				s.idle(c)
			}
		}
		s.after(s.net(), func() {
			s.record(checker.Record{Kind: checker.KindLost, Client: c.name, Session: session, Path: p.name,
				Call: known, Return: s.now, Outcome: checker.OutcomeOK, Token: n.token, Node: n.name, Error: "zklock: lock lost"})
			finish()
		})
		if n.writer() {
			s.after(1, func() { s.write(c, p, n, func(bool) { finish() }) })
		} else {
			finish()
		}
	})
}
