package zklock

import (
	"encoding/binary"
	"math/rand"
	"testing"
)

func frame(payload []byte) []byte {
	b := make([]byte, 4+len(payload))
	binary.BigEndian.PutUint32(b, uint32(len(payload)))
	copy(b[4:], payload)
	return b
}

func reply(xid int32, zxid int64, code int32, body int) []byte {
	p := make([]byte, 16+body)
	binary.BigEndian.PutUint32(p[0:], uint32(xid))
	binary.BigEndian.PutUint64(p[4:], uint64(zxid))
	binary.BigEndian.PutUint32(p[12:], uint32(code))
	return frame(p)
}

// The scanner must see the same frames however the stream is cut up.
func TestFrameScannerAnySplit(t *testing.T) {
	var stream []byte
	connect := make([]byte, 16+20)
	binary.BigEndian.PutUint32(connect[4:], 4000)
	binary.BigEndian.PutUint64(connect[8:], 0x1234)
	stream = append(stream, frame(connect)...)
	want := []int32{7, -2, -1, 9, 11}
	for i, xid := range want {
		stream = append(stream, reply(xid, int64(i), 0, i*1000)...)
	}
	stream = append(stream, frame(nil)...) // an empty frame is a frame too
	rng := rand.New(rand.NewSource(1))
	for trial := 0; trial < 200; trial++ {
		var got []int32
		firsts := 0
		f := newFrameScanner(replyHeaderLen, func(first bool, hdr []byte) {
			if first {
				firsts++
				if sid := binary.BigEndian.Uint64(hdr[8:16]); sid != 0x1234 {
					t.Fatalf("connect reply session id %x", sid)
				}
				return
			}
			if len(hdr) == 0 {
				got = append(got, 0)
				return
			}
			got = append(got, int32(binary.BigEndian.Uint32(hdr)))
		})
		for rest := stream; len(rest) > 0; {
			n := 1 + rng.Intn(min(len(rest), 40))
			if trial == 0 {
				n = len(rest)
			}
			f.feed(rest[:n])
			rest = rest[n:]
		}
		if firsts != 1 || len(got) != len(want)+1 {
			t.Fatalf("trial %d: firsts %d, frames %v", trial, firsts, got)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("trial %d: xids %v, want %v", trial, got, want)
			}
		}
	}
}
