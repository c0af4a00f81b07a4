// Package workload is what a campaign's clients do: each is an application
// process with one session at a time, through its own fault-injecting
// proxies, that takes exclusive and read/write leases on the campaign's lock
// paths, with zklock or with go-zookeeper's zk.Lock (a control), and in its
// critical sections writes and reads two registers per lock, a ZooKeeper
// node and an in-process fenced resource; or, with LockElection, that
// campaign on zklock's elections, lead, proclaim and resign, or observe;
// or, with LockSemaphore, that take leases of zklock's counting semaphores.
// Every operation and every lost lease is recorded in the campaign's history.
package workload

import (
	"context"
	"crypto/tls"
	"fmt"
	"github.com/zklock/zklock/traceevent"
	"io"
	"log/slog"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklock/zklock/checker"
	"github.com/zklock/zklock/cmd/chaos/internal/monitor"
	"github.com/zklock/zklock/impl/zklock"
)

// Lock implementations a campaign can run.
const (
	LockZklock = "zklock" // this project's library: the campaign must pass
	LockZk     = "zk"     // go-zookeeper's zk.Lock: a control the checker must catch
)

// Config is what the clients take from the campaign's command line.
type Config struct {
	Lock    string  // the recipe the clients run: LockZklock, LockElection, LockSemaphore or LockZk
	Seed    int64   // seeds every client's choices
	RWRatio float64 // share of operations on read/write lock paths
	Pin     bool    // client i talks to server i mod N only
	// PinTo, with Pin, narrows the servers clients are pinned to (indexes
	// into the server list): client i talks to PinTo[i mod len(PinTo)].
	PinTo          []int
	IdleHold       time.Duration // end critical sections idle for up to this long; 0 for none
	SessionTimeout time.Duration // asked for every session
	NoFence        bool          // write to ZooKeeper without Lease.Guard (a control)
	Max            int           // leases of each semaphore held at once (LockSemaphore)
	// JudgeMax, when not 0, is the max recorded on a semaphore's acquires
	// instead of Max: a control that judges Max leases against a lower max.
	JudgeMax int
	// Auth is the digest credentials ("user:password") every session
	// authenticates with, and the lock nodes are created for (LockACL); nil
	// for a campaign without ACLs (--no-acl, a control).
	Auth []byte
}

// AuthScheme is the scheme of Config.Auth: ZooKeeper's built-in digest.
const AuthScheme = "digest"

// LockACL is the ACL of every node a campaign with credentials creates:
// the authenticated creator may do anything, the world may only read. So
// only the campaign's own clients can create, change or delete lock nodes.
func LockACL() []zk.ACL {
	return append(zk.AuthACL(zk.PermAll), zk.WorldACL(zk.PermRead)...)
}

// Workload is what every client of a campaign shares. Its fields are set
// before any client runs.
type Workload struct {
	Cfg     Config
	Rec     *checker.Recorder
	Mon     *monitor.Monitor
	Excl    []*LockPath          // exclusive lock paths
	RW      []*LockPath          // read/write lock paths
	Timeout time.Duration        // the session timeout the servers granted
	Timing  zklock.SessionOption // the servers' tickTime and syncLimit, for zklock's loss rule
	TLS     *tls.Config          // nil, or the servers speak TLS only and this verifies them
	// Tracer returns a client's zklock.Tracer, which records its protocol
	// steps; nil for none (--lock=zk).
	Tracer func(client string) zklock.Tracer
	// Env records an environment event in the trace (an operator's
	// ForeignDelete or ForeignReplace); nil when nothing is traced.
	Env func(traceevent.Event)
}

func (w *Workload) tracer(client string) zklock.Tracer {
	if w.Tracer == nil {
		return nil
	}
	return w.Tracer(client)
}

// LockPath is one contended lock and the two registers its critical sections
// write: a ZooKeeper node and an in-process resource.
type LockPath struct {
	Path string // the lock path
	Data string // the ZooKeeper node written under the lock
	RW   bool   // a read/write lock (else exclusive)
	mem  *memRegister
}

// NewLockPath returns the lock at path, whose critical sections write the
// ZooKeeper node data and an in-process register, fenced or not; mon counts
// the stale writes an unfenced register lets through.
func NewLockPath(path, data string, rw, fenced bool, mon *monitor.Monitor) *LockPath {
	lp := &LockPath{Path: path, Data: data, RW: rw}
	lp.mem = &memRegister{name: "mem:" + lp.Path, fenced: fenced, mon: mon}
	return lp
}

func (lp *LockPath) zkRegister() string { return "zk:" + lp.Data }

// Worker is one client's workload on one lock implementation.
type Worker interface {
	// Run runs rounds of acquire, critical section and release until ctx
	// ends.
	Run(ctx context.Context)
	// Close ends the client's session; a zk.Lock waiting in Lock returns.
	Close()
}

// NewWorker returns cl's worker on lock (LockZklock, LockElection, LockSemaphore or LockZk). A zk.Lock
// worker connects at once; an error says it could not, and the worker
// returned must still be closed.
func NewWorker(ctx context.Context, lock string, cl *Client) (Worker, error) {
	if lock == LockElection {
		return &electionWorker{zklockWorker: &zklockWorker{Client: cl}, observer: IsObserver(cl.index)}, nil
	}
	if lock == LockSemaphore {
		return &semaphoreWorker{zklockWorker: &zklockWorker{Client: cl}}, nil
	}
	if lock == LockZk {
		zw := &zkWorker{Client: cl}
		return zw, zw.connect(ctx)
	}
	return &zklockWorker{Client: cl}, nil
}

// QuietLog discards zklock's log lines.
var QuietLog = slog.New(slog.NewTextHandler(io.Discard, nil))

type nopLogger struct{}

func (nopLogger) Printf(string, ...any) {}

// Connect opens a plain connection and waits for its session.
func Connect(ctx context.Context, addrs []string, timeout time.Duration) (*zk.Conn, error) {
	return connect(ctx, addrs, timeout, nil)
}

// connect opens a connection, through dial unless it is nil (TLS), and
// waits up to 30 s for its first session.
func connect(ctx context.Context, addrs []string, timeout time.Duration, dial zk.Dialer) (*zk.Conn, error) {
	var conn *zk.Conn
	var events <-chan zk.Event
	var err error
	if dial != nil {
		conn, events, err = zk.Connect(addrs, timeout, zk.WithLogger(nopLogger{}), zk.WithLogInfo(false), zk.WithDialer(dial))
	} else {
		conn, events, err = zk.Connect(addrs, timeout, zk.WithLogger(nopLogger{}), zk.WithLogInfo(false))
	}
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	for {
		select {
		case ev := <-events:
			if ev.State == zk.StateHasSession {
				return conn, nil
			}
		case <-ctx.Done():
			conn.Close()
			return nil, fmt.Errorf("no session from %v: %w", addrs, ctx.Err())
		}
	}
}
