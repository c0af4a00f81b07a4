package faultinject

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"testing"
)

// FuzzReadFrame feeds arbitrary bytes to the proxy's frame reader, the
// parser every byte a client or server sends goes through: frames come out
// whole and no larger than MaxFrame, the header parsers accept any frame
// without panicking, and the frames put back together are a prefix of the
// input (nothing is invented or reordered).
func FuzzReadFrame(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte) {
		r := bufio.NewReader(bytes.NewReader(data))
		var got []byte
		for {
			buf, err := readFrame(r)
			if err != nil {
				break
			}
			n := binary.BigEndian.Uint32(buf[:4])
			if int(n) != len(buf)-4 || n > MaxFrame {
				t.Fatalf("frame of %d bytes says %d", len(buf)-4, n)
			}
			fr := frame{buf: buf}
			requestHeader(fr.body())
			replyHeader(fr.body())
			got = append(got, buf...)
		}
		if !bytes.HasPrefix(data, got) {
			t.Fatalf("frames read are not the input's prefix")
		}
	})
}
