package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/zklock/zklock/cmd/chaos/internal/campaign"
	"github.com/zklock/zklock/cmd/chaos/internal/schedule"
	"github.com/zklock/zklock/cmd/chaos/internal/workload"
)

// Bad input must fail fast: exit status 2, one line on stderr, nothing on
// stdout, and nothing left in --out.
func TestBadInputExits2WithOneLine(t *testing.T) {
	tmp := t.TempDir()
	file := filepath.Join(tmp, "a-file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	full := filepath.Join(tmp, "full")
	if err := os.MkdirAll(filepath.Join(full, "old-campaign"), 0o755); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		args []string
		want string // in the error line
	}{
		{"unknown flag", []string{"--bogus"}, "not defined"},
		{"positional argument", []string{"now"}, "unexpected argument"},
		{"unknown fault", []string{"--faults", "sever,meteor"}, `unknown fault "meteor"`},
		{"empty faults", []string{"--faults", ""}, "--faults is empty"},
		{"bad duration", []string{"--duration", "soon"}, "invalid value"},
		{"short duration", []string{"--duration", "1s"}, "--duration"},
		{"one client", []string{"--clients", "1"}, "--clients"},
		{"no locks", []string{"--locks", "0"}, "--locks"},
		{"rw ratio above 1", []string{"--rw-ratio", "1.5"}, "--rw-ratio"},
		{"rw ratio NaN", []string{"--rw-ratio", "NaN"}, "--rw-ratio"},
		{"mixed paths need two locks", []string{"--locks", "1", "--rw-ratio", "0.5"}, "--locks >= 2"},
		{"unknown lock", []string{"--lock", "etcd"}, "--lock"},
		{"zk.Lock has no read/write lock", []string{"--lock", "zk", "--rw-ratio", "0.3"}, "no read/write lock"},
		{"an election has no readers", []string{"--lock", "election", "--rw-ratio", "0.3"}, "no readers"},
		{"an election needs an observer", []string{"--lock", "election", "--clients", "2"}, "at least 3"},
		{"a semaphore has no readers", []string{"--lock", "semaphore", "--rw-ratio", "0.3"}, "no readers"},
		{"a semaphore of no leases", []string{"--lock", "semaphore", "--max", "0"}, "--max 0"},
		{"a semaphore nobody waits for", []string{"--lock", "semaphore", "--max", "5"}, "nobody ever waits"},
		{"negative judge-max", []string{"--lock", "semaphore", "--judge-max", "-1"}, "--judge-max"},
		{"tiny fault interval", []string{"--fault-interval", "1ms"}, "--fault-interval"},
		{"followers without pin", []string{"--pin-followers"}, "--pin-followers needs --pin"},
		{"session timeout too short", []string{"--session-timeout", "100ms"}, "--session-timeout"},
		{"check timeout zero", []string{"--check-timeout", "0s"}, "--check-timeout"},
		{"kill-cmd without servers", []string{"--kill-cmd", "kill -9 {port}"}, "--kill-cmd needs --servers"},
		{"server faults without kill-cmd", []string{"--servers", "127.0.0.1:1"}, "cannot inject kill-follower,kill-leader,pause-server"},
		{"pause-server without signal", []string{"--servers", "127.0.0.1:1", "--faults", "pause-server", "--kill-cmd", "pkill -f {port}"}, "{signal}"},
		{"kill-cmd names no server", []string{"--servers", "127.0.0.1:1", "--faults", "kill-leader", "--kill-cmd", "reboot"}, "names no server"},
		{"link faults with servers", []string{"--servers", "127.0.0.1:1", "--faults", "sever,flap"}, "cannot inject flap"},
		{"bad server address", []string{"--servers", "localhost"}, "not host:port"},
		{"out is a file", []string{"--out", filepath.Join(file, "sub")}, "--out"},
		{"out not writable", []string{"--out", "/proc/chaos-test"}, "--out"},
		{"out not empty", []string{"--out", full}, "not empty"},
		{"unreachable servers", []string{"--servers", "127.0.0.1:1", "--faults", "sever"}, "unreachable"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(tmp, "out", strings.ReplaceAll(tc.name, " ", "-"))
			args := append([]string{"--out", out}, tc.args...)
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), args, &stdout, &stderr, options{})
			if code != exitSetup {
				t.Errorf("exit %d, want %d; stderr %q", code, exitSetup, stderr.String())
			}
			msg := stderr.String()
			if strings.Count(msg, "\n") != 1 || !strings.HasSuffix(msg, "\n") || !strings.HasPrefix(msg, "chaos: ") {
				t.Errorf("stderr is not one line: %q", msg)
			}
			if !strings.Contains(msg, tc.want) {
				t.Errorf("stderr %q does not mention %q", msg, tc.want)
			}
			if stdout.Len() > 0 {
				t.Errorf("stdout not empty: %q", stdout.String())
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("--out %s was left behind", out)
			}
			if _, err := os.Stat(filepath.Join(tmp, "out")); err == nil {
				t.Errorf("parent of --out was left behind")
			}
		})
	}
	if entries, _ := os.ReadDir(full); len(entries) != 1 {
		t.Errorf("a non-empty --out was touched: %v", entries)
	}
}

func TestHelpDocumentsEveryFlagAndFault(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := run(context.Background(), []string{"--help"}, &stdout, &stderr, options{}); code != 0 {
		t.Fatalf("--help: exit %d, stderr %q", code, stderr.String())
	}
	help := stdout.String()
	for _, f := range schedule.All {
		if !strings.Contains(help, string(f.Kind)) {
			t.Errorf("--help does not mention fault %s", f.Kind)
		}
	}
	for _, flag := range []string{"duration", "clients", "locks", "rw-ratio", "seed", "faults", "fault-interval",
		"lock", "no-fence", "no-acl", "out", "servers", "kill-cmd", "session-timeout", "check-timeout", "quiet"} {
		if !strings.Contains(help, "-"+flag+" ") && !strings.Contains(help, "-"+flag+"\n") {
			t.Errorf("--help does not document -%s", flag)
		}
	}
}

func TestConfigDefaults(t *testing.T) {
	c, err := parseConfig([]string{"--out", t.TempDir()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Faults) != len(schedule.All) || c.Lock != workload.LockZklock || c.NoFence || c.NoACL || c.RWLocks != 1 {
		t.Errorf("defaults: %+v", c)
	}
	c, err = parseConfig([]string{"--lock=zk", "--out", t.TempDir()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.RWRatio != 0 || c.RWLocks != 0 {
		t.Errorf("--lock=zk keeps read/write locks: %+v", c)
	}
	c, err = parseConfig([]string{"--lock=election", "--out", t.TempDir()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.RWRatio != 0 || c.RWLocks != 0 {
		t.Errorf("--lock=election keeps read/write locks: %+v", c)
	}
	c, err = parseConfig([]string{"--faults", "latency, sever", "--out", t.TempDir()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := schedule.KindsArg(c.Faults); got != "latency,sever" {
		t.Errorf("--faults latency,sever parsed as %s", got)
	}
}

func TestRWLocksSplit(t *testing.T) {
	for _, tc := range []struct {
		locks int
		ratio float64
		want  int
	}{{3, 0, 0}, {3, 1, 3}, {3, 0.3, 1}, {2, 0.01, 1}, {2, 0.99, 1}, {10, 0.5, 5}} {
		if got := rwLocks(tc.locks, tc.ratio); got != tc.want {
			t.Errorf("rwLocks(%d, %v) = %d, want %d", tc.locks, tc.ratio, got, tc.want)
		}
	}
}

func TestConfigJSONIsReadable(t *testing.T) {
	c, err := parseConfig([]string{"--out", t.TempDir(), "--duration", "90s"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if m["duration"] != "1m30s" || m["session_timeout"] != "5s" || m["clients"] != float64(5) {
		t.Errorf("config in the report: %s", b)
	}
	var back campaign.Config
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(&back, c) {
		t.Errorf("config changed through JSON:\n%+v\n%+v", c, &back)
	}
}
