package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklock/zklock/impl/zklock"
)

// Implementation names, as --impl takes them.
const (
	implFloor   = "floor"
	implZklock  = "zklock"
	implZkLock  = "zk.Lock"
	implCurator = "curator"
)

// lockClient is one session of one implementation, locking one path.
type lockClient interface {
	// lock waits for the lock (a read lock if !write and the implementation
	// has one) and returns the function that releases it.
	lock(ctx context.Context, write bool) (unlock func(context.Context) error, err error)
	close()
	// sessionID and server name the client's ZooKeeper session and the
	// server it is connected to: a stall's diagnosis finds the owner of the
	// node at the head of the queue by its session.
	sessionID() int64
	server() string
}

// dialer opens a client; rw asks for the read/write lock.
type dialer func(ctx context.Context, cfg config, path string, rw bool) (lockClient, error)

// goImpls are the implementations measured in this process.
var goImpls = map[string]dialer{
	implFloor:  dialFloor,
	implZklock: dialZklock,
	implZkLock: dialZkLock,
}

// zklock: a Session and a Mutex or an RWMutex.
type zklockClient struct {
	s  *zklock.Session
	m  *zklock.Mutex
	rw *zklock.RWMutex
}

func dialZklock(ctx context.Context, cfg config, path string, rw bool) (lockClient, error) {
	s, err := zklockSession(ctx, cfg, cfg.servers, cfg.sessionTimeout)
	if err != nil {
		return nil, err
	}
	c := &zklockClient{s: s}
	if rw {
		c.rw, err = zklock.NewRWMutex(s, path)
	} else {
		c.m, err = zklock.NewMutex(s, path)
	}
	if err != nil {
		s.Close()
		return nil, fmt.Errorf("zklock lock: %w", err)
	}
	return c, nil
}

// zklockSession opens a zklock session to servers (the ensemble's, or
// proxies in front of them) with the run's timing, its log discarded.
func zklockSession(ctx context.Context, cfg config, servers []string, timeout time.Duration, opts ...zklock.SessionOption) (*zklock.Session, error) {
	opts = append([]zklock.SessionOption{zklock.WithSessionTimeout(timeout),
		zklock.WithEnsembleTiming(cfg.tickTime, cfg.syncLimit),
		zklock.WithLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))}, opts...)
	s, err := zklock.NewSession(ctx, servers, opts...)
	if err != nil {
		return nil, fmt.Errorf("zklock session: %w", err)
	}
	return s, nil
}

func (c *zklockClient) lock(ctx context.Context, write bool) (func(context.Context) error, error) {
	var l *zklock.Lease
	var err error
	switch {
	case c.m != nil:
		l, err = c.m.Lock(ctx)
	case write:
		l, err = c.rw.Lock(ctx)
	default:
		l, err = c.rw.RLock(ctx)
	}
	if err != nil {
		return nil, err
	}
	return l.Unlock, nil
}

func (c *zklockClient) close()           { c.s.Close() }
func (c *zklockClient) sessionID() int64 { return c.s.ID() }
func (c *zklockClient) server() string   { return c.s.Conn().Server() }

// connect opens a go-zookeeper connection and waits for its session.
func connect(ctx context.Context, cfg config) (*zk.Conn, error) {
	conn, events, err := zk.Connect(cfg.servers, cfg.sessionTimeout, zk.WithLogger(silent{}))
	if err != nil {
		return nil, fmt.Errorf("zk.Connect: %w", err)
	}
	for {
		select {
		case ev := <-events:
			if ev.State == zk.StateHasSession {
				// go-zookeeper drops events once its small channel is full;
				// nobody reads it from here on, and that is harmless.
				return conn, nil
			}
		case <-ctx.Done():
			conn.Close()
			return nil, fmt.Errorf("zk.Connect: no session: %w", ctx.Err())
		}
	}
}

type silent struct{}

func (silent) Printf(string, ...any) {}

// zk.Lock: go-zookeeper's recipe. It takes no context, so a run bounded by
// ctx relies on the watchdog in main if it ever hangs.
type zkLockClient struct {
	conn *zk.Conn
	l    *zk.Lock
}

func dialZkLock(ctx context.Context, cfg config, path string, rw bool) (lockClient, error) {
	if rw {
		return nil, fmt.Errorf("zk.Lock has no read/write lock")
	}
	conn, err := connect(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return &zkLockClient{conn: conn, l: zk.NewLock(conn, path, zk.WorldACL(zk.PermAll))}, nil
}

func (c *zkLockClient) lock(context.Context, bool) (func(context.Context) error, error) {
	if err := c.l.Lock(); err != nil {
		return nil, err
	}
	return func(context.Context) error { return c.l.Unlock() }, nil
}

func (c *zkLockClient) close()           { c.conn.Close() }
func (c *zkLockClient) sessionID() int64 { return c.conn.SessionID() }
func (c *zkLockClient) server() string   { return c.conn.Server() }

// The floor: the ZooKeeper writes without which no ZooKeeper lock can work.
// Acquiring must make the holder visible to every other client, which takes
// one write (here the same protected EPHEMERAL_SEQUENTIAL create the locks
// do, so the payload is the same size); releasing must make it invisible
// again, one more write (delete). Each write is a round trip through the
// leader and a quorum commit. What the floor leaves out, every real lock
// pays: listing the queue after the create (a read round trip) and anything
// the client library adds. It does not exclude anyone: it is a cost, not a lock.
type floorClient struct {
	conn *zk.Conn
	path string
}

func dialFloor(ctx context.Context, cfg config, path string, rw bool) (lockClient, error) {
	conn, err := connect(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return &floorClient{conn: conn, path: path}, nil
}

func (c *floorClient) lock(context.Context, bool) (func(context.Context) error, error) {
	node, err := c.conn.Create(c.path+"/_c_"+uuid()+"-lock-", nil, zk.FlagEphemeral|zk.FlagSequence, zk.WorldACL(zk.PermAll))
	if err != nil {
		return nil, fmt.Errorf("floor create: %w", err)
	}
	return func(context.Context) error { return c.conn.Delete(node, -1) }, nil
}

func (c *floorClient) close()           { c.conn.Close() }
func (c *floorClient) sessionID() int64 { return c.conn.SessionID() }
func (c *floorClient) server() string   { return c.conn.Server() }

// uuid is a random version-4 UUID, the shape Curator's protected names carry.
func uuid() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}

// floorHandoff measures the physical floor of a hand-off: client A deletes a
// node that client B watches with getData, and the time runs from the moment
// A sends the delete until B receives the notification. Any lock hands over
// through at least this: the holder's release is a write that must commit,
// and the next holder can only learn of it from a notification (or a read that
// is no faster). What it leaves out, a real lock pays after the notification:
// re-listing the queue (a read round trip) before it may call itself the holder.
func floorHandoff(ctx context.Context, cfg config, path string, iterations, warmup int) (run, error) {
	fp, err := newFloorProbe(ctx, cfg, path+"/handoff")
	if err != nil {
		return run{}, err
	}
	defer fp.close()
	r := run{Impl: implFloor, Kind: kindHandoff, Clients: 2}
	start := time.Now()
	for i := 0; i < warmup+iterations; i++ {
		if i == warmup {
			start = time.Now()
		}
		d, err := fp.sample(ctx)
		if err != nil {
			return run{}, err
		}
		if i >= warmup {
			r.Handoff = append(r.Handoff, d)
		}
	}
	r.Ops = int64(iterations)
	r.Elapsed = time.Since(start)
	return r, nil
}

// floorProbe is the floor hand-off's two raw sessions: a deletes the node
// b watches. The failover benchmark takes one sample after each of its
// rounds, so that each round has a floor measured moments from it.
type floorProbe struct {
	a, b    *zk.Conn
	node    string
	retries int
}

func newFloorProbe(ctx context.Context, cfg config, node string) (*floorProbe, error) {
	a, err := connect(ctx, cfg)
	if err != nil {
		return nil, err
	}
	b, err := connect(ctx, cfg)
	if err != nil {
		a.Close()
		return nil, err
	}
	return &floorProbe{a: a, b: b, node: node}, nil
}

func (fp *floorProbe) close() {
	fp.a.Close()
	fp.b.Close()
}

// sample creates the node (a), sets b's watch on it, and times a's delete
// until b's notification.
func (fp *floorProbe) sample(ctx context.Context) (time.Duration, error) {
	a, b, node := fp.a, fp.b, fp.node
	for {
		if _, err := a.Create(node, nil, zk.FlagEphemeral, zk.WorldACL(zk.PermAll)); err != nil {
			return 0, fmt.Errorf("floor hand-off create: %w", err)
		}
		// B may be connected to a follower that has not applied A's create
		// yet: sync first (outside the timed part).
		if _, err := b.Sync(node); err != nil {
			return 0, fmt.Errorf("floor hand-off sync: %w", err)
		}
		_, _, watch, err := b.GetW(node)
		if errors.Is(err, zk.ErrNoNode) && fp.retries < 20 {
			// B still did not see the node: it moved to another server
			// between its sync and its read, or A's connection did (a
			// loaded box). Start the round again, untimed.
			fp.retries++
			if err := a.Delete(node, -1); err != nil && !errors.Is(err, zk.ErrNoNode) {
				return 0, fmt.Errorf("floor hand-off delete: %w", err)
			}
			continue
		}
		if err != nil {
			return 0, fmt.Errorf("floor hand-off getData watch (after %d retries): %w", fp.retries, err)
		}
		t0 := time.Now()
		if err := a.Delete(node, -1); err != nil {
			return 0, fmt.Errorf("floor hand-off delete: %w", err)
		}
		select {
		case ev := <-watch:
			if ev.Type != zk.EventNodeDeleted {
				return 0, fmt.Errorf("floor hand-off: watch fired with %v, want a deletion", ev.Type)
			}
			return time.Since(t0), nil
		case <-ctx.Done():
			return 0, ctx.Err()
		}
	}
}
