package ensemble_test

import (
	"errors"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/zklock/zklock/ensemble"
	"github.com/zklock/zklock/ensemble/ensembletest"
)

// leaderZxid is the last zxid of the ensemble's leader.
func leaderZxid(t *testing.T, e *ensemble.Ensemble) int64 {
	t.Helper()
	ctx := ctxTimeout(t, 30*time.Second)
	i, err := e.Leader(ctx)
	if err != nil {
		t.Fatal(err)
	}
	st, err := e.Srvr(ctx, i)
	if err != nil {
		t.Fatal(err)
	}
	return st.Zxid
}

func exists(t *testing.T, c *ensembletest.Client, path string) bool {
	t.Helper()
	ok, _, err := c.Exists(path)
	if err != nil {
		t.Fatal(err)
	}
	return ok
}

// TestBackupRestoreWipe: a restore brings back the nodes of the backup and
// forgets the later ones, a wipe forgets them all, and each time the
// ensemble's zxid goes back (the restore's because the backup is two
// elections old).
func TestBackupRestoreWipe(t *testing.T) {
	e := ensembletest.RequireLocal(t)
	ctx := ctxTimeout(t, 3*time.Minute)
	c := ensembletest.Connect(t, e.Addrs(), 4*time.Second)
	acl := zk.WorldACL(zk.PermAll)
	if _, err := c.Create("/rewind-a", nil, 0, acl); err != nil && !errors.Is(err, zk.ErrNodeExists) {
		t.Fatal(err)
	}
	b, err := e.Backup()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Create("/rewind-b", nil, 0, acl); err != nil && !errors.Is(err, zk.ErrNodeExists) {
		t.Fatal(err)
	}
	for i := 0; i < 20; i++ { // history the restore must take back
		if _, err := c.Set("/rewind-b", []byte{byte(i)}, -1); err != nil {
			t.Fatal(err)
		}
	}
	// A restored ensemble elects a leader in the epoch after the backup's:
	// its zxids go back only if the ensemble went through two elections
	// since the backup, as here (the whole ensemble restarted twice).
	for round := 0; round < 2; round++ {
		for i := 0; i < e.Size(); i++ {
			if err := e.Restart(ctx, i); err != nil {
				t.Fatal(err)
			}
		}
		if err := e.WaitHealthy(ctx); err != nil {
			t.Fatal(err)
		}
	}
	before := leaderZxid(t, e)

	if err := e.Restore(ctx, b); err != nil {
		t.Fatal(err)
	}
	restored := leaderZxid(t, e)
	c2 := ensembletest.Connect(t, e.Addrs(), 4*time.Second)
	if !exists(t, c2, "/rewind-a") || exists(t, c2, "/rewind-b") {
		t.Errorf("after the restore: /rewind-a exists %v (want true), /rewind-b exists %v (want false)",
			exists(t, c2, "/rewind-a"), exists(t, c2, "/rewind-b"))
	}
	if restored >= before {
		t.Errorf("the restore did not take the zxid back: 0x%x, before 0x%x", restored, before)
	}

	if err := e.Wipe(ctx); err != nil {
		t.Fatal(err)
	}
	wiped := leaderZxid(t, e)
	c3 := ensembletest.Connect(t, e.Addrs(), 4*time.Second)
	if exists(t, c3, "/rewind-a") {
		t.Error("after the wipe: /rewind-a exists")
	}
	if wiped >= restored {
		t.Errorf("the wipe did not take the zxid back: 0x%x, before 0x%x", wiped, restored)
	}
	if err := e.Restore(ctx, nil); !errors.Is(err, ensemble.ErrBadConfig) {
		t.Errorf("Restore(nil): %v, want ErrBadConfig", err)
	}
}
