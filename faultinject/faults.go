package faultinject

import "time"

// Sever closes every open connection at once, dropping any frames held by
// Blackhole or Delay: the client sees connection loss. New connections are
// accepted as before. It returns the number of connections closed.
func (p *Proxy) Sever() int { return severAll(p.openLinks()) }

func (p *Proxy) openLinks() []*link {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.linksLocked()
}

func severAll(links []*link) int {
	n := 0
	for _, l := range links {
		if l.sever() {
			n++
		}
	}
	return n
}

// Blackhole stops relaying, both ways, for d from now, replacing any
// blackhole in force. Connections stay open and frames are held, not
// dropped: they are delivered when the window ends if both ends are still
// there, as TCP retransmission would. Connections accepted during the
// window are held too: the proxy connects to the server at once but relays
// nothing, the connect request included. If d exceeds the session timeout,
// the server expires the session and the client learns it when the window
// ends.
func (p *Proxy) Blackhole(d time.Duration) { p.blackholeUntil(time.Now().Add(d)) }

func (p *Proxy) blackholeUntil(t time.Time) {
	p.setFaults(func(f *faults) { f.blackholeUntil, f.blackholeForever = t, false })
}

// BlackholeUntilHealed is Blackhole with no end: it lasts until Heal.
func (p *Proxy) BlackholeUntilHealed() {
	p.setFaults(func(f *faults) { f.blackholeForever = true })
}

// Delay adds d to the delivery of every frame relayed, both ways, from now
// until Delay(0). Frames are pipelined, not serialized: a burst of frames
// arrives d late, not d apart.
func (p *Proxy) Delay(d time.Duration) {
	p.setFaults(func(f *faults) { f.delay = d })
}

// Heal ends any blackhole and delay and disarms a CutAfterRequest that has
// not yet met its request (its Wait returns ErrCanceled). Held frames are
// delivered at once.
func (p *Proxy) Heal() {
	p.setFaults(func(f *faults) { *f = faults{} })
	p.mu.Lock()
	cut := p.cut
	p.cut = nil
	p.mu.Unlock()
	if cut != nil {
		cut.cancel(ErrCanceled)
	}
}

func (p *Proxy) setFaults(change func(*faults)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	change(&p.faults)
	close(p.changed)
	p.changed = make(chan struct{})
}

func (p *Proxy) faultState() (faults, <-chan struct{}) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.faults, p.changed
}

// CutAfterRequest arms a cut: the next request with opcode op, on any
// connection of the proxy, is relayed to the server; the server's reply to
// it is discarded and that connection severed, so the client sees
// connection loss although the server executed the request. If no reply
// comes within the cut timeout (see WithCutTimeout), the connection is
// severed anyway. A cut applies once and replaces one still armed. With
// more opcodes, the next request with any of them is the one cut (a lock
// node's create is a create for one client and a create2 for another).
func (p *Proxy) CutAfterRequest(op Op, more ...Op) *Cut {
	c := newCut(op, more)
	if p.opts.opaque {
		c.cancel(ErrOpaque)
		return c
	}
	p.armCut(c)
	return c
}

func (p *Proxy) armCut(c *Cut) {
	p.mu.Lock()
	old := p.cut
	if p.closed {
		p.mu.Unlock()
		c.cancel(ErrClosed)
		return
	}
	p.cut = c
	p.mu.Unlock()
	if old != nil && old != c {
		old.cancel(ErrCanceled)
	}
}

// claimCut returns the armed cut if it waits for op and this request is the
// one it takes (a cut shared by a Set is taken by one proxy only).
func (p *Proxy) claimCut(op Op, xid int32) *Cut {
	p.mu.Lock()
	defer p.mu.Unlock()
	c := p.cut
	if c == nil {
		return nil
	}
	if !c.armed() {
		// Taken through another proxy of a Set, or canceled.
		p.cut = nil
		return nil
	}
	if !c.waitsFor(op) || !c.claim(op, xid) {
		return nil
	}
	p.cut = nil
	return c
}
