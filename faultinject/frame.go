package faultinject

import (
	"time"

	"github.com/zklock/zklock/internal/zkwire"
)

// MaxFrame is the largest frame the proxy relays. ZooKeeper's default
// jute.maxbuffer is 1 MiB; anything far beyond it means the stream is not
// ZooKeeper's protocol (a four-letter word, say), and the connection is
// closed rather than buffered without bound (zkwire.ReadFrame refuses it).
const MaxFrame = zkwire.MaxFrame

// frame is one length-prefixed message, kept verbatim (prefix included) so
// that relaying it is a single write.
type frame struct {
	buf    []byte
	at     time.Time // when the proxy finished reading it
	first  bool      // the connect request or response, which has no header
	opaque bool      // bytes of an opaque stream, not a frame (WithOpaqueStream)
}

func (f frame) body() []byte { return f.buf[4:] }
