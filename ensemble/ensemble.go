package ensemble

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"
)

// startAttempts bounds how often Start picks fresh ports after a bind
// failure; a collision needs another process to grab one of a handful of
// ports in the instant between our probe and the JVM's bind, so a second
// collision in a row means something else is wrong.
const startAttempts = 3

// pollInterval is how often start-up and health waits re-probe the servers.
const pollInterval = 100 * time.Millisecond

// server is one member of the ensemble.
type server struct {
	index, id int // id is ZooKeeper's myid: index+1
	ports     serverPorts
	dir       string // holds zoo.cfg, the data directory and the log
	dataDir   string
	cfgPath   string
	logPath   string
	logStart  int64    // log size when the current process started: older lines are a previous run's
	proc      *process // nil when killed (or not started)
	paused    bool
}

func (s *server) addr() string { return "127.0.0.1:" + strconv.Itoa(s.ports.client) }

// Ensemble is a running ZooKeeper ensemble on loopback. Its methods are safe
// for concurrent use; operations that change a server's process are
// serialized.
type Ensemble struct {
	cfg     Config
	java    string
	root    string
	spawner *spawner
	links   *linkTable   // nil for a single server or a detached ensemble
	tls     *tlsMaterial // nil unless Config.TLS

	mu      sync.Mutex
	servers []*server
	stopped bool
}

// Start starts the ensemble described by cfg and returns once it is healthy
// (see WaitHealthy), or fails when ctx ends first. If a server cannot bind
// its ports, Start retries with fresh ports. On failure everything started is
// killed and the data directories are removed, but the log files are kept:
// the returned error names them.
func Start(ctx context.Context, cfg Config) (*Ensemble, error) {
	cfg = cfg.withDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if cfg.ClassPath == nil {
		cp, err := ClassPathFor(ctx, cfg.Version, nil)
		if err != nil {
			return nil, err
		}
		if cfg.TLS && cfg.Version == Version38 {
			cp = append(cp, tlsClassPath()...)
		}
		cfg.ClassPath = cp
	}
	java, err := cfg.findJava()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		return nil, fmt.Errorf("ensemble: %w", err)
	}
	root, err := os.MkdirTemp(cfg.Dir, rootPrefix)
	if err != nil {
		return nil, fmt.Errorf("ensemble: %w", err)
	}
	e := &Ensemble{cfg: cfg, java: java, root: root, spawner: newSpawner()}
	if cfg.Servers > 1 && !cfg.Detached {
		if e.links, err = newLinkTable(cfg.Servers); err != nil {
			e.spawner.stop()
			os.RemoveAll(root)
			return nil, err
		}
	}
	if cfg.TLS {
		if e.tls, err = newTLSMaterial(filepath.Join(root, "tls")); err != nil {
			e.spawner.stop()
			if e.links != nil {
				e.links.close()
			}
			os.RemoveAll(root)
			return nil, err
		}
	}
	for i := 0; i < cfg.Servers; i++ {
		dir := filepath.Join(root, fmt.Sprintf("server-%d", i+1))
		e.servers = append(e.servers, &server{
			index:   i,
			id:      i + 1,
			dir:     dir,
			dataDir: filepath.Join(dir, "data"),
			cfgPath: filepath.Join(dir, "zoo.cfg"),
			logPath: filepath.Join(dir, "server.log"),
		})
	}
	for attempt := 1; ; attempt++ {
		err = e.startAll(ctx)
		if err == nil {
			return e, nil
		}
		if !errors.Is(err, ErrPortInUse) || attempt == startAttempts {
			break
		}
		e.mu.Lock()
		kerr := e.killAllLocked()
		e.mu.Unlock()
		if kerr != nil {
			err = errors.Join(err, kerr)
			break
		}
	}
	if serr := e.StopKeepLogs(); serr != nil {
		err = errors.Join(err, serr)
	}
	return nil, err
}

// startAll writes every server's configuration with fresh ports, starts them
// all and waits until the ensemble is healthy.
func (e *Ensemble) startAll(ctx context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := len(e.servers)
	perServer := 3
	if n == 1 {
		perServer = 1
	}
	ports, err := allocatePorts(n * perServer)
	if err != nil {
		return err
	}
	for i, s := range e.servers {
		s.ports = serverPorts{client: ports[i*perServer]}
		if perServer == 3 {
			s.ports.quorum, s.ports.election = ports[i*3+1], ports[i*3+2]
		}
	}
	if e.links != nil {
		targets := make([]serverPorts, n)
		for i, s := range e.servers {
			targets[i] = s.ports
		}
		e.links.setTargets(targets)
	}
	for _, s := range e.servers {
		if err := e.writeConfig(s); err != nil {
			return &ServerError{Server: s.index, Op: "configure", Log: s.logPath, Err: err}
		}
		if err := e.startLocked(s); err != nil {
			return err
		}
	}
	// Waiting with e.mu held is fine: nobody else can have the ensemble yet.
	for {
		for _, s := range e.servers {
			if err := e.checkStartingLocked(s); err != nil {
				return err
			}
		}
		fatal, problem := e.probe(ctx, e.snapshotLocked())
		if fatal != nil {
			return fatal
		}
		if problem == nil {
			return nil
		}
		if err := sleep(ctx, pollInterval); err != nil {
			return fmt.Errorf("ensemble: start: not healthy (%v): %w (logs: %v)", problem, err, e.logPathsLocked())
		}
	}
}

func (e *Ensemble) writeConfig(s *server) error {
	if err := os.MkdirAll(s.dataDir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(s.dataDir, "myid"), []byte(strconv.Itoa(s.id)+"\n"), 0o644); err != nil {
		return err
	}
	return os.WriteFile(s.cfgPath, []byte(e.cfg.zooCfg(s, e.servers, e.links, e.tls)), 0o644)
}

// startLocked starts s's process; it does not wait for it to listen.
func (e *Ensemble) startLocked(s *server) error {
	s.logStart = 0
	if fi, err := os.Stat(s.logPath); err == nil {
		s.logStart = fi.Size()
	}
	p, err := e.spawn(s)
	if err != nil {
		return &ServerError{Server: s.index, Op: "start", Log: s.logPath, Err: err}
	}
	s.proc = p
	s.paused = false
	return nil
}

// checkStartingLocked reports a server that exited or failed to bind while
// starting; ErrPortInUse tells the caller that fresh ports may help.
func (e *Ensemble) checkStartingLocked(s *server) error {
	if s.proc == nil {
		return &ServerError{Server: s.index, Op: "start", Log: s.logPath, Err: ErrNotRunning}
	}
	bind := logShowsBindFailure(s)
	if s.proc.exited() {
		err := fmt.Errorf("%w: %v", ErrExited, s.proc.err)
		if bind {
			err = fmt.Errorf("%w: %w", ErrPortInUse, err)
		}
		return &ServerError{Server: s.index, Op: "start", Log: s.logPath, Err: err}
	}
	if bind {
		// A follower that fails to bind its quorum port does not exit, it
		// retries forever: give up on it now.
		return &ServerError{Server: s.index, Op: "start", Log: s.logPath, Err: ErrPortInUse}
	}
	return nil
}

// Stop kills every server this Ensemble started and removes its directory,
// logs included. It is idempotent.
func (e *Ensemble) Stop() error { return e.stop(false) }

// StopKeepLogs is Stop but keeps the log files (at LogPath(i)) and the
// configuration files, so that a failed run can be investigated.
func (e *Ensemble) StopKeepLogs() error { return e.stop(true) }

func (e *Ensemble) stop(keepLogs bool) error {
	e.mu.Lock()
	if e.stopped {
		e.mu.Unlock()
		return nil
	}
	e.stopped = true
	err := e.killAllLocked()
	e.mu.Unlock()
	e.spawner.stop()
	if e.links != nil {
		e.links.close()
	}
	if err != nil {
		// Removing the directories of a live server would hide it.
		return err
	}
	if !keepLogs {
		if err := os.RemoveAll(e.root); err != nil {
			return fmt.Errorf("ensemble: %w", err)
		}
		return nil
	}
	for _, s := range e.servers {
		if err := os.RemoveAll(s.dataDir); err != nil {
			return fmt.Errorf("ensemble: %w", err)
		}
	}
	return nil
}

func (e *Ensemble) killAllLocked() error {
	var errs []error
	for _, s := range e.servers {
		if s.proc == nil {
			continue
		}
		if err := s.proc.kill(); err != nil {
			errs = append(errs, &ServerError{Server: s.index, Op: "kill", Log: s.logPath, Err: err})
			continue
		}
		s.proc = nil
		s.paused = false
	}
	return errors.Join(errs...)
}

// Addrs returns the servers' client addresses ("127.0.0.1:port"), indexed by
// server, including servers that are currently killed or paused.
func (e *Ensemble) Addrs() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	addrs := make([]string, len(e.servers))
	for i, s := range e.servers {
		addrs[i] = s.addr()
	}
	return addrs
}

// Version is the server version the ensemble runs (Version38 or
// Version39), or "" when Config.ClassPath chose the servers' code.
func (e *Ensemble) Version() string { return e.cfg.Version }

// Size returns the number of servers.
func (e *Ensemble) Size() int { return len(e.servers) }

// Dir returns the ensemble's root directory.
func (e *Ensemble) Dir() string { return e.root }

// LogPath returns the path of server i's log file, or "" if i is out of
// range. A restarted server appends to the same file.
func (e *Ensemble) LogPath(i int) string {
	if i < 0 || i >= len(e.servers) {
		return ""
	}
	return e.servers[i].logPath
}

// LogPaths returns every server's log file path.
func (e *Ensemble) LogPaths() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.logPathsLocked()
}

func (e *Ensemble) logPathsLocked() []string {
	paths := make([]string, len(e.servers))
	for i, s := range e.servers {
		paths[i] = s.logPath
	}
	return paths
}

// Running reports whether server i has a live process (paused counts as
// live; killed or crashed does not).
func (e *Ensemble) Running(i int) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	if i < 0 || i >= len(e.servers) {
		return false
	}
	p := e.servers[i].proc
	return p != nil && !p.exited()
}

// Paused reports whether server i is stopped by Pause.
func (e *Ensemble) Paused(i int) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return i >= 0 && i < len(e.servers) && e.servers[i].paused
}

// serverLocked returns server i, or an error if i is out of range or the
// ensemble is stopped.
func (e *Ensemble) serverLocked(i int) (*server, error) {
	if e.stopped {
		return nil, ErrStopped
	}
	if i < 0 || i >= len(e.servers) {
		return nil, fmt.Errorf("%w: %d not in [0, %d)", ErrBadIndex, i, len(e.servers))
	}
	return e.servers[i], nil
}

// sleep waits d or until ctx ends, whichever is first.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
