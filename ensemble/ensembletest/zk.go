package ensembletest

import (
	"sync"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
)

// closeWait bounds how long Connect's cleanup waits for the client's
// goroutines to end; zk.Conn.Close waits up to a second for the server to
// acknowledge closeSession and does not wait for its goroutines.
const closeWait = 10 * time.Second

type quietLogger struct{}

// Printf discards the message.
func (quietLogger) Printf(string, ...any) {}

// Client is a go-zookeeper connection that records every session state it
// goes through. go-zookeeper's event channel holds six events and drops the
// rest, so a test reading it after a long fault can miss the one it waits
// for; the recorder misses nothing.
type Client struct {
	*zk.Conn

	mu      sync.Mutex
	states  []zk.State
	next    int           // states before next have been consumed by WaitState
	changed chan struct{} // closed and replaced on every new state
}

// Connect opens a go-zookeeper connection to servers (which may be
// proxies), waits until it has a session and closes it when t ends, waiting
// for the client's goroutines to finish. The client's own logging is
// silenced because it would outlive t.
func Connect(t testing.TB, servers []string, sessionTimeout time.Duration) *Client {
	t.Helper()
	c := &Client{changed: make(chan struct{})}
	conn, events, err := zk.Connect(servers, sessionTimeout,
		zk.WithLogger(quietLogger{}), zk.WithLogInfo(false), zk.WithEventCallback(c.record))
	if err != nil {
		t.Fatalf("zk.Connect(%v): %v", servers, err)
	}
	c.Conn = conn
	t.Cleanup(func() {
		conn.Close()
		timer := time.NewTimer(closeWait)
		defer timer.Stop()
		for {
			select {
			case _, ok := <-events:
				if !ok {
					return
				}
			case <-timer.C:
				t.Errorf("zk connection to %v still running %v after Close", servers, closeWait)
				return
			}
		}
	})
	c.WaitState(t, zk.StateHasSession, 30*time.Second)
	return c
}

func (c *Client) record(ev zk.Event) {
	if ev.Type != zk.EventSession {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.states = append(c.states, ev.State)
	close(c.changed)
	c.changed = make(chan struct{})
}

// States returns every session state the client has gone through.
func (c *Client) States() []zk.State {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]zk.State(nil), c.states...)
}

// WaitState waits until the client enters state want, counting only states
// entered after the previous WaitState returned, and fails t after timeout.
func (c *Client) WaitState(t testing.TB, want zk.State, timeout time.Duration) {
	t.Helper()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		c.mu.Lock()
		for ; c.next < len(c.states); c.next++ {
			if c.states[c.next] == want {
				c.next++
				c.mu.Unlock()
				return
			}
		}
		changed := c.changed
		c.mu.Unlock()
		select {
		case <-changed:
		case <-timer.C:
			t.Fatalf("no %v within %v (states so far: %v)", want, timeout, c.States())
		}
	}
}
