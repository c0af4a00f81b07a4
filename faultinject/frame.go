package faultinject

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"time"
)

// MaxFrame is the largest frame the proxy relays. ZooKeeper's default
// jute.maxbuffer is 1 MiB; anything far beyond it means the stream is not
// ZooKeeper's protocol (a four-letter word, say), and the connection is
// closed rather than buffered without bound.
const MaxFrame = 16 << 20

// errFrameTooLarge is why a connection whose length prefix exceeds MaxFrame
// was closed.
var errFrameTooLarge = errors.New("faultinject: frame too large")

// frame is one length-prefixed message, kept verbatim (prefix included) so
// that relaying it is a single write.
type frame struct {
	buf   []byte
	at    time.Time // when the proxy finished reading it
	first bool      // the connect request or response, which has no header
}

func (f frame) body() []byte { return f.buf[4:] }

func readFrame(r *bufio.Reader) ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if n > MaxFrame {
		return nil, fmt.Errorf("%w: %d bytes", errFrameTooLarge, n)
	}
	buf := make([]byte, 4+int(n))
	copy(buf, hdr[:])
	if _, err := io.ReadFull(r, buf[4:]); err != nil {
		return nil, err
	}
	return buf, nil
}

// requestHeader parses a client frame's header: xid int32, opcode int32.
func requestHeader(body []byte) (xid int32, op Op, ok bool) {
	if len(body) < 8 {
		return 0, 0, false
	}
	return int32(binary.BigEndian.Uint32(body)), Op(int32(binary.BigEndian.Uint32(body[4:]))), true
}

// replyHeader parses a server frame's header: xid int32, zxid int64, err int32.
func replyHeader(body []byte) (xid int32, zxid int64, errCode int32, ok bool) {
	if len(body) < 16 {
		return 0, 0, 0, false
	}
	return int32(binary.BigEndian.Uint32(body)), int64(binary.BigEndian.Uint64(body[4:])),
		int32(binary.BigEndian.Uint32(body[12:])), true
}
