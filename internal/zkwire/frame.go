package zkwire

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// Every frame is a 4-byte big-endian length, then that many bytes of
// payload. The payload starts with a header: a request's is RequestHeaderLen
// bytes (xid int32, opcode int32), a reply's ReplyHeaderLen (xid int32, zxid
// int64, err int32). The first frame each way has no such header: the
// connect request, and the connect reply, whose first ConnectReplyLen bytes
// are protocol version int32, timeout int32 (milliseconds) and session id
// int64.
const (
	RequestHeaderLen = 8
	ReplyHeaderLen   = 16
	ConnectReplyLen  = 16
)

// MaxFrame is the largest frame ReadFrame accepts. ZooKeeper's default
// jute.maxbuffer is 1 MiB; anything far beyond it means the stream is not
// ZooKeeper's protocol (a four-letter word, say), and the connection should
// be closed rather than buffered without bound.
const MaxFrame = 16 << 20

// ErrFrameTooLarge is why ReadFrame refused a frame whose length prefix
// exceeds MaxFrame.
var ErrFrameTooLarge = errors.New("zkwire: frame too large")

// ReadFrame reads one whole frame and returns it verbatim, length prefix
// included, so that relaying it is a single write.
func ReadFrame(r *bufio.Reader) ([]byte, error) {
	var hdr [4]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if n > MaxFrame {
		return nil, fmt.Errorf("%w: %d bytes", ErrFrameTooLarge, n)
	}
	buf := make([]byte, 4+int(n))
	copy(buf, hdr[:])
	if _, err := io.ReadFull(r, buf[4:]); err != nil {
		return nil, err
	}
	return buf, nil
}

// RequestHeader parses a client frame's header (its payload, after the
// length prefix): xid int32, opcode int32.
func RequestHeader(body []byte) (xid int32, op Op, ok bool) {
	if len(body) < RequestHeaderLen {
		return 0, 0, false
	}
	return int32(binary.BigEndian.Uint32(body)), Op(int32(binary.BigEndian.Uint32(body[4:]))), true
}

// ReplyHeader parses a server frame's header: xid int32, zxid int64, err int32.
func ReplyHeader(body []byte) (xid int32, zxid int64, errCode int32, ok bool) {
	if len(body) < ReplyHeaderLen {
		return 0, 0, 0, false
	}
	return int32(binary.BigEndian.Uint32(body)), int64(binary.BigEndian.Uint64(body[4:])),
		int32(binary.BigEndian.Uint32(body[12:])), true
}

// ConnectReply parses the start of the connect reply: the session timeout
// in milliseconds and the session id, which is 0 when the server refused to
// resume an expired session.
func ConnectReply(body []byte) (timeoutMs int32, sessionID int64, ok bool) {
	if len(body) < ConnectReplyLen {
		return 0, 0, false
	}
	return int32(binary.BigEndian.Uint32(body[4:8])), int64(binary.BigEndian.Uint64(body[8:16])), true
}

// MultiOpHeaderLen is the header of each op inside a multi request: type
// int32, done bool, err int32.
const MultiOpHeaderLen = 9

// RequestPath returns the path a create, delete or multi request names (a
// multi's is its first op's), given the request's payload from its header
// on; "" for any other request, or when the path is cut short.
func RequestPath(hdr []byte) string {
	_, op, ok := RequestHeader(hdr)
	if !ok {
		return ""
	}
	body := hdr[RequestHeaderLen:]
	switch op {
	case OpCreate, OpDelete, OpCreate2, OpCreateContainer:
	case OpMulti:
		if len(body) < MultiOpHeaderLen {
			return ""
		}
		body = body[MultiOpHeaderLen:]
	default:
		return ""
	}
	if len(body) < 4 {
		return ""
	}
	n := int(int32(binary.BigEndian.Uint32(body[:4])))
	if n <= 0 || n > len(body)-4 {
		return ""
	}
	return string(body[4 : 4+n])
}

// StatLen is the size of a node's Stat on the wire: czxid, mzxid, ctime,
// mtime int64; version, cversion, aversion int32; ephemeralOwner int64;
// dataLength, numChildren int32; pzxid int64.
const StatLen = 68

// Stat is a node's Stat as the server sends it.
type Stat struct {
	Czxid, Mzxid, Ctime, Mtime  int64
	Version, Cversion, Aversion int32
	EphemeralOwner              int64
	DataLength, NumChildren     int32
	Pzxid                       int64
}

// Create2Reply parses the reply to a create2 request (ZooKeeper 3.5 and
// later: the created path, then the new node's Stat), given the reply's
// payload from its header on. ok is false for a reply that is not a
// successful create2's, or that is cut short.
func Create2Reply(body []byte) (path string, st Stat, ok bool) {
	if _, _, code, hok := ReplyHeader(body); !hok || code != 0 {
		return "", Stat{}, false
	}
	body = body[ReplyHeaderLen:]
	if len(body) < 4 {
		return "", Stat{}, false
	}
	n := int(int32(binary.BigEndian.Uint32(body[:4])))
	if n <= 0 || n > len(body)-4-StatLen {
		return "", Stat{}, false
	}
	path, s := string(body[4:4+n]), body[4+n:]
	be := binary.BigEndian
	st = Stat{
		Czxid: int64(be.Uint64(s[0:])), Mzxid: int64(be.Uint64(s[8:])),
		Ctime: int64(be.Uint64(s[16:])), Mtime: int64(be.Uint64(s[24:])),
		Version: int32(be.Uint32(s[32:])), Cversion: int32(be.Uint32(s[36:])),
		Aversion: int32(be.Uint32(s[40:])), EphemeralOwner: int64(be.Uint64(s[44:])),
		DataLength: int32(be.Uint32(s[52:])), NumChildren: int32(be.Uint32(s[56:])),
		Pzxid: int64(be.Uint64(s[60:])),
	}
	return path, st, true
}

// RequestOpOffset is where a request frame's opcode sits, counted from the
// frame's start (its length prefix, then the xid).
const RequestOpOffset = 8
