package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/zklock/zklock/ensemble/ensembletest"
	"github.com/zklock/zklock/faultinject"
	"github.com/zklock/zklock/impl/zklock"
)

func TestMain(m *testing.M) { os.Exit(ensembletest.Main(m)) }

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
// comes back: run makes a new Session and locks again on it, instead of
// calling Lock on the dead one, which fails at once, again and again.
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
	var c counts
	done := make(chan error, 1)
	lock := fmt.Sprintf("/examples-prometheus/%d", time.Now().UnixNano())
	go func() {
		done <- run(ctx, net.Addrs(), lock, zklock.WithObserver(c.observer()),
			zklock.WithSessionTimeout(4*time.Second), zklock.WithEnsembleTiming(ensembletest.Timing()))
	}()
	eventually(t, "a first grant", func() bool { return c.granted.Load() >= 1 })
	net.BlackholeUntilHealed()
	net.Sever()
	eventually(t, "the session's loss", func() bool { return c.ended.Load() >= 1 })
	// The fault lasts a second more: a loop on the dead session spins
	// through it.
	time.Sleep(time.Second)
	dead, granted := c.deadLocks.Load(), c.granted.Load()
	net.Heal()
	eventually(t, "a grant on a new session", func() bool { return c.established.Load() >= 2 && c.granted.Load() > granted })
	if dead > 2 {
		t.Errorf("%d acquisitions failed on the ended session: run kept using it", dead)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("run: %v", err)
	}
}
