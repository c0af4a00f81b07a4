package faultinject

import (
	"errors"
	"time"
)

// Set is one proxy per server of an ensemble, for one client session: pass
// Addrs to zk.Connect, and every fault applies to the whole set, so it hits
// the session whichever server it is connected to.
type Set struct {
	proxies []*Proxy
}

// NewSet starts one proxy per server address.
func NewSet(servers []string, opts ...Option) (*Set, error) {
	s := &Set{}
	for _, srv := range servers {
		p, err := New(srv, opts...)
		if err != nil {
			return nil, errors.Join(err, s.Close())
		}
		s.proxies = append(s.proxies, p)
	}
	return s, nil
}

// Addrs returns the proxies' addresses, in the order of the servers.
func (s *Set) Addrs() []string {
	addrs := make([]string, len(s.proxies))
	for i, p := range s.proxies {
		addrs[i] = p.Addr()
	}
	return addrs
}

// Proxy returns the proxy in front of servers[i], or nil if i is out of
// range.
func (s *Set) Proxy(i int) *Proxy {
	if i < 0 || i >= len(s.proxies) {
		return nil
	}
	return s.proxies[i]
}

// Len returns the number of proxies.
func (s *Set) Len() int { return len(s.proxies) }

// Sever severs every connection open on any proxy of the set at the time
// of the call; see Proxy.Sever. The connections are listed before any is
// closed: a client reconnecting at once to another proxy of the set keeps
// its new connection.
func (s *Set) Sever() int {
	var links []*link
	for _, p := range s.proxies {
		links = append(links, p.openLinks()...)
	}
	return severAll(links)
}

// Blackhole blackholes every proxy for d; see Proxy.Blackhole.
func (s *Set) Blackhole(d time.Duration) {
	until := time.Now().Add(d)
	for _, p := range s.proxies {
		p.blackholeUntil(until)
	}
}

// BlackholeUntilHealed blackholes every proxy until Heal.
func (s *Set) BlackholeUntilHealed() {
	for _, p := range s.proxies {
		p.BlackholeUntilHealed()
	}
}

// Delay delays every proxy's frames by d; see Proxy.Delay.
func (s *Set) Delay(d time.Duration) {
	for _, p := range s.proxies {
		p.Delay(d)
	}
}

// Heal heals every proxy; see Proxy.Heal.
func (s *Set) Heal() {
	for _, p := range s.proxies {
		p.Heal()
	}
}

// CutAfterRequest arms one cut on every proxy: it applies to the next
// request with opcode op (or one of more) on whichever proxy sees it first; see
// Proxy.CutAfterRequest.
func (s *Set) CutAfterRequest(op Op, more ...Op) *Cut {
	c := newCut(op, more)
	if len(s.proxies) > 0 && s.proxies[0].opts.opaque {
		c.cancel(ErrOpaque)
		return c
	}
	for _, p := range s.proxies {
		p.armCut(c)
	}
	return c
}

// Stats returns the sum of the proxies' counters.
func (s *Set) Stats() Stats {
	var sum Stats
	sum.Requests = make(map[Op]int64)
	for _, p := range s.proxies {
		sum.add(p.Stats())
	}
	return sum
}

// Close closes every proxy.
func (s *Set) Close() error {
	var errs []error
	for _, p := range s.proxies {
		errs = append(errs, p.Close())
	}
	return errors.Join(errs...)
}
