package ensemble

import (
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Server-to-server links. In a multi-server ensemble that is not detached,
// every server reaches each peer through a TCP proxy of this process: one
// proxy per ordered pair (from, to) and per port (quorum, election),
// listening on 127.0.0.1 and forwarding to the peer's real port. Server
// from's zoo.cfg lists its peers at the addresses of its own proxies, while
// its own server line keeps its real ports, which it binds. Cutting the link
// between two servers gates every proxy between them, in both directions.

// portKind says which of a server's peer ports a proxy stands for.
type portKind int

const (
	portQuorum   portKind = iota // followers connect to the leader here
	portElection                 // leader election, between every pair
)

func (k portKind) String() string {
	if k == portQuorum {
		return "quorum"
	}
	return "election"
}

// gate is the state of one (unordered) link. Forwarders wait at it before
// moving bytes, so a cut holds bytes back rather than losing them: like a
// network that drops packets that TCP will retransmit after the heal.
type gate struct {
	mu     sync.Mutex
	cut    bool
	healed chan struct{} // closed when a cut ends; replaced by each cut
}

func newGate() *gate {
	g := &gate{healed: make(chan struct{})}
	close(g.healed)
	return g
}

func (g *gate) set(cut bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.cut == cut {
		return
	}
	g.cut = cut
	if cut {
		g.healed = make(chan struct{})
	} else {
		close(g.healed)
	}
}

func (g *gate) isCut() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.cut
}

// wait returns true once the link is not cut, false if done closes first.
func (g *gate) wait(done <-chan struct{}) bool {
	for {
		g.mu.Lock()
		cut, healed := g.cut, g.healed
		g.mu.Unlock()
		if !cut {
			return true
		}
		select {
		case <-healed:
		case <-done:
			return false
		}
	}
}

// linkProxy forwards one server's connections to one peer port.
type linkProxy struct {
	from, to int
	kind     portKind
	ln       net.Listener
	gate     *gate
	t        *linkTable

	mu    sync.Mutex
	conns map[net.Conn]struct{}
}

// linkTable holds every proxy of an ensemble and the gates between servers.
type linkTable struct {
	n       int
	proxies map[[3]int]*linkProxy // key: from, to, portKind
	gates   map[[2]int]*gate      // key: lower index, higher index
	done    chan struct{}         // closed by close: every forwarder gives up
	wg      sync.WaitGroup

	mu      sync.Mutex
	targets []serverPorts // the servers' real ports, set before each start
}

// newLinkTable listens for every proxy of an n-server ensemble. The
// listeners are ours from the start, so unlike the servers' ports they
// cannot be taken by someone else before use.
func newLinkTable(n int) (*linkTable, error) {
	t := &linkTable{n: n, proxies: map[[3]int]*linkProxy{}, gates: map[[2]int]*gate{},
		done: make(chan struct{}), targets: make([]serverPorts, n)}
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			t.gates[[2]int{i, j}] = newGate()
		}
	}
	for from := 0; from < n; from++ {
		for to := 0; to < n; to++ {
			if from == to {
				continue
			}
			for _, k := range []portKind{portQuorum, portElection} {
				ln, err := net.Listen("tcp", "127.0.0.1:0")
				if err != nil {
					t.close()
					return nil, fmt.Errorf("ensemble: link proxy: %w", err)
				}
				p := &linkProxy{from: from, to: to, kind: k, ln: ln, gate: t.gate(from, to), t: t,
					conns: map[net.Conn]struct{}{}}
				t.proxies[[3]int{from, to, int(k)}] = p
			}
		}
	}
	for _, p := range t.proxies {
		t.wg.Add(1)
		go p.serve()
	}
	return t, nil
}

func (t *linkTable) gate(i, j int) *gate {
	if i > j {
		i, j = j, i
	}
	return t.gates[[2]int{i, j}]
}

// port is the port server from dials to reach server to's port of kind k.
func (t *linkTable) port(from, to int, k portKind) int {
	return t.proxies[[3]int{from, to, int(k)}].ln.Addr().(*net.TCPAddr).Port
}

func (t *linkTable) setTargets(ports []serverPorts) {
	t.mu.Lock()
	defer t.mu.Unlock()
	copy(t.targets, ports)
}

func (t *linkTable) target(to int, k portKind) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	p := t.targets[to].quorum
	if k == portElection {
		p = t.targets[to].election
	}
	return "127.0.0.1:" + strconv.Itoa(p)
}

// close stops every proxy and closes every connection through them.
func (t *linkTable) close() {
	select {
	case <-t.done:
		return
	default:
	}
	close(t.done)
	for _, p := range t.proxies {
		p.ln.Close()
		p.mu.Lock()
		for c := range p.conns {
			c.Close()
		}
		p.mu.Unlock()
	}
	t.wg.Wait()
}

func (p *linkProxy) serve() {
	defer p.t.wg.Done()
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return // closed by linkTable.close
		}
		if !p.track(c) {
			return
		}
		p.t.wg.Add(1)
		go p.handle(c)
	}
}

// track registers c so that close can reach it; false if closing already.
func (p *linkProxy) track(c net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.t.done:
		c.Close()
		return false
	default:
	}
	p.conns[c] = struct{}{}
	return true
}

func (p *linkProxy) untrack(c net.Conn) {
	p.mu.Lock()
	delete(p.conns, c)
	p.mu.Unlock()
	c.Close()
}

// handle carries one connection. Across a cut link it is accepted (the
// kernel completes the handshake of a listening socket whatever we do) but
// not connected onwards until the heal: the dialer sees a peer that never
// answers, as behind dropped packets, and what it sends meanwhile waits in
// the socket buffers.
func (p *linkProxy) handle(c net.Conn) {
	defer p.t.wg.Done()
	defer p.untrack(c)
	if !p.gate.wait(p.t.done) {
		return
	}
	up, err := p.dialPeer()
	if err != nil {
		return // the peer is down: the dialer sees its connection closed
	}
	if !p.track(up) {
		return
	}
	defer p.untrack(up)
	if p.kind == portElection && !skipHelloRewrite.Load() {
		if err := p.rewriteElectionHello(c, up); err != nil {
			return
		}
	}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); p.pump(up, c) }()
	go func() { defer wg.Done(); p.pump(c, up) }()
	wg.Wait()
}

// peerPatience is how long a proxy keeps dialing a peer port that refuses.
// The dialer's connection is already accepted, so without it a port that is
// not bound yet would look to the dialer like a connection that broke after
// it was made. ZooKeeper answers the two differently: a follower refused by
// the leader it just elected retries at once, but one whose connection
// breaks gives up on that leader and starts a new election, and the leader,
// waiting for followers that never come, gives up after initLimit ticks:
// elections that take 5 to 20 s instead of under one. A new leader opens its
// quorum port a few milliseconds after it wins, well within the patience;
// a peer that is really down costs its dialers this long before they see
// the connection closed.
const peerPatience = time.Second

// dialPeer connects to the peer's port, retrying refusals for up to
// peerPatience or until the table closes.
func (p *linkProxy) dialPeer() (net.Conn, error) {
	give := time.Now().Add(peerPatience)
	for {
		var d net.Dialer
		up, err := d.Dial("tcp", p.t.target(p.to, p.kind))
		if err == nil || time.Now().After(give) {
			return up, err
		}
		select {
		case <-p.t.done:
			return nil, ErrStopped
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// pump copies src to dst, waiting at the gate before every write, and
// closes both ends when src ends. A close seen during a cut is passed on only
// after the heal, like the rest of what src sent.
func (p *linkProxy) pump(dst, src net.Conn) {
	defer dst.Close()
	defer src.Close()
	buf := make([]byte, 32<<10)
	for {
		n, rerr := src.Read(buf)
		if !p.gate.wait(p.t.done) {
			return
		}
		if n > 0 {
			if _, err := dst.Write(buf[:n]); err != nil {
				return
			}
		}
		if rerr != nil {
			return
		}
	}
}

// skipHelloRewrite is set only by the test that shows why the rewrite is
// needed.
var skipHelloRewrite atomic.Bool

// Election protocol versions that carry the sender's own election address
// after its id; older senders send their id alone.
const (
	electionProtoV1 = -65536
	electionProtoV2 = -65535
	maxElectionAddr = 4096
)

// rewriteElectionHello forwards the first message of an election
// connection, replacing the address the dialer advertises for itself (its
// real election port, from its own server line) by the address of the
// proxy that its peer uses to reach it. A server that drops an incoming
// election connection from a lower id dials back at the advertised address;
// without the rewrite that connection would bypass the proxies and cross
// every cut.
func (p *linkProxy) rewriteElectionHello(c, up net.Conn) error {
	var hdr [8]byte
	if _, err := io.ReadFull(c, hdr[:]); err != nil {
		return err
	}
	if !p.gate.wait(p.t.done) {
		return ErrStopped
	}
	version := int64(binary.BigEndian.Uint64(hdr[:]))
	if version != electionProtoV1 && version != electionProtoV2 {
		_, err := up.Write(hdr[:]) // an id alone: nothing to rewrite
		return err
	}
	var rest [12]byte // sid, length of the address
	if _, err := io.ReadFull(c, rest[:]); err != nil {
		return err
	}
	n := int(binary.BigEndian.Uint32(rest[8:]))
	if n < 0 || n > maxElectionAddr {
		return fmt.Errorf("ensemble: election hello with a %d-byte address", n)
	}
	if _, err := io.ReadFull(c, make([]byte, n)); err != nil {
		return err
	}
	addr := "127.0.0.1:" + strconv.Itoa(p.t.port(p.to, p.from, portElection))
	msg := append(append([]byte{}, hdr[:]...), rest[:8]...)
	msg = binary.BigEndian.AppendUint32(msg, uint32(len(addr)))
	msg = append(msg, addr...)
	_, err := up.Write(msg)
	return err
}
