package zkwire

import "encoding/binary"

// Scanner splits one direction of a ZooKeeper connection into frames
// (4-byte big-endian length, then payload) and hands the first headerLen
// bytes of each payload to emit. It keeps only those bytes, so a 1 MB reply
// costs nothing to scan.
type Scanner struct {
	headerLen func(first bool) int // header bytes wanted; the first frame has no xid
	emit      func(first bool, header []byte)

	started bool    // a frame has been emitted already
	lenBuf  [4]byte // length prefix being collected
	lenN    int     // bytes of it collected
	size    int     // payload size of the current frame; -1 between frames
	hdr     []byte  // header bytes being collected
	hdrN    int
	want    int // header bytes wanted from this frame
	skip    int // payload bytes still to pass over after the header
}

// NewScanner keeps at most max bytes of a frame: headerLen says how many it
// wants of each (first is true for the connect request or reply), and emit
// gets them when the frame ends, however the frame was cut up. The slice
// passed to emit is reused for the next frame.
func NewScanner(max int, headerLen func(first bool) int, emit func(first bool, header []byte)) *Scanner {
	return &Scanner{headerLen: headerLen, emit: emit, size: -1, hdr: make([]byte, max)}
}

// Feed consumes bytes in whatever pieces the connection delivers them.
func (f *Scanner) Feed(p []byte) {
	for len(p) > 0 {
		switch {
		case f.size < 0: // reading the length prefix
			n := copy(f.lenBuf[f.lenN:], p)
			f.lenN += n
			p = p[n:]
			if f.lenN < 4 {
				return
			}
			f.lenN = 0
			f.size = int(int32(binary.BigEndian.Uint32(f.lenBuf[:])))
			if f.size < 0 {
				f.size = 0
			}
			f.want = min(f.headerLen(!f.started), f.size, len(f.hdr))
			f.hdrN = 0
			f.skip = f.size - f.want
			if f.size == 0 {
				f.done()
			}
		case f.hdrN < f.want:
			n := copy(f.hdr[f.hdrN:f.want], p)
			f.hdrN += n
			p = p[n:]
			if f.hdrN == f.want && f.skip == 0 {
				f.done()
			}
		default:
			n := min(f.skip, len(p))
			f.skip -= n
			p = p[n:]
			if f.skip == 0 {
				f.done()
			}
		}
	}
}

func (f *Scanner) done() {
	first := !f.started
	f.started = true
	f.size = -1
	f.emit(first, f.hdr[:f.hdrN])
}

// AtBoundary says whether the next byte fed starts a new frame.
func (f *Scanner) AtBoundary() bool { return f.size < 0 && f.lenN == 0 }

// Started says whether a whole frame has been fed: the next one is not the
// connect request or reply.
func (f *Scanner) Started() bool { return f.started }
