package zkwire

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
		f := NewScanner(ReplyHeaderLen, func(bool) int { return ReplyHeaderLen }, func(first bool, hdr []byte) {
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
			f.Feed(rest[:n])
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

// request builds a request payload: header, then body fields.
func request(op Op, body ...[]byte) []byte {
	p := binary.BigEndian.AppendUint32(nil, 42)
	p = binary.BigEndian.AppendUint32(p, uint32(op))
	for _, b := range body {
		p = append(p, b...)
	}
	return p
}

func zkString(s string) []byte {
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(s))), s...)
}

// A write's zxid is traced by the path its request names.
func TestRequestPath(t *testing.T) {
	multiHdr := []byte{0, 0, 0, 1, 0, 0xff, 0xff, 0xff, 0xff} // create, not done, err -1
	for _, tc := range []struct {
		name string
		req  []byte
		want string
	}{
		{"create", request(OpCreate, zkString("/a/_c_x-lock-"), zkString("data")), "/a/_c_x-lock-"},
		{"delete", request(OpDelete, zkString("/a/n-0000000001"), []byte{0, 0, 0, 0}), "/a/n-0000000001"},
		{"container", request(OpCreateContainer, zkString("/a")), "/a"},
		{"multi", request(OpMulti, multiHdr, zkString("/a/r-0000000003")), "/a/r-0000000003"},
		{"read", request(12, zkString("/a")), ""},
		{"truncated path", request(OpDelete, zkString("/a/n")[:6]), ""},
		{"negative length", request(OpDelete, []byte{0xff, 0xff, 0xff, 0xff}), ""},
		{"no body", request(OpCreate), ""},
		{"short multi", request(OpMulti, multiHdr[:4]), ""},
		{"no header", []byte{1, 2}, ""},
	} {
		if got := RequestPath(tc.req); got != tc.want {
			t.Errorf("%s: RequestPath = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// The header parsers read the fields where ZooKeeper puts them, and refuse
// a payload too short to hold them.
func TestHeaders(t *testing.T) {
	if xid, op, ok := RequestHeader(request(OpMulti)); !ok || xid != 42 || op != OpMulti {
		t.Errorf("RequestHeader = %d, %v, %v", xid, op, ok)
	}
	rep := reply(-1, 0x1122334455, ErrSessionExpired, 3)[4:]
	if xid, zxid, code, ok := ReplyHeader(rep); !ok || xid != XidNotification || zxid != 0x1122334455 || code != ErrSessionExpired {
		t.Errorf("ReplyHeader = %d, %x, %d, %v", xid, zxid, code, ok)
	}
	connect := make([]byte, ConnectReplyLen)
	binary.BigEndian.PutUint32(connect[4:], 4000)
	binary.BigEndian.PutUint64(connect[8:], 0x1234)
	if ms, sid, ok := ConnectReply(connect); !ok || ms != 4000 || sid != 0x1234 {
		t.Errorf("ConnectReply = %d, %x, %v", ms, sid, ok)
	}
	if _, _, ok := RequestHeader(make([]byte, RequestHeaderLen-1)); ok {
		t.Error("RequestHeader accepted a short payload")
	}
	if _, _, _, ok := ReplyHeader(rep[:ReplyHeaderLen-1]); ok {
		t.Error("ReplyHeader accepted a short payload")
	}
	if _, _, ok := ConnectReply(connect[:ConnectReplyLen-1]); ok {
		t.Error("ConnectReply accepted a short payload")
	}
	if OpCreate.String() != "create" || Op(99).String() != "op(99)" {
		t.Errorf("names: %v, %v", OpCreate, Op(99))
	}
}
