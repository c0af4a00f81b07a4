package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zklock/zklock/ensemble/ensembletest"
	"github.com/zklock/zklock/faultinject"
	"github.com/zklock/zklock/impl/zklock"
)

// counts is what an Observer saw of run's sessions and locks.
type counts struct {
	established, ended, granted, deadLocks atomic.Int64
}

func (c *counts) observer() zklock.Observer {
	return zklock.Observer{
		Acquired: func(a zklock.Acquisition) {
			switch {
			case a.Err == nil:
				c.granted.Add(1)
			case errors.Is(a.Err, zklock.ErrSessionLost), errors.Is(a.Err, zklock.ErrSessionExpired), errors.Is(a.Err, zklock.ErrClosed):
				c.deadLocks.Add(1)
			}
		},
		Session: func(e zklock.SessionEvent) {
			switch e.Kind {
			case zklock.SessionEstablished:
				c.established.Add(1)
			case zklock.SessionEnded:
				c.ended.Add(1)
			}
		},
	}
}

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("not within a minute: %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A session lost (its client cut off past the session timeout) never
// comes back: the worker makes a new Session and writes again with a
// newer token, instead of retrying Lock on the dead one forever.
func TestRunMakesNewSessionAfterLoss(t *testing.T) {
	servers := ensembletest.Require(t)
	log.SetOutput(io.Discard)
	defer log.SetOutput(os.Stderr)
	net, err := faultinject.NewSet(servers)
	if err != nil {
		t.Fatal(err)
	}
	defer net.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	store, err := OpenStore(ctx, filepath.Join(t.TempDir(), "orders.db"), true)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	var c counts
	done := make(chan error, 1)
	lock := fmt.Sprintf("/fencing-test/%s-%d", t.Name(), time.Now().UnixNano())
	go func() {
		done <- run(ctx, net.Addrs(), lock, store, "w", zklock.WithObserver(c.observer()),
			zklock.WithSessionTimeout(4*time.Second), zklock.WithEnsembleTiming(ensembletest.Timing()))
	}()
	var first int64
	eventually(t, "a first write", func() bool {
		_, tok, err := store.Read(ctx, "next-order")
		first = tok
		return err == nil
	})
	net.BlackholeUntilHealed()
	net.Sever()
	eventually(t, "the session's loss", func() bool { return c.ended.Load() >= 1 })
	// The fault lasts a second more: a loop on the dead session spins
	// through it.
	time.Sleep(time.Second)
	dead := c.deadLocks.Load()
	net.Heal()
	eventually(t, "a write on a new session", func() bool {
		_, tok, err := store.Read(ctx, "next-order")
		return err == nil && tok > first && c.established.Load() >= 2
	})
	if dead > 2 {
		t.Errorf("%d acquisitions failed on the ended session: the worker kept using it", dead)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("run: %v", err)
	}
}
