package faultinject

import (
	"errors"
	"net"
	"time"
)

// ErrOpaque: a CutAfterRequest on a proxy that relays an opaque stream
// (see WithOpaqueStream), which cannot see requests.
var ErrOpaque = errors.New("faultinject: opaque stream: requests cannot be seen")

// WithOpaqueStream makes the proxy relay bytes as they come instead of
// ZooKeeper frames, for a stream it cannot read, such as TLS. Faults that
// work on the connection (Sever, Blackhole, Delay, which then delays each
// chunk read) work as before; CutAfterRequest, which must find a request
// and its reply, returns a Cut that ends at once with ErrOpaque, and the
// request and reply counts of Stats stay zero.
func WithOpaqueStream() Option { return func(o *options) { o.opaque = true } }

// opaqueChunk is the most one read of an opaque stream relays at once.
const opaqueChunk = 32 << 10

// readOpaque is read for an opaque stream: each read is a frame.
func (l *link) readOpaque(src net.Conn, q chan<- frame) {
	defer close(q)
	for {
		buf := make([]byte, opaqueChunk)
		n, err := src.Read(buf)
		if n > 0 {
			select {
			case q <- frame{buf: buf[:n], at: time.Now(), opaque: true}:
			case <-l.done:
				return
			}
		}
		if err != nil {
			return
		}
	}
}
