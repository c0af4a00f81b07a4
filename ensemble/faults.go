package ensemble

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"time"
)

// restartAttempts and restartBackoff: Restart must reuse the server's ports,
// so on a bind failure it can only wait for whoever holds the port (usually
// an outgoing connection that the kernel gave our port as its source port)
// to let go.
const (
	restartAttempts = 5
	restartBackoff  = 500 * time.Millisecond
)

// Kill sends SIGKILL to server i and waits until the process is gone. The
// server's data directory is kept for Restart. Killing a killed server
// returns ErrNotRunning.
func (e *Ensemble) Kill(i int) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	s, err := e.serverLocked(i)
	if err != nil {
		return err
	}
	if s.proc == nil {
		return &ServerError{Server: i, Op: "kill", Log: s.logPath, Err: ErrNotRunning}
	}
	if err := s.proc.kill(); err != nil {
		return &ServerError{Server: i, Op: "kill", Log: s.logPath, Err: err}
	}
	s.proc = nil
	s.paused = false
	return nil
}

// Restart kills server i if it is running (paused or not), then starts it
// again on the same ports with the same data directory, and returns once it
// listens on its client port. It does not wait for the server to rejoin the
// quorum: with a majority down it cannot; call WaitHealthy for that. If
// Restart fails, the server is left killed.
func (e *Ensemble) Restart(ctx context.Context, i int) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	s, err := e.serverLocked(i)
	if err != nil {
		return err
	}
	if s.proc != nil {
		if err := s.proc.kill(); err != nil {
			return &ServerError{Server: i, Op: "restart", Log: s.logPath, Err: err}
		}
		s.proc = nil
		s.paused = false
	}
	for attempt := 1; ; attempt++ {
		if err := e.startLocked(s); err != nil {
			return err
		}
		err := e.waitListeningLocked(ctx, s)
		if err == nil {
			return nil
		}
		if kerr := s.proc.kill(); kerr != nil {
			return errors.Join(err, &ServerError{Server: i, Op: "restart", Log: s.logPath, Err: kerr})
		}
		s.proc = nil
		if !errors.Is(err, ErrPortInUse) || attempt == restartAttempts {
			return err
		}
		if err := sleep(ctx, restartBackoff); err != nil {
			return &ServerError{Server: i, Op: "restart", Log: s.logPath, Err: err}
		}
	}
}

// waitListeningLocked waits until s answers ruok. ZooKeeper opens its client
// port before leader election, and ruok is answered even while the server is
// not serving, so this means "the process is up", nothing more.
func (e *Ensemble) waitListeningLocked(ctx context.Context, s *server) error {
	for {
		if err := e.checkStartingLocked(s); err != nil {
			return err
		}
		pctx, cancel := context.WithTimeout(ctx, probeTimeout)
		out, err := e.fourLetter(pctx, s.addr(), "ruok")
		cancel()
		if err == nil && strings.TrimSpace(out) == "imok" {
			return nil
		}
		if err := sleep(ctx, pollInterval); err != nil {
			return &ServerError{Server: s.index, Op: "restart", Log: s.logPath, Err: err}
		}
	}
}

// Pause stops server i with SIGSTOP: it keeps its sockets but answers
// nothing, as a server in a long GC pause would. Pausing a paused server
// does nothing.
func (e *Ensemble) Pause(i int) error { return e.signal(i, "pause", syscall.SIGSTOP, true) }

// Resume continues a server stopped by Pause with SIGCONT. Resuming a
// server that is not paused does nothing.
func (e *Ensemble) Resume(i int) error { return e.signal(i, "resume", syscall.SIGCONT, false) }

func (e *Ensemble) signal(i int, op string, sig syscall.Signal, pause bool) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	s, err := e.serverLocked(i)
	if err != nil {
		return err
	}
	if s.proc == nil {
		return &ServerError{Server: i, Op: op, Log: s.logPath, Err: ErrNotRunning}
	}
	if s.proc.exited() {
		return &ServerError{Server: i, Op: op, Log: s.logPath, Err: fmt.Errorf("%w: %v", ErrExited, s.proc.err)}
	}
	if s.paused == pause {
		return nil
	}
	if err := s.proc.cmd.Process.Signal(sig); err != nil {
		return &ServerError{Server: i, Op: op, Log: s.logPath, Err: err}
	}
	s.paused = pause
	if pause {
		// The signal is delivered asynchronously: return only once every
		// thread has stopped, so that a paused server answers nothing.
		pid := s.proc.cmd.Process.Pid
		for give := time.Now().Add(5 * time.Second); !isStopped(pid) && time.Now().Before(give); {
			time.Sleep(time.Millisecond)
		}
	}
	return nil
}

// bindFailureMarkers are what a JVM logs when a port is taken.
var bindFailureMarkers = []string{"java.net.BindException", "Address already in use"}

// logShowsBindFailure reports whether the current run of s (the log after
// s.logStart) failed to bind a port.
func logShowsBindFailure(s *server) bool {
	f, err := os.Open(s.logPath)
	if err != nil {
		return false
	}
	defer f.Close()
	if _, err := f.Seek(s.logStart, io.SeekStart); err != nil {
		return false
	}
	b, err := io.ReadAll(f)
	if err != nil {
		return false
	}
	text := string(b)
	for _, m := range bindFailureMarkers {
		if strings.Contains(text, m) {
			return true
		}
	}
	return false
}
