package faultinject

import (
	"errors"
	"io"
	"syscall"
	"testing"
	"time"
)

// TestResetSendsRST: after Reset the client's end reads ECONNRESET, where
// after Sever (the control) it reads an orderly end of stream.
func TestResetSendsRST(t *testing.T) {
	srv := newFakeServer(t)
	p := newProxy(t, srv.addr())
	for _, reset := range []bool{true, false} {
		fc := dialFake(t, p.Addr())
		n := 0
		if reset {
			n = p.Reset()
		} else {
			n = p.Sever()
		}
		if n != 1 {
			t.Fatalf("reset %v: %d connections closed, want 1", reset, n)
		}
		fc.c.SetReadDeadline(time.Now().Add(5 * time.Second))
		_, err := fc.c.Read(make([]byte, 1))
		switch {
		case reset && !errors.Is(err, syscall.ECONNRESET):
			t.Fatalf("read after Reset: %v, want ECONNRESET", err)
		case !reset && !errors.Is(err, io.EOF):
			t.Fatalf("read after Sever: %v, want EOF", err)
		}
	}
}
