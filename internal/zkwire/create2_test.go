package zkwire

import (
	"encoding/binary"
	"testing"
)

// create2Body is a create2 reply's payload: header, path, Stat.
func create2Body(code int32, path string, st Stat) []byte {
	be := binary.BigEndian
	b := make([]byte, ReplyHeaderLen, ReplyHeaderLen+4+len(path)+StatLen)
	be.PutUint32(b[0:], 5)
	be.PutUint64(b[4:], uint64(st.Czxid))
	be.PutUint32(b[12:], uint32(code))
	b = be.AppendUint32(b, uint32(len(path)))
	b = append(b, path...)
	for _, v := range []int64{st.Czxid, st.Mzxid, st.Ctime, st.Mtime} {
		b = be.AppendUint64(b, uint64(v))
	}
	for _, v := range []int32{st.Version, st.Cversion, st.Aversion} {
		b = be.AppendUint32(b, uint32(v))
	}
	b = be.AppendUint64(b, uint64(st.EphemeralOwner))
	b = be.AppendUint32(b, uint32(st.DataLength))
	b = be.AppendUint32(b, uint32(st.NumChildren))
	return be.AppendUint64(b, uint64(st.Pzxid))
}

func TestCreate2Reply(t *testing.T) {
	want := Stat{Czxid: 0x100000007, Mzxid: 0x100000008, Ctime: 11, Mtime: 12, Version: 13, Cversion: 14,
		Aversion: 15, EphemeralOwner: 0x7700000001, DataLength: 16, NumChildren: 17, Pzxid: 0x100000009}
	const p = "/locks/a/_c_x-lock-0000000003"
	path, st, ok := Create2Reply(create2Body(0, p, want))
	if !ok || path != p || st != want {
		t.Fatalf("Create2Reply = %q %+v %v, want %q %+v", path, st, ok, p, want)
	}
	// Controls: each must be refused, never read as a Stat.
	full := create2Body(0, p, want)
	plainCreate := full[:ReplyHeaderLen+4+len(p)] // a create (opcode 1) reply: path only
	for name, body := range map[string][]byte{
		"error reply":   create2Body(-110, p, want)[:ReplyHeaderLen],
		"error code":    create2Body(-110, p, want),
		"create reply":  plainCreate,
		"stat cut":      full[:len(full)-1],
		"header only":   full[:ReplyHeaderLen],
		"short header":  full[:ReplyHeaderLen-1],
		"negative path": append(append(append([]byte{}, full[:ReplyHeaderLen]...), 0xff, 0xff, 0xff, 0xff), full[ReplyHeaderLen+4:]...),
	} {
		if _, _, ok := Create2Reply(body); ok {
			t.Errorf("%s: parsed as a create2 reply", name)
		}
	}
}

func TestScannerAtBoundary(t *testing.T) {
	f := NewScanner(ReplyHeaderLen, func(bool) int { return ReplyHeaderLen }, func(bool, []byte) {})
	r := reply(1, 2, 0, 10)
	if !f.AtBoundary() || f.Started() {
		t.Fatal("a new scanner is not at a boundary, or has started")
	}
	for i := 0; i < len(r)-1; i++ {
		f.Feed(r[i : i+1])
		if f.AtBoundary() {
			t.Fatalf("at a boundary after %d of %d bytes", i+1, len(r))
		}
	}
	f.Feed(r[len(r)-1:])
	if !f.AtBoundary() || !f.Started() {
		t.Fatal("not at a boundary, or not started, after a whole frame")
	}
}
