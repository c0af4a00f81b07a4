package faultinject

// OnRequest calls fn with every request the proxy relays to the server
// (not the connect request), just before it is written: its opcode and its
// payload from the request header on (xid, opcode, then the request's own
// fields). fn runs on the relay's path and must not block; a test uses it to
// see what a client sent and in which order. nil stops the calls.
func (p *Proxy) OnRequest(fn func(op Op, req []byte)) {
	p.mu.Lock()
	p.observer = fn
	p.mu.Unlock()
}

// OnRequest sets fn on every proxy of the set (see Proxy.OnRequest).
func (s *Set) OnRequest(fn func(op Op, req []byte)) {
	for _, p := range s.proxies {
		p.OnRequest(fn)
	}
}

// observe hands a relayed request to the observer, if one is set.
func (p *Proxy) observe(op Op, req []byte) {
	p.mu.Lock()
	fn := p.observer
	p.mu.Unlock()
	if fn != nil {
		fn(op, req)
	}
}
