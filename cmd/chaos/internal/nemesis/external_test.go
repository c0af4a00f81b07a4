package nemesis

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The --kill-cmd template gets the server's address and the signal.
func TestKillCmdTemplate(t *testing.T) {
	log := filepath.Join(t.TempDir(), "log")
	x := &externalCluster{addrs: []string{"127.0.0.1:2181", "10.0.0.2:2182"},
		killCmd: "echo {signal} {host} {port} {addr} >> " + log}
	ctx := context.Background()
	if err := x.run(ctx, 1, "KILL"); err != nil {
		t.Fatal(err)
	}
	if err := x.run(ctx, 0, "STOP"); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	want := "KILL 10.0.0.2 2182 10.0.0.2:2182\nSTOP 127.0.0.1 2181 127.0.0.1:2181\n"
	if string(b) != want {
		t.Errorf("kill-cmd ran as %q, want %q", b, want)
	}
	x.killCmd = "echo oops >&2; exit 3"
	if err := x.run(ctx, 0, "KILL"); err == nil || !strings.Contains(err.Error(), "oops") {
		t.Errorf("a failing kill-cmd reported %v", err)
	}
}
