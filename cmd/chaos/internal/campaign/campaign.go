// Package campaign runs one chaos campaign: it connects, creates the run's
// nodes, lock paths and clients, runs the workload (package workload) while
// the nemesis injects the schedule (packages schedule and nemesis), heals
// everything, records what the locks left behind, and tears down. What the
// campaign recorded is then judged by package validate and reported by
// package report.
package campaign

import (
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/zklock/zklock/checker"
	"github.com/zklock/zklock/cmd/chaos/internal/monitor"
	"github.com/zklock/zklock/cmd/chaos/internal/nemesis"
	"github.com/zklock/zklock/cmd/chaos/internal/schedule"
	"github.com/zklock/zklock/cmd/chaos/internal/validate"
	"github.com/zklock/zklock/cmd/chaos/internal/workload"
	"github.com/zklock/zklock/faultinject"
	"github.com/zklock/zklock/impl/zklock"
)

// Campaign is one run: set up, workload and faults, then the end-of-run
// observation. The check and the report are the caller's.
type Campaign struct {
	Cfg    *Config
	Out    *OutDir
	Clu    nemesis.Cluster
	Sched  []schedule.Fault
	Stderr io.Writer // progress and notes; io.Discard with --quiet

	// Set by Setup and Run, for the report.
	Root        string              // this run's ZooKeeper subtree
	Mon         *monitor.Monitor    // the live counts
	Traces      *validate.TraceFile // zklock's protocol steps; nil for --lock=zk
	Interrupted bool                // the run's context ended before --duration
	Events      []nemesis.Event     // what became of each planned fault
	Elapsed     time.Duration       // how long the workload ran

	observer *zk.Conn
	w        *workload.Workload
	clients  []*workload.Client
	workers  []workload.Worker
	history  *os.File

	errMu sync.Mutex
	errs  []string // what went wrong after set-up, for the report
}

// SetupError is a failure before the campaign started: exit status 2 and
// nothing left in --out.
type SetupError struct{ Err error }

// Error is the failure's message, as Err says it.
func (e *SetupError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *SetupError) Unwrap() error { return e.Err }

// Errors returns what went wrong after set-up, for the report.
func (c *Campaign) Errors() []string {
	c.errMu.Lock()
	defer c.errMu.Unlock()
	return append([]string(nil), c.errs...)
}

// Fail records what went wrong for the report and tells Stderr.
func (c *Campaign) Fail(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	c.errMu.Lock()
	c.errs = append(c.errs, msg)
	c.errMu.Unlock()
	fmt.Fprintln(c.Stderr, "chaos:", msg)
}

// Note tells Stderr, as a printf.
func (c *Campaign) Note(format string, args ...any) { fmt.Fprintf(c.Stderr, format, args...) }

// Setup connects, checks the session timeout the servers grant, creates the
// run's nodes and the clients. Nothing is written to --out before it
// succeeds; on an error (a *SetupError) it has torn down what it made.
func (c *Campaign) Setup(ctx context.Context) (err error) {
	defer func() {
		if err != nil {
			c.Teardown()
			err = &SetupError{err}
		}
	}()
	addrs := c.Clu.Addrs()
	// zklock's session reports the timeout the servers granted; the faults'
	// lengths are planned from the one asked for, so they must agree.
	tlsCfg, err := c.clientTLS()
	if err != nil {
		return err
	}
	pctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	timing := zklock.WithEnsembleTiming(c.Clu.Timing())
	probe, err := zklock.NewSession(pctx, addrs, tlsOptions(tlsCfg, zklock.WithSessionTimeout(c.Cfg.SessionTimeout), timing, zklock.WithLogger(workload.QuietLog))...)
	cancel()
	if err != nil {
		return fmt.Errorf("connecting to %v: %w", addrs, err)
	}
	granted := probe.Timeout()
	probe.Close()
	if granted != c.Cfg.SessionTimeout {
		return fmt.Errorf("the servers grant a %v session timeout, not --session-timeout %v: pass --session-timeout %v", granted, c.Cfg.SessionTimeout, granted)
	}

	c.observer, err = connectObserver(ctx, addrs, c.Cfg.SessionTimeout, tlsCfg)
	if err != nil {
		return err
	}
	auth, err := c.authenticate()
	if err != nil {
		return err
	}
	c.Root = fmt.Sprintf("/zklock-chaos/%s-%d", time.Now().Format("20060102-150405"), uint64(c.Cfg.Seed)%1000000)
	c.Mon = monitor.New()
	c.w = &workload.Workload{Cfg: c.Cfg.workload(auth), Rec: checker.NewRecorder(checker.NewClock()), Mon: c.Mon, Timeout: granted, Timing: timing, TLS: tlsCfg}
	if err := c.makePaths(); err != nil {
		return err
	}
	if c.Cfg.PinFollowers {
		if c.w.Cfg.PinTo, err = c.followers(ctx); err != nil {
			return err
		}
	}
	if err := c.makeClients(ctx, addrs); err != nil {
		return err
	}
	c.history, err = os.Create(c.Out.File("history.jsonl"))
	// Nor is a campaign's that wipes or restores the ensemble: its zxids
	// (may) go back, and
	// a trace orders every step by them in one history. An operator's
	// deletes and replacements are environment events of the trace
	// (ForeignDelete, ForeignReplace), which the validator replays on an
	// exclusive lock (PredecessorLockForeign), a read/write lock
	// (SharedLockForeign) and an election (ElectionForeign, deletes
	// only): with a trace the operator strikes holders and leaders there,
	// and in an election's campaign skips operator-replace
	// (nemesis.operatorScope).
	rewinds := slices.Contains(c.Cfg.Faults, schedule.Wipe) || slices.Contains(c.Cfg.Faults, schedule.Restore)
	if err != nil || c.Cfg.Lock == workload.LockZk || c.Cfg.Lock == workload.LockSemaphore || rewinds {
		// zk.Lock has no tracer. A semaphore's trace is not replayed: its
		// internal mutex's, replayed in the lock's model, ran out of a
		// 5-million-state search in a clean-clone make verify (a
		// 20-second campaign with a frozen client, 6 minutes of CPU).
		return err
	}
	c.Traces, err = validate.NewTraceFile(c.Out.File("trace.jsonl"))
	if c.Traces != nil {
		c.w.Tracer, c.w.Env = c.Traces.Tracer, c.Traces.Env
	}
	return err
}

// authenticate makes the campaign's credentials, fresh for every run so that
// no intruder can know them, and authenticates the observer with them; nil
// without ACLs (--no-acl).
func (c *Campaign) authenticate() ([]byte, error) {
	if c.Cfg.NoACL {
		return nil, nil
	}
	secret := make([]byte, 16)
	if _, err := crand.Read(secret); err != nil {
		return nil, fmt.Errorf("making the campaign's credentials: %w", err)
	}
	auth := []byte("zklock-chaos:" + hex.EncodeToString(secret))
	if err := c.observer.AddAuth(workload.AuthScheme, auth); err != nil {
		return nil, fmt.Errorf("authenticating: %w", err)
	}
	return auth, nil
}

// makePaths creates the run's nodes: its root, and a lock path and a data
// node for every lock. With credentials, everything under the root is
// created with workload.LockACL: only the campaign's clients may change it.
func (c *Campaign) makePaths() error {
	mk := []string{"/zklock-chaos", c.Root, c.Root + "/locks", c.Root + "/data"}
	for i := 0; i < c.Cfg.Locks; i++ {
		rw := i >= c.Cfg.Locks-c.Cfg.RWLocks
		name := fmt.Sprintf("ex-%d", i)
		if c.Cfg.Lock == workload.LockElection {
			name = fmt.Sprintf("election-%d", i)
		}
		if c.Cfg.Lock == workload.LockSemaphore {
			name = fmt.Sprintf("sem-%d", i)
		}
		if rw {
			name = fmt.Sprintf("rw-%d", i-(c.Cfg.Locks-c.Cfg.RWLocks))
		}
		lp := workload.NewLockPath(c.Root+"/locks/"+name, c.Root+"/data/"+name, rw, !c.Cfg.NoFence, c.Mon)
		if rw {
			c.w.RW = append(c.w.RW, lp)
		} else {
			c.w.Excl = append(c.w.Excl, lp)
		}
		mk = append(mk, lp.Path, lp.Data)
	}
	for _, p := range mk {
		acl := zk.WorldACL(zk.PermAll)
		if c.w.Cfg.Auth != nil && p != "/zklock-chaos" { // the shared parent of every run stays open
			acl = workload.LockACL()
		}
		if _, err := c.observer.Create(p, nil, 0, acl); err != nil && !errors.Is(err, zk.ErrNodeExists) {
			return fmt.Errorf("creating %s: %w", p, err)
		}
	}
	return nil
}

// followers are the servers that follow the leader now (--pin-followers).
func (c *Campaign) followers(ctx context.Context) ([]int, error) {
	rctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	_, followers, err := c.Clu.Roles(rctx)
	if err == nil && len(followers) == 0 {
		err = errors.New("no follower")
	}
	if err != nil {
		return nil, fmt.Errorf("--pin-followers: finding the followers: %w", err)
	}
	return followers, nil
}

// makeClients makes every client, with its proxies and its worker.
func (c *Campaign) makeClients(ctx context.Context, addrs []string) error {
	for i := 0; i < c.Cfg.Clients; i++ {
		set, err := faultinject.NewSet(addrs, proxyOptions(c.w.TLS)...)
		if err != nil {
			return fmt.Errorf("proxies: %w", err)
		}
		cl := workload.NewClient(c.w, i, set)
		c.clients = append(c.clients, cl)
		wk, err := workload.NewWorker(ctx, c.Cfg.Lock, cl)
		c.workers = append(c.workers, wk)
		if err != nil {
			return err
		}
	}
	return nil
}
