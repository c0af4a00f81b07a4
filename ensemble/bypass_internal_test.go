package ensemble

import (
	"bufio"
	"context"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// directPeerConns counts the established connections to the servers' real
// quorum and election ports that some other process (a server) opened: with
// every peer reached through this process's proxies there are none.
func directPeerConns(t *testing.T, e *Ensemble) int {
	t.Helper()
	real := map[int]bool{}
	for _, s := range e.State().Servers {
		real[s.QuorumPort], real[s.ElectionPort] = true, true
	}
	ours := map[string]bool{}
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	for _, fd := range fds {
		if l, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name())); err == nil && strings.HasPrefix(l, "socket:[") {
			ours[strings.TrimSuffix(strings.TrimPrefix(l, "socket:["), "]")] = true
		}
	}
	f, err := os.Open("/proc/net/tcp")
	if err != nil {
		t.Skipf("no /proc/net/tcp: %v", err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// sl local rem st tx:rx tr:when retrnsmt uid timeout inode
		fl := strings.Fields(sc.Text())
		if len(fl) < 10 || fl[3] != "01" { // 01: established
			continue
		}
		_, portHex, _ := strings.Cut(fl[2], ":")
		port, err := strconv.ParseInt(portHex, 16, 32)
		if err != nil || !real[int(port)] {
			continue
		}
		if !ours[fl[9]] {
			n++
		}
	}
	return n
}

// Servers reach each other only through the proxies: the election
// handshake's advertised address is rewritten, so a server that drops an
// incoming election connection and dials back dials a proxy too. The
// control, without the rewrite, must show direct connections.
func TestPeersConnectOnlyThroughProxies(t *testing.T) {
	if testing.Short() {
		t.Skip("starts ZooKeeper servers")
	}
	for _, rewrite := range []bool{true, false} {
		skipHelloRewrite.Store(!rewrite)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		e, err := Start(ctx, Config{Dir: t.TempDir()})
		if err == nil {
			// Server 0 has the lowest id: when it comes back, it dials
			// every peer, and each drops that connection and dials back.
			err = e.Restart(ctx, 0)
		}
		if err == nil {
			err = e.WaitHealthy(ctx)
		}
		cancel()
		skipHelloRewrite.Store(false)
		if err != nil {
			if e != nil {
				e.Stop()
			}
			t.Fatal(err)
		}
		n := directPeerConns(t, e)
		t.Logf("rewrite %v: %d direct connections between servers", rewrite, n)
		proxy := "127.0.0.1:" + strconv.Itoa(e.links.port(0, 1, portQuorum))
		if err := e.Stop(); err != nil {
			t.Fatal(err)
		}
		// Stop leaves no proxy listening.
		if c, err := net.Dial("tcp", proxy); err == nil {
			c.Close()
			t.Errorf("a link proxy still listens at %s after Stop", proxy)
		}
		if rewrite && n != 0 {
			t.Errorf("%d connections bypass the proxies", n)
		}
		if !rewrite && n == 0 {
			t.Errorf("control: without the rewrite no connection bypassed the proxies; the check sees nothing")
		}
	}
}
