package zklock

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/zklock/zklock/ensemble"
	"github.com/zklock/zklock/ensemble/ensembletest"
)

// rewindTimeout is the session timeout of the wipe test's sessions: its
// loss deadline (four fifths of it) must lie beyond the time the wiped
// servers take to start again and elect a leader, which on a loaded 2-core
// machine is more than longTimeout's. Otherwise the session ends at that
// deadline before it can meet the older history, and the test cannot tell
// the two causes apart.
const rewindTimeout = 40 * time.Second

// rewindEnsemble starts an ensemble of its own for the wipe test, whose
// servers grant sessions of rewindTimeout (the shared ensemble's grant at
// most 20 ticks).
func rewindEnsemble(t *testing.T, ctx context.Context) *ensemble.Ensemble {
	t.Helper()
	ensembletest.RequireLocal(t)
	e, err := ensemble.Start(ctx, ensemble.Config{ExtraConfig: []string{
		fmt.Sprintf("maxSessionTimeout=%d", rewindTimeout.Milliseconds())}})
	if err != nil {
		t.Fatalf("ensemble: %v", err)
	}
	t.Cleanup(func() { e.Stop() })
	return e
}

// rewindSession is a session straight to the servers (no proxies, no
// trace: a wiped ensemble's zxids go back, which no trace of one history
// can show).
func rewindSession(t *testing.T, ctx context.Context, e *ensemble.Ensemble) *Session {
	t.Helper()
	s, err := NewSession(ctx, e.Addrs(), WithSessionTimeout(rewindTimeout), WithEnsembleTiming(e.TickTime(), e.SyncLimit()),
		WithLogger(slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestWipeEndsLeaseAtOnce (Rewind.Safety's MeetOlder): the ensemble is
// wiped under a holder. Every server then refuses the holder's session,
// which has seen newer zxids than the wiped ensemble's; the session ends
// with ErrHistoryRewound as soon as it meets that history, not with a
// plain ErrSessionLost at its loss deadline (the cause tells them apart;
// the test judges no duration). A later lease of the same lock in this
// process has a lower token, and says so (TokenRewound).
func TestWipeEndsLeaseAtOnce(t *testing.T) {
	ctx := ctxFor(t, 3*time.Minute)
	e := rewindEnsemble(t, ctx)
	lock := lockPath(t)
	a := rewindSession(t, ctx, e)
	ma, err := NewMutex(a, lock)
	if err != nil {
		t.Fatal(err)
	}
	held, err := ma.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, rewound := held.TokenRewound(); rewound {
		t.Fatalf("the first lease of %s says its token 0x%x went back", lock, held.Token())
	}
	// History the wipe takes back: the holder sees zxids well past what
	// the wiped ensemble reaches before it answers again.
	for i := 0; i < 20; i++ {
		if _, err := held.Guard(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Wipe(ctx); err != nil {
		t.Fatal(err)
	}
	wiped := time.Now()
	select {
	case <-held.Done():
	case <-ctx.Done():
		t.Fatal("the holder's lease outlived the wipe")
	}
	t.Logf("the lease ended %v after the wipe ended", time.Since(wiped).Round(time.Millisecond))
	if err := held.Err(); !errors.Is(err, ErrHistoryRewound) || !errors.Is(err, ErrLockLost) || !errors.Is(err, ErrSessionLost) {
		t.Fatalf("the holder's lease ended with %v, want ErrLockLost and ErrHistoryRewound (an ErrSessionLost)", err)
	}
	if err := a.Err(); !errors.Is(err, ErrHistoryRewound) {
		t.Fatalf("the session ended with %v, want ErrHistoryRewound", err)
	}

	b := rewindSession(t, ctx, e)
	mb, err := NewMutex(b, lock)
	if err != nil {
		t.Fatal(err)
	}
	again, err := mb.Lock(ctx)
	if err != nil {
		t.Fatal(err)
	}
	before, rewound := again.TokenRewound()
	if !rewound || before != held.Token() || again.Token() > held.Token() {
		t.Fatalf("the lease after the wipe: token 0x%x, TokenRewound (0x%x, %v); want a token not above it, said, naming 0x%x",
			again.Token(), before, rewound, held.Token())
	}
	if err := again.Unlock(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestNoteTokenOrder: within one history a token below one handed out
// before the acquisition began is a rewind; a lower token of a node made
// before a higher grant (readers of an RWMutex, leases of a Semaphore,
// granted in no czxid order) is not.
func TestNoteTokenOrder(t *testing.T) {
	s := &Session{}
	path := "/" + t.Name()
	t0 := time.Now()
	if got := s.noteToken(path, 0x10000000a, t0); got != 0 {
		t.Fatalf("first grant: %#x", got)
	}
	// Begun before the grant of 0x10000000a: its lower token is not said.
	if got := s.noteToken(path, 0x100000007, t0); got != 0 {
		t.Fatalf("a concurrent reader's lower token was said to go back: %#x", got)
	}
	time.Sleep(time.Millisecond) // begun strictly after the grant above
	if got := s.noteToken(path, 0x100000003, time.Now()); got != 0x10000000a {
		t.Fatalf("a token below one handed out before the acquisition began: %#x, want 0x10000000a", got)
	}
	if got := s.noteToken(path, 0x10000000a, time.Now()); got != 0x10000000a {
		t.Fatalf("a token equal to one handed out before: %#x, want 0x10000000a", got)
	}
	if got := s.noteToken(path, 0x10000000b, time.Now()); got != 0 {
		t.Fatalf("a higher token: %#x", got)
	}
	if got := s.noteToken(path+"-other", 1, time.Now()); got != 0 {
		t.Fatalf("another lock: %#x", got)
	}
	chrooted := &Session{chroot: "/app"}
	if got := chrooted.noteToken(path, 1, time.Now()); got != 0 {
		t.Fatalf("the same path under a chroot: %#x", got)
	}
}

func TestParseSrvr(t *testing.T) {
	leader := "Zookeeper version: 3.8.0-${mvngit.commit.id}, built on 2023-01-01\nLatency min/avg/max: 0/0.0/0\n" +
		"Received: 3\nSent: 2\nConnections: 1\nOutstanding: 0\nZxid: 0x100000005\nMode: leader\nNode count: 5\n"
	st, err := parseSrvr(leader)
	if err != nil || !st.leads || st.zxid != 0x100000005 || st.mode != "leader" {
		t.Fatalf("leader: %+v, %v", st, err)
	}
	st, err = parseSrvr("Zxid: 0x200000001\nMode: follower\n")
	if err != nil || st.leads || st.zxid != 0x200000001 {
		t.Fatalf("follower: %+v, %v", st, err)
	}
	for _, bad := range []string{
		"This ZooKeeper instance is not currently serving requests\n",
		"srvr is not executed because it is not in the whitelist.\n",
		"Zxid: 0xzz\nMode: leader\n",
		"Mode: leader\n",
		"",
	} {
		if _, err := parseSrvr(bad); !errors.Is(err, errNoSrvr) {
			t.Errorf("parseSrvr(%q): %v, want errNoSrvr", bad, err)
		}
	}
	if _, err := parseSrvr("srvr is not executed because it is not in the whitelist.\n"); !errors.Is(err, errSrvrNotAllowed) {
		t.Errorf("a srvr refused by the whitelist: %v, want errSrvrNotAllowed", err)
	}
}
