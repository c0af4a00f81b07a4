package ensemble

import (
	"context"
	"net"
	"os"
	"strings"
	"testing"
	"time"
)

// TestStartRetriesWhenAPortIsTaken hands the first start attempt a client
// port that another listener holds.
func TestStartRetriesWhenAPortIsTaken(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a ZooKeeper server")
	}
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	takenPort := taken.Addr().(*net.TCPAddr).Port
	orig := allocatePorts
	defer func() { allocatePorts = orig }()
	calls := 0
	allocatePorts = func(n int) ([]int, error) {
		calls++
		ports, err := orig(n)
		if err == nil && calls == 1 {
			ports[0] = takenPort
		}
		return ports, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	e, err := Start(ctx, Config{Servers: 1, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Stop()
	if calls != 2 {
		t.Fatalf("allocatePorts called %d times, want 2", calls)
	}
	if got := e.State().Servers[0].ClientPort; got == takenPort {
		t.Fatalf("server kept the taken port %d", got)
	}
	log, err := os.ReadFile(e.LogPath(0))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(log), "Address already in use") {
		t.Fatalf("log does not show the failed first attempt:\n%s", log)
	}
}
