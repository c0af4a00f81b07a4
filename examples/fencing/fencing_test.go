package main

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/zklock/zklock/ensemble/ensembletest"
	"github.com/zklock/zklock/impl/zklock"
)

// The paused holder is this test binary run again as a child process: it
// takes the lock, says so, and (once the parent has frozen it with SIGSTOP
// past its session and thawed it) writes with the token it was granted,
// without looking at its lease again: a process paused between its last
// check and its write.
const (
	envChild   = "FENCING_CHILD" // the lock path
	envServers = "FENCING_SERVERS"
	envDB      = "FENCING_DB"
	envFenced  = "FENCING_FENCED"
	envKey     = "FENCING_KEY" // the key the child writes
)

const childTimeout = 5 * time.Second

// ownTimeout is the session timeout of the test's own client, the new holder.
const ownTimeout = 15 * time.Second

func TestMain(m *testing.M) {
	if os.Getenv(envChild) != "" {
		os.Exit(child())
	}
	os.Exit(ensembletest.Main(m))
}

func child() int {
	ctx := context.Background()
	store, err := OpenStore(ctx, os.Getenv(envDB), os.Getenv(envFenced) == "1")
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	defer store.Close()
	s, err := zklock.NewSession(ctx, strings.Split(os.Getenv(envServers), ","),
		zklock.WithSessionTimeout(childTimeout), zklock.WithEnsembleTiming(ensembletest.Timing()))
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	defer s.Close()
	m, _ := zklock.NewMutex(s, os.Getenv(envChild))
	lease, err := m.Lock(ctx)
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	fmt.Println("held", lease.Token())
	bufio.NewReader(os.Stdin).ReadString('\n') // the parent freezes us here
	switch err := store.Write(ctx, os.Getenv(envChild), os.Getenv(envKey), "paused holder", lease.Token()); {
	case err == nil:
		fmt.Println("wrote")
	case errors.Is(err, ErrStaleToken):
		fmt.Println("refused")
	default:
		fmt.Println("error:", err)
	}
	return 0
}

// A holder frozen past its session (SIGSTOP, as the chaos pause fault
// does) loses its lock to another process, which writes with a higher
// token; thawed, the old holder writes with its own token, and the
// database refuses it: the newer holder's record stands. The control, a
// store without the token condition, takes the stale write and loses the
// newer holder's record, so it is the database's condition that refused,
// not the test.
func TestPausedHolderStaleWriteRefused(t *testing.T) {
	for _, fenced := range []bool{true, false} {
		t.Run(map[bool]string{true: "fenced", false: "control-unfenced"}[fenced], func(t *testing.T) {
			said, value, token, newToken := pausedHolderWrites(t, fenced, "next-order", "next-order")
			if fenced && (said != "refused" || value != "new holder" || token != newToken) {
				t.Fatalf("fenced store: the thawed holder said %q; record %q with token %d, want refused and the new holder's (token %d)",
					said, value, token, newToken)
			}
			if !fenced && (said != "wrote" || value != "paused holder") {
				t.Fatalf("control: the thawed holder said %q, record %q; want its stale write landed", said, value)
			}
		})
	}
}

// The fence is the lock's, not each key's: the new holder writes one key,
// and the thawed old holder's write of another key, which the new holder
// has not written, is refused all the same (it would otherwise land in
// the middle of the new holder's work). The control, a store without the
// condition, takes it.
func TestPausedHolderOtherKeyRefused(t *testing.T) {
	for _, fenced := range []bool{true, false} {
		t.Run(map[bool]string{true: "fenced", false: "control-unfenced"}[fenced], func(t *testing.T) {
			said, value, _, _ := pausedHolderWrites(t, fenced, "next-order", "invoice")
			if fenced && (said != "refused" || value != "") {
				t.Fatalf("fenced store: the thawed holder said %q, its key holds %q; want refused and no record", said, value)
			}
			if !fenced && (said != "wrote" || value != "paused holder") {
				t.Fatalf("control: the thawed holder said %q, record %q; want its stale write landed", said, value)
			}
		})
	}
}

// pausedHolderWrites: a child holds the lock and is frozen past its
// session; we take the lock and write ownKey; the thawed child writes
// childKey with its old token. It returns what the child said of its
// write, childKey's record afterwards ("" and 0 if none) and our token.
func pausedHolderWrites(t *testing.T, fenced bool, childKey, ownKey string) (said, value string, token, newToken int64) {
	t.Helper()
	servers := ensembletest.Require(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	lock := fmt.Sprintf("/fencing-test/%s-%d", t.Name(), time.Now().UnixNano())
	dbPath := filepath.Join(t.TempDir(), "orders.db")
	store, err := OpenStore(ctx, dbPath, fenced)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()

	k := startChild(t, servers, lock, dbPath, childKey, fenced)
	oldToken := k.heldToken(t)
	k.freeze(t)

	// The server expires the frozen child's session and grants us.
	// Our own session is not the one to expire: a longer timeout
	// leaves its loss rule a margin beyond the sync lag (with the
	// child's 5 s, about a second) that a busy machine's slow sync
	// replies cannot use up.
	s, err := zklock.NewSession(ctx, servers, zklock.WithSessionTimeout(ownTimeout), zklock.WithEnsembleTiming(ensembletest.Timing()))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	m, _ := zklock.NewMutex(s, lock)
	lease, err := m.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer lease.Unlock(ctx)
	if lease.Token() <= oldToken {
		t.Fatalf("new token %d not above the frozen holder's %d", lease.Token(), oldToken)
	}
	if err := store.Write(ctx, lock, ownKey, "new holder", lease.Token()); err != nil {
		t.Fatal(err)
	}

	said = k.thaw(t)
	value, token, err = store.Read(ctx, childKey)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		t.Fatal(err)
	}
	return said, value, token, lease.Token()
}

type pausedChild struct {
	cmd   *exec.Cmd
	in    *os.File
	lines *bufio.Scanner
}

func startChild(t *testing.T, servers []string, lock, dbPath, key string, fenced bool) *pausedChild {
	t.Helper()
	tick, syncLimit := ensembletest.Timing()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	f := "0"
	if fenced {
		f = "1"
	}
	cmd.Env = append(os.Environ(), envChild+"="+lock, envServers+"="+strings.Join(servers, ","), envDB+"="+dbPath, envFenced+"="+f, envKey+"="+key,
		ensembletest.EnvTickTime+"="+strconv.Itoa(int(tick.Milliseconds())), ensembletest.EnvSyncLimit+"="+strconv.Itoa(syncLimit))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdin = r
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r.Close()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGCONT)
		cmd.Process.Kill()
		cmd.Wait()
		w.Close()
	})
	return &pausedChild{cmd: cmd, in: w, lines: bufio.NewScanner(out)}
}

func (k *pausedChild) heldToken(t *testing.T) int64 {
	t.Helper()
	if !k.lines.Scan() {
		t.Fatalf("the child said nothing: %v", k.lines.Err())
	}
	tok, err := strconv.ParseInt(strings.TrimPrefix(k.lines.Text(), "held "), 10, 64)
	if err != nil || !strings.HasPrefix(k.lines.Text(), "held ") {
		t.Fatalf("the child said %q, want held <token>", k.lines.Text())
	}
	return tok
}

// freeze stops the child and waits until it is stopped.
func (k *pausedChild) freeze(t *testing.T) {
	t.Helper()
	if err := k.cmd.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", k.cmd.Process.Pid))
		if err == nil {
			// pid (comm) state ...: the state follows the last ')'.
			if f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:])); len(f) > 0 && f[0] == "T" {
				return
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("the child did not stop")
}

// thaw lets the child write and returns what it said of its write.
func (k *pausedChild) thaw(t *testing.T) string {
	t.Helper()
	fmt.Fprintln(k.in)
	if err := k.cmd.Process.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	if !k.lines.Scan() {
		t.Fatalf("the thawed child said nothing: %v", k.lines.Err())
	}
	return k.lines.Text()
}
