package faultinject

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"
)

// DefaultCutTimeout is how long a Cut waits for the reply it is to drop
// before severing the connection anyway (a paused server never replies).
const DefaultCutTimeout = 10 * time.Second

// dialTimeout bounds the proxy's connection to its server. A refused
// connection fails at once on loopback; this only matters for a server
// whose accept backlog is full.
const dialTimeout = 5 * time.Second

type options struct {
	cutTimeout time.Duration
	opaque     bool
}

// Option configures a Proxy.
type Option func(*options)

// WithCutTimeout sets how long a Cut waits for the reply it is to drop
// (default DefaultCutTimeout).
func WithCutTimeout(d time.Duration) Option { return func(o *options) { o.cutTimeout = d } }

// Proxy relays ZooKeeper client connections to one server and injects
// faults into them. Its methods are safe for concurrent use.
type Proxy struct {
	target string
	ln     net.Listener
	opts   options
	ctx    context.Context // ends when the proxy closes; aborts dials
	cancel context.CancelFunc
	wg     sync.WaitGroup // every goroutine the proxy started
	stats  counters

	mu      sync.Mutex
	closed  bool
	links   map[*link]struct{}
	faults  faults
	cut     *Cut          // armed, not yet claimed by a request
	changed chan struct{} // closed and replaced when faults change, to wake held frames
	// observer sees every request relayed (OnRequest).
	observer func(op Op, req []byte)
}

// faults is the fault state that held frames wait on.
type faults struct {
	blackholeUntil   time.Time
	blackholeForever bool
	delay            time.Duration
}

// New starts a proxy on 127.0.0.1 (a free port) in front of the ZooKeeper
// server at target.
func New(target string, opts ...Option) (*Proxy, error) {
	o := options{cutTimeout: DefaultCutTimeout}
	for _, opt := range opts {
		opt(&o)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("faultinject: listen: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	p := &Proxy{
		target:  target,
		ln:      ln,
		opts:    o,
		ctx:     ctx,
		cancel:  cancel,
		links:   make(map[*link]struct{}),
		changed: make(chan struct{}),
	}
	p.stats.requests = make(map[Op]int64)
	p.wg.Add(1)
	go p.acceptLoop()
	return p, nil
}

// Addr returns the address clients connect to instead of the server's.
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// Target returns the server's address.
func (p *Proxy) Target() string { return p.target }

func (p *Proxy) acceptLoop() {
	defer p.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			// Out of file descriptors, say: back off rather than spin.
			select {
			case <-p.ctx.Done():
				return
			case <-time.After(10 * time.Millisecond):
			}
			continue
		}
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			c.Close()
			return
		}
		l := newLink(p, c)
		p.links[l] = struct{}{}
		p.wg.Add(1)
		p.mu.Unlock()
		p.stats.accepted.Add(1)
		go l.run()
	}
}

func (p *Proxy) removeLink(l *link) {
	p.mu.Lock()
	delete(p.links, l)
	p.mu.Unlock()
}

// Conns returns the number of open client connections.
func (p *Proxy) Conns() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.links)
}

// Close stops the listener, closes every connection and waits for every
// goroutine of the proxy to end. A Cut still armed ends with ErrClosed.
func (p *Proxy) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	links := p.linksLocked()
	cut := p.cut
	p.cut = nil
	p.mu.Unlock()
	p.cancel()
	err := p.ln.Close()
	for _, l := range links {
		l.close()
	}
	if cut != nil {
		cut.cancel(ErrClosed)
	}
	p.wg.Wait()
	if err != nil && !errors.Is(err, net.ErrClosed) {
		return fmt.Errorf("faultinject: close: %w", err)
	}
	return nil
}

func (p *Proxy) linksLocked() []*link {
	links := make([]*link, 0, len(p.links))
	for l := range p.links {
		links = append(links, l)
	}
	return links
}
