package ensemble

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// rootPrefix names every ensemble root directory; Teardown refuses to
// remove a directory without it, so a corrupt state file cannot make it
// delete something else.
const rootPrefix = "zkensemble-"

// State describes a running ensemble in a form that can be saved (as JSON)
// and used by another process to find or stop it; see cmd/zkensemble.
type State struct {
	Root       string        `json:"root"`         // the directory holding every server's files
	TickTimeMS int64         `json:"tick_time_ms"` // ZooKeeper's tickTime
	SyncLimit  int           `json:"sync_limit"`   // ZooKeeper's syncLimit, in ticks
	Detached   bool          `json:"detached"`     // whether the servers outlive their starter
	Servers    []ServerState `json:"servers"`      // indexed like Ensemble.Addrs
}

// ServerState describes one server of a State.
type ServerState struct {
	ID           int    `json:"id"`                      // myid
	PID          int    `json:"pid"`                     // 0 when killed
	Addr         string `json:"addr"`                    // client address, 127.0.0.1:ClientPort
	ClientPort   int    `json:"client_port"`             // clientPort
	QuorumPort   int    `json:"quorum_port,omitempty"`   // follower-to-leader port; 0 if standalone
	ElectionPort int    `json:"election_port,omitempty"` // leader election port; 0 if standalone
	DataDir      string `json:"data_dir"`                // dataDir, with myid
	Config       string `json:"config"`                  // zoo.cfg path; also identifies the process
	Log          string `json:"log"`                     // the server's stdout and stderr
}

// State returns a description of the ensemble's current processes.
func (e *Ensemble) State() State {
	e.mu.Lock()
	defer e.mu.Unlock()
	st := State{Root: e.root, TickTimeMS: e.cfg.TickTime.Milliseconds(), SyncLimit: e.cfg.SyncLimit, Detached: e.cfg.Detached}
	for _, s := range e.servers {
		ss := ServerState{
			ID:           s.id,
			Addr:         s.addr(),
			ClientPort:   s.ports.client,
			QuorumPort:   s.ports.quorum,
			ElectionPort: s.ports.election,
			DataDir:      s.dataDir,
			Config:       s.cfgPath,
			Log:          s.logPath,
		}
		if s.proc != nil && !s.proc.exited() {
			ss.PID = s.proc.pid()
		}
		st.Servers = append(st.Servers, ss)
	}
	return st
}

// Addrs returns the client addresses of the State's servers.
func (s State) Addrs() []string {
	addrs := make([]string, len(s.Servers))
	for i, ss := range s.Servers {
		addrs[i] = ss.Addr
	}
	return addrs
}

// Running reports whether the server's process is alive and is still the
// server (its pid may have been reused by another program since the state
// was saved).
func (ss ServerState) Running() bool {
	return ss.PID > 0 && isServerProcess(ss.PID, ss.Config)
}

// Teardown kills the State's servers that are still running and removes
// the ensemble's root directory. It is how a detached ensemble is stopped
// from another process; it is idempotent.
func Teardown(st State) error {
	var errs []error
	for _, ss := range st.Servers {
		if !ss.Running() {
			continue
		}
		if err := syscall.Kill(ss.PID, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
			errs = append(errs, fmt.Errorf("ensemble: kill server %d (pid %d): %w", ss.ID, ss.PID, err))
			continue
		}
		// Not our child: whoever adopted it reaps it, we can only watch.
		deadline := time.Now().Add(killWait)
		for ss.Running() {
			if time.Now().After(deadline) {
				errs = append(errs, fmt.Errorf("ensemble: server %d (pid %d) alive %v after SIGKILL", ss.ID, ss.PID, killWait))
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return err
	}
	if st.Root == "" {
		return nil
	}
	if !strings.HasPrefix(filepath.Base(st.Root), rootPrefix) {
		return fmt.Errorf("ensemble: refusing to remove %q: not an ensemble directory", st.Root)
	}
	if err := os.RemoveAll(st.Root); err != nil {
		return fmt.Errorf("ensemble: %w", err)
	}
	return nil
}
