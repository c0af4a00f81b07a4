package faultinject

import (
	"bufio"
	"context"
	"net"
	"sync"
	"time"

	"github.com/zklock/zklock/internal/zkwire"
)

// queueLen is how many frames a direction buffers between its reader and
// writer. Beyond it the reader stops reading and TCP flow control pushes
// back on the sender, as a slow network would.
const queueLen = 256

// link is one client connection and the proxy's connection to the server.
// Each direction has a reader, which stamps frames with their arrival time,
// and a writer, which holds each frame while a blackhole or delay says so:
// splitting them is what lets a delay add latency without limiting
// throughput.
type link struct {
	p      *Proxy
	client net.Conn
	ctx    context.Context // aborts the dial when the link closes
	cancel context.CancelFunc

	closeOnce sync.Once
	done      chan struct{}
	cutKick   chan struct{} // tells the client-side writer a cut was armed

	mu     sync.Mutex
	server net.Conn  // nil until dialed
	armed  *armedCut // the cut whose reply this link waits to drop
}

type armedCut struct {
	cut *Cut
	xid int32
}

func newLink(p *Proxy, client net.Conn) *link {
	ctx, cancel := context.WithCancel(p.ctx)
	return &link{
		p:       p,
		client:  client,
		ctx:     ctx,
		cancel:  cancel,
		done:    make(chan struct{}),
		cutKick: make(chan struct{}, 1),
	}
}

// run dials the server and relays until either side closes or a fault
// severs the link.
func (l *link) run() {
	defer l.p.wg.Done()
	defer l.p.removeLink(l)
	defer l.finishCut()
	defer l.close()
	d := net.Dialer{Timeout: dialTimeout}
	s, err := d.DialContext(l.ctx, "tcp", l.p.target)
	if err != nil {
		// The client sees its connection closed, as it would have seen
		// the server refuse it.
		return
	}
	l.mu.Lock()
	select {
	case <-l.done:
		l.mu.Unlock()
		s.Close()
		return
	default:
	}
	l.server = s
	l.mu.Unlock()

	toServer := make(chan frame, queueLen)
	toClient := make(chan frame, queueLen)
	var wg sync.WaitGroup
	wg.Add(4)
	go func() { defer wg.Done(); l.read(l.client, toServer) }()
	go func() { defer wg.Done(); l.read(s, toClient) }()
	go func() { defer wg.Done(); l.writeToServer(s, toServer) }()
	go func() { defer wg.Done(); l.writeToClient(toClient) }()
	wg.Wait()
}

// close closes both connections; it reports whether this call did it.
func (l *link) close() bool {
	did := false
	l.closeOnce.Do(func() {
		did = true
		l.mu.Lock()
		close(l.done)
		s := l.server
		l.mu.Unlock()
		l.cancel()
		l.client.Close()
		if s != nil {
			s.Close()
		}
	})
	return did
}

// sever is close by a fault, counted as such.
func (l *link) sever() bool {
	if l.close() {
		l.p.stats.severed.Add(1)
		return true
	}
	return false
}

// finishCut ends a cut whose reply never came: the link closed first.
func (l *link) finishCut() {
	l.mu.Lock()
	a := l.armed
	l.mu.Unlock()
	if a != nil {
		a.cut.finish(false, 0, 0)
	}
}

// read reads frames from src into q until src fails or the link closes.
// Closing q tells the writer that no more frames will come: it closes the
// link once the frames before have been delivered, so that a close, like
// data, is held by a blackhole.
func (l *link) read(src net.Conn, q chan<- frame) {
	if l.p.opts.opaque {
		l.readOpaque(src, q)
		return
	}
	defer close(q)
	br := bufio.NewReaderSize(src, 64<<10)
	for first := true; ; first = false {
		buf, err := zkwire.ReadFrame(br)
		if err != nil {
			return
		}
		select {
		case q <- frame{buf: buf, at: time.Now(), first: first}:
		case <-l.done:
			return
		}
	}
}

// hold waits until f may be delivered under the current faults; false if
// the link closed meanwhile. Faults are re-read whenever they change, so
// Heal releases held frames at once.
func (l *link) hold(f frame) bool {
	var t *time.Timer
	defer func() {
		if t != nil {
			t.Stop()
		}
	}()
	for {
		fs, changed := l.p.faultState()
		var wake <-chan time.Time
		if !fs.blackholeForever {
			release := f.at.Add(fs.delay)
			if fs.blackholeUntil.After(release) {
				release = fs.blackholeUntil
			}
			d := time.Until(release)
			if d <= 0 {
				return true
			}
			if t == nil {
				t = time.NewTimer(d)
			} else {
				t.Reset(d)
			}
			wake = t.C
		}
		select {
		case <-wake:
		case <-changed:
		case <-l.done:
			return false
		}
	}
}

// admit reports whether a writer may relay f, received with ok from its
// queue: a closed queue closes the link; otherwise f waits out the
// current faults (hold). False when the link is done.
func (l *link) admit(f frame, ok bool) bool {
	if !ok {
		l.close()
		return false
	}
	return l.hold(f)
}

func (l *link) writeToServer(s net.Conn, q <-chan frame) {
	for {
		var f frame
		var ok bool
		select {
		case f, ok = <-q:
		case <-l.done:
			return
		}
		if !l.admit(f, ok) {
			return
		}
		op, known := OpCreateSession, !f.opaque
		if !f.first && !f.opaque {
			var xid int32
			xid, op, known = zkwire.RequestHeader(f.body())
			if known {
				l.maybeClaimCut(op, xid)
			}
		}
		// Counted before the write so that whoever sees the effect of a
		// frame also sees it counted.
		l.p.stats.clientFrames.Add(1)
		if known {
			l.p.stats.request(op)
			if !f.first {
				l.p.observe(op, f.body())
			}
		}
		if _, err := s.Write(f.buf); err != nil {
			l.close()
			return
		}
	}
}

// maybeClaimCut takes the proxy's armed cut for this request if it matches.
// It runs before the request is written, so the reply cannot overtake it.
func (l *link) maybeClaimCut(op Op, xid int32) {
	l.mu.Lock()
	busy := l.armed != nil
	l.mu.Unlock()
	if busy {
		return
	}
	c := l.p.claimCut(op, xid)
	if c == nil {
		return
	}
	l.mu.Lock()
	l.armed = &armedCut{cut: c, xid: xid}
	l.mu.Unlock()
	select {
	case l.cutKick <- struct{}{}:
	default:
	}
}

func (l *link) armedCut() *armedCut {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.armed
}

func (l *link) writeToClient(q <-chan frame) {
	var timeout <-chan time.Time
	var t *time.Timer
	defer func() {
		if t != nil {
			t.Stop()
		}
	}()
	for {
		var f frame
		var ok bool
		select {
		case <-l.cutKick:
			t = time.NewTimer(l.p.opts.cutTimeout)
			timeout = t.C
			continue
		case <-timeout:
			// No reply in time: sever anyway; run reports the cut.
			l.sever()
			return
		case f, ok = <-q:
		case <-l.done:
			return
		}
		if !l.admit(f, ok) {
			return
		}
		if !f.first && !f.opaque {
			if xid, zxid, errCode, ok := zkwire.ReplyHeader(f.body()); ok {
				if a := l.armedCut(); a != nil && a.xid == xid {
					l.p.stats.repliesCut.Add(1)
					l.sever()
					a.cut.finish(true, zxid, errCode)
					return
				}
				if xid == XidNotification {
					l.p.stats.notifications.Add(1)
				}
			}
		}
		l.p.stats.serverFrames.Add(1)
		if _, err := l.client.Write(f.buf); err != nil {
			l.close()
			return
		}
	}
}
