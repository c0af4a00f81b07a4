package zkwire

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"reflect"
	"testing"
)

// The fuzz targets below cover every parser of a ZooKeeper connection's
// bytes: faultinject's proxy reads every byte a client or server sends with
// ReadFrame, and impl/zklock's loss timer scans go-zookeeper's with Scanner
// and RequestPath. Their seed corpora are in testdata/fuzz; `make fuzz`
// runs each for a few seconds.

// FuzzReadFrame: frames come out whole and no larger than MaxFrame, the
// header parsers accept any frame without panicking, and the frames put
// back together are a prefix of the input (nothing is invented or
// reordered).
func FuzzReadFrame(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		r := bufio.NewReader(bytes.NewReader(data))
		var got []byte
		for {
			buf, err := ReadFrame(r)
			if err != nil {
				break
			}
			n := binary.BigEndian.Uint32(buf[:4])
			if int(n) != len(buf)-4 || n > MaxFrame {
				t.Fatalf("frame of %d bytes says %d", len(buf)-4, n)
			}
			RequestHeader(buf[4:])
			ReplyHeader(buf[4:])
			ConnectReply(buf[4:])
			got = append(got, buf...)
		}
		if !bytes.HasPrefix(data, got) {
			t.Fatalf("frames read are not the input's prefix")
		}
	})
}

// FuzzFrameScanner: the headers the scanner emits do not depend on how the
// connection splits its bytes, and each is the start of a frame's payload.
func FuzzFrameScanner(f *testing.F) {
	f.Fuzz(func(t *testing.T, stream []byte, cut uint8) {
		run := func(pieces [][]byte) [][]byte {
			var got [][]byte
			s := NewScanner(24, func(first bool) int {
				if first {
					return 16
				}
				return 24
			}, func(_ bool, hdr []byte) { got = append(got, bytes.Clone(hdr)) })
			for _, p := range pieces {
				s.Feed(p)
			}
			return got
		}
		whole := run([][]byte{stream})
		step := int(cut)%7 + 1
		var pieces [][]byte
		for i := 0; i < len(stream); i += step {
			pieces = append(pieces, stream[i:min(i+step, len(stream))])
		}
		if split := run(pieces); !reflect.DeepEqual(whole, split) {
			t.Fatalf("split into pieces of %d: %d headers, whole: %d", step, len(split), len(whole))
		}
		// Each header is the start of a frame's payload, in order.
		rest := stream
		for i, h := range whole {
			if len(rest) < 4 {
				t.Fatalf("header %d emitted past the stream's end", i)
			}
			n := int(binary.BigEndian.Uint32(rest))
			if n < 0 || 4+n > len(rest) && len(h) > len(rest)-4 {
				t.Fatalf("header %d: longer than what the stream holds", i)
			}
			if !bytes.HasPrefix(rest[4:], h) {
				t.Fatalf("header %d is not the start of its frame", i)
			}
			if 4+n > len(rest) {
				break
			}
			rest = rest[4+n:]
		}
	})
}

// FuzzRequestPath: the path a traced write names is a substring of its
// request, and no request makes it panic.
func FuzzRequestPath(f *testing.F) {
	f.Fuzz(func(t *testing.T, hdr []byte) {
		if p := RequestPath(hdr); p != "" && !bytes.Contains(hdr, []byte(p)) {
			t.Fatalf("path %q is not in the request", p)
		}
	})
}
