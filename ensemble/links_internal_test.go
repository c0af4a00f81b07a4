package ensemble

import (
	"bufio"
	"errors"
	"io"
	"net"
	"os"
	"strconv"
	"testing"
	"time"
)

// echoServer accepts connections and echoes lines; closed reports, per
// connection, when the peer's close reached it.
func echoServer(t *testing.T) (port int, closed chan struct{}) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	closed = make(chan struct{}, 16)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				io.Copy(c, c)
				closed <- struct{}{}
			}()
		}
	}()
	return ln.Addr().(*net.TCPAddr).Port, closed
}

// quiet asserts that nothing arrives on c for a while: the cut holds bytes.
// It can only fail by something arriving, never by being slow.
func quiet(t *testing.T, c net.Conn) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
	var b [1]byte
	n, err := c.Read(b[:])
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() {
		t.Fatalf("read across a cut link: %d bytes, %v", n, err)
	}
	c.SetReadDeadline(time.Time{})
}

func readLine(t *testing.T, r *bufio.Reader, want string) {
	t.Helper()
	got, err := r.ReadString('\n')
	if err != nil || got != want {
		t.Fatalf("read %q, %v; want %q", got, err, want)
	}
}

func TestLinkCutHoldsBytesAndConnections(t *testing.T) {
	port, closed := echoServer(t)
	lt, err := newLinkTable(2)
	if err != nil {
		t.Fatal(err)
	}
	lt.setTargets([]serverPorts{{}, {quorum: port}})
	addr := "127.0.0.1:" + strconv.Itoa(lt.port(0, 1, portQuorum))

	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(c)
	io.WriteString(c, "a\n")
	readLine(t, r, "a\n")

	// An open connection stops carrying bytes, then delivers them intact.
	lt.gate(1, 0).set(true)
	io.WriteString(c, "b\n")
	quiet(t, c)
	// A new connection is accepted but goes nowhere until the heal.
	c2, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(c2, "c\n")
	quiet(t, c2)
	// A close is held too: the far side sees it only after the heal.
	c3, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	lt.gate(0, 1).set(false)
	io.WriteString(c3, "d\n")
	readLine(t, bufio.NewReader(c3), "d\n")
	lt.gate(0, 1).set(true)
	c3.Close()
	select {
	case <-closed:
		t.Fatal("a close crossed the cut")
	case <-time.After(300 * time.Millisecond):
	}

	lt.gate(0, 1).set(false)
	readLine(t, r, "b\n")
	readLine(t, bufio.NewReader(c2), "c\n")
	<-closed // c3's close, delivered at the heal

	// close tears down listeners and connections.
	lt.close()
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := c.Read(make([]byte, 1)); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("connection open after close: %v", err)
	}
	if _, err := net.Dial("tcp", addr); err == nil {
		t.Fatal("proxy listens after close")
	}
	c2.Close()
}

// A peer port bound a moment after the dialer connected (a leader opens its
// quorum port just after it wins the election) is reached, not closed on the
// dialer; the control, a port never bound, is closed once the patience runs
// out.
func TestLinkWaitsForAPortBoundLate(t *testing.T) {
	free, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := free.Addr().(*net.TCPAddr).Port
	free.Close()
	never, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	neverPort := never.Addr().(*net.TCPAddr).Port
	never.Close()
	lt, err := newLinkTable(3)
	if err != nil {
		t.Fatal(err)
	}
	defer lt.close()
	lt.setTargets([]serverPorts{{}, {quorum: port}, {quorum: neverPort}})

	c, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(lt.port(0, 1, portQuorum)))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	io.WriteString(c, "early\n")
	time.Sleep(peerPatience / 4)
	ln, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(port))
	if err != nil {
		t.Skipf("the freed port was taken meanwhile: %v", err)
	}
	defer ln.Close()
	go func() {
		s, err := ln.Accept()
		if err == nil {
			defer s.Close()
			io.Copy(s, s)
		}
	}()
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	readLine(t, bufio.NewReader(c), "early\n")

	d, err := net.Dial("tcp", "127.0.0.1:"+strconv.Itoa(lt.port(0, 2, portQuorum)))
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	d.SetReadDeadline(time.Now().Add(10 * time.Second))
	if n, err := d.Read(make([]byte, 1)); err != io.EOF {
		t.Fatalf("a port never bound: read %d bytes, %v; want the connection closed (EOF)", n, err)
	}
}
